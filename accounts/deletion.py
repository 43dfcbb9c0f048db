"""A player deletes their own account (KVKK art. 7 and 11, GDPR art. 17).

The user row is not deleted: the games other people played with them keep their results,
their seats and the move log that replays each hand (and a table they made keeps its manager).
Instead everything that says who they were goes: the e-mail addresses, the name, the password,
any second factor, their chat lines and the invites they sent (games.personal_data); the row stays
as an anonymous stand-in, inactive, shown as "Deleted player" (games.names) and left out of the
leaderboard. An inactive user with an unusable password can no longer log in, and every session
they had ends (Django's backends refuse an inactive user; the session's hash of the password no
longer matches).

Each row that points at a user, and its fate here, is listed in ``USER_ROWS``; a test checks
that the list covers every model installed, so a new one must say what happens to it.
"""

from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.models import StaffAction
from games.personal_data import player_games_erase, player_tables_leave
from games.table.publish import account_sockets_close

from .models import Profile

# "<app_label>.<model>.<field>": what an account's deletion does to the rows whose field points
# at the user (tests/accounts/test_deletion.py holds it to every model installed).
USER_ROWS = {
    "accounts.profile.user": "kept, anonymous: name replaced, marked deleted",
    "account.emailaddress.user": "deleted",
    "mfa.authenticator.user": "deleted (when allauth.mfa is installed)",
    "admin.logentry.user": "kept: what a staff member did in the admin",
    "games.table.manager": "kept: the table's manager is the anonymous user",
    "games.seat.user": "a table not over is left (games.personal_data); a finished one keeps it",
    "games.seat.left_by": "kept: who gave the game up, for its results (the anonymous user)",
    "games.move.user": "kept: the move log replays the hand",
    "games.chatmessage.user": "deleted",
    "games.playerresult.user": "kept: the results stay, under the anonymous user",
    "games.invite.inviter": "deleted",
    "games.invite.accepted_by": "kept, the e-mail address on it erased",
    "games.staffaction.staff": "kept: what a staff member did to a table",
    "games.entrant.user": "kept: the arena's standings, under the anonymous user; paused",
    "games.tournament.created_by": "kept: who scheduled the tournament (the anonymous user)",
    "accounts.guest.user": "kept: the guests' cleanup deletes the user once the session is over",
    "games.follow.follower": "deleted",
    "games.follow.followed": "deleted",
    "games.block.blocker": "deleted",
    "games.block.blocked": "deleted",
    "games.report.reporter": "kept, anonymous: staff's record of what was reported",
    "games.report.reported": "kept: staff's record, under the anonymous user",
    "games.report.handled_by": "kept: what a staff member did",
    "games.sanction.user": "kept: staff's record, under the anonymous user",
    "games.sanction.staff": "kept: what a staff member did",
}

# Never a name a player can choose: display names may not hold format characters (U+2060 is
# one, accounts.forms), so the stand-in can never take a living player's name, nor they its.
DELETED_NAME = "\u2060deleted {pk}"


class DeletionTokens(PasswordResetTokenGenerator):
    """The e-mailed link that confirms a deletion for an account without a usable password.
    Its hash covers the password and the e-mail address, so it dies with the account."""

    key_salt = "accounts.deletion.DeletionTokens"


deletion_tokens = DeletionTokens()


def account_delete(user) -> StaffAction:
    """Delete ``user``'s account as described above; the audit log's line for it."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise ServiceError("not_signed_in", _("Log in first."))
    if Profile.objects.filter(user=user, deleted__isnull=False).exists():
        raise ServiceError("deleted", _("This account is deleted already."))
    # each table in its own transaction under its own lock, as any leave; the rest together
    left = player_tables_leave(user)
    now = timezone.now()
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        erased = player_games_erase(user)
        emails, _counts = EmailAddress.objects.filter(user=user).delete()
        factors = 0
        if apps.is_installed("allauth.mfa"):
            authenticator = apps.get_model("mfa", "Authenticator")
            factors, _counts = authenticator.objects.filter(user=user).delete()
        _log_entries_erase(user)
        # a colon: never a username that sign-up or the admin would make (their validator
        # refuses it), so the stand-in cannot collide with a living account
        user.username = f"deleted:{user.pk}"
        user.email = user.first_name = user.last_name = ""
        user.set_unusable_password()
        user.is_active = user.is_staff = user.is_superuser = False
        user.last_login = None
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
        profile = user.profile
        profile.display_name = DELETED_NAME.format(pk=user.pk)
        profile.deleted = now
        profile.save(update_fields=["display_name", "deleted"])
        action = StaffAction.objects.create(
            staff=None,
            kind=StaffAction.Kind.ACCOUNT_DELETE,
            table=None,
            details={
                "user": user.pk,
                "tables_left": left,
                **erased,
                "email_addresses": emails,
                "second_factors": factors,
            },
        )
    # A request of theirs already under way when the account closed may have seated them again
    # meanwhile; from now on their sessions are anonymous, so a second pass leaves for good.
    again = player_tables_leave(user)
    if again:
        action.details["tables_left"] += again
        action.save(update_fields=["details"])
    account_sockets_close(user.pk)  # their open pages stop hearing their tables
    return action


def _log_entries_erase(user) -> None:
    """The admin's history names the objects it changed: not this account's address or name."""
    for obj in (user, user.profile):
        LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(obj), object_id=str(obj.pk)
        ).update(object_repr=f"deleted {obj._meta.model_name} {obj.pk}", change_message="")
