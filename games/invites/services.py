"""E-mail invites: the table manager reserves a seat for someone, who takes it by following a link.

The link carries a token from ``secrets.token_urlsafe``; only its SHA-256 is stored, so neither
the database nor the admin ever holds a working link. A resend makes a new token and the old link
dies. A live invite (sent and not expired) reserves its seat: nobody else, person or bot, may sit
there until it is accepted, cancelled or expires. On a private table only invited players (and
the manager) may sit at all.

The e-mail, and the link it holds, is in the invitee's language: their profile's when the address
belongs to an account, else the inviter's (who knows whom they invite better than the site's
default does). It is sent by the e-mail task after the transaction commits
(accounts.tasks.email_send_on_commit).
"""

import hashlib
import secrets
from datetime import timedelta
from functools import partial

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from accounts.tasks import email_send_on_commit
from games.errors import ServiceError
from games.labels import mode_label
from games.models import Block, Invite, Table
from games.names import player_name
from games.sanctions import suspension_refusal
from games.table.changes import table_bump, table_lock
from games.table.create import game_running_check
from games.table.guests import guest_refuse
from games.table.reservations import invite_hours, seats_reserved
from games.variants import variant_for

INVITES_PER_HOUR = 20  # e-mails one manager may send in an hour, resends included


RESENDS_MAX = 5  # sends of one invite, the first included


SESSION_KEY = "okey_invite"  # the token of the link this browser followed, kept through sign-up


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _signed_in(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def _email_clean(email) -> str:
    if not isinstance(email, str):
        raise ServiceError("bad_email", _("Enter an e-mail address."))
    email = email.strip()
    try:
        validate_email(email)
    except ValidationError:
        raise ServiceError(
            "bad_email", _("“%(email)s” is not an e-mail address.") % {"email": email[:100]}
        ) from None
    return email.lower()


def _emails_of(user) -> set[str]:
    own = {
        e.lower() for e in EmailAddress.objects.filter(user=user).values_list("email", flat=True)
    }
    if user.email:
        own.add(user.email.lower())
    return own


def _expired_mark(table: Table) -> None:
    """Store the state of sent invites past their expiry, which frees their seats for new ones."""
    table.invites.filter(status=Invite.Status.SENT, expires_at__lte=timezone.now()).update(
        status=Invite.Status.EXPIRED
    )


def _manager_check(table: Table, user) -> None:
    if not _signed_in(user) or user.pk != table.manager_id:
        raise ServiceError("not_manager", _("Only the table manager can invite players."))


def _open_check(table: Table) -> None:
    if table.status != Table.Status.OPEN:
        raise ServiceError("not_open", _("This table is no longer taking players."))


def _rate_check(user) -> None:
    since = timezone.now() - timedelta(hours=1)
    recent = Invite.objects.filter(inviter=user, sent_at__gte=since).count()
    if recent >= INVITES_PER_HOUR:
        raise ServiceError(
            "invite_fast", _("You have sent many invites in the last hour; try again later.")
        )


def _token_new(invite: Invite, now) -> str:
    token = secrets.token_urlsafe(32)
    invite.token_hash = token_hash(token)
    invite.sent_at = now
    invite.expires_at = now + timedelta(hours=invite_hours())
    return token


def _language_of(user) -> str:
    profile = getattr(user, "profile", None)
    language = getattr(profile, "language", "") or settings.LANGUAGE_CODE
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def _invitee_language(email: str, inviter) -> str:
    """The language to write to ``email`` in: its account's profile language, else the
    inviter's. The inviter never sees which it was."""
    invitee = (
        EmailAddress.objects.filter(email__iexact=email).select_related("user__profile").first()
    )
    if invitee is not None:
        return _language_of(invitee.user)
    user = get_user_model().objects.filter(email__iexact=email).select_related("profile").first()
    return _language_of(user if user is not None else inviter)


def invite_create(*, table_id, inviter, email, seat_index, base=None, deliver=None) -> Invite:
    """Reserve seat ``seat_index`` (0-based) for ``email`` and send the link after commit;
    ``base``: the link's scheme, host and port (``site_url``), SITE_URL by default. ``deliver``
    (invite, token), if given, takes the link to the invitee instead of the e-mail: a friend's
    invitation shown on their open page (games.social.invitations)."""
    if not _signed_in(inviter):
        raise ServiceError("not_signed_in", _("Sign in to invite players."))
    guest_refuse(inviter)
    refusal = suspension_refusal(inviter)
    if refusal is not None:
        raise refusal
    email = _email_clean(email)
    with transaction.atomic():
        game, table = table_lock(table_id)
        _manager_check(table, inviter)
        _open_check(table)
        if email in _emails_of(inviter):
            raise ServiceError("invite_self", _("You cannot invite yourself."))
        if isinstance(seat_index, bool) or not isinstance(seat_index, int):
            raise ServiceError("no_seat", _("There is no such seat at this table."))
        seats = list(table.seats.select_related("user"))
        seat = next((s for s in seats if s.index == seat_index), None)
        if seat is None:
            raise ServiceError("no_seat", _("There is no such seat at this table."))
        _expired_mark(table)
        reserved = seats_reserved(table)
        # The seat and the rate limit first, the address last and with one answer: a manager who
        # could tell "sits here" from "seat taken" would learn, guess by guess and without limit,
        # which address belongs to which player.
        if all(s.user_id or s.is_bot or s.index in reserved for s in seats):
            raise ServiceError(
                "table_full", _("Every seat at this table is taken or reserved already.")
            )
        if seat.user_id or seat.is_bot:
            raise ServiceError("seat_taken", _("That seat is taken."))
        if seat_index in reserved:
            raise ServiceError(
                "seat_reserved",
                _("That seat is already reserved by an invite: cancel or resend that one."),
            )
        _rate_check(inviter)
        seated = any(s.user is not None and s.user.email.lower() == email for s in seats)
        if seated or any(i.email == email for i in reserved.values()):
            raise ServiceError(
                "cannot_invite",
                _("That address cannot be invited to this table (again)."),
            )
        now = timezone.now()
        invite = Invite(
            table=table,
            seat_index=seat_index,
            email=email,
            inviter=inviter,
            language=_invitee_language(email, inviter),
        )
        token = _token_new(invite, now)
        invite.save()
        table_bump(game, lobby=True)  # the seat now shows as reserved
        if _blocked_by_invitee(email, inviter):
            # the invitee blocked the inviter: the invitation never reaches them, and the
            # inviter sees it sent like any other (a block is told to nobody); it expires
            pass
        elif deliver is not None:
            transaction.on_commit(partial(deliver, invite, token))
        else:
            _email_send(invite, token, base)
    return invite


def _blocked_by_invitee(email: str, inviter) -> bool:
    """Whether an account of ``email`` blocked ``inviter`` (games.social.blocks)."""
    owners = EmailAddress.objects.filter(email__iexact=email).values("user")
    return (
        Block.objects.filter(blocked=inviter)
        .filter(Q(blocker__in=owners) | Q(blocker__email__iexact=email))
        .exists()
    )


def _invite_locked(invite_id):
    """Lock the invite's table (its Game row, as every service does) and read the invite."""
    invite = Invite.objects.filter(pk=invite_id).first() if isinstance(invite_id, int) else None
    if invite is None:
        raise ServiceError("no_invite", _("There is no such invite."))
    game, table = table_lock(invite.table_id)
    invite.refresh_from_db()
    return game, table, invite


def invite_resend(*, invite_id, user, base=None) -> Invite:
    """A new link (the old one stops working) and a new expiry, for a sent or expired invite."""
    with transaction.atomic():
        game, table, invite = _invite_locked(invite_id)
        _manager_check(table, user)
        _open_check(table)
        if invite.status == Invite.Status.ACCEPTED:
            raise ServiceError("invite_accepted", _("That invite has been accepted already."))
        if invite.status == Invite.Status.CANCELLED:
            raise ServiceError(
                "invite_cancelled", _("That invite was cancelled: send a new one instead.")
            )
        if invite.sends >= RESENDS_MAX:
            raise ServiceError(
                "invite_resent", _("That invite has been sent too many times already.")
            )
        seat = table.seats.get(index=invite.seat_index)
        if seat.user_id or seat.is_bot:
            raise ServiceError("seat_taken", _("That seat is taken."))
        _expired_mark(table)
        other = seats_reserved(table).get(invite.seat_index)
        if other is not None and other.pk != invite.pk:
            raise ServiceError(
                "seat_reserved", _("That seat is reserved by another invite meanwhile.")
            )
        _rate_check(user)
        token = _token_new(invite, timezone.now())
        invite.status = Invite.Status.SENT
        invite.sends += 1
        invite.save()
        table_bump(game, lobby=True)
        _email_send(invite, token, base)
    return invite


def invite_cancel(*, invite_id, user) -> Invite:
    """Free the seat: the link stops working at once."""
    with transaction.atomic():
        game, table, invite = _invite_locked(invite_id)
        _manager_check(table, user)
        if invite.status == Invite.Status.ACCEPTED:
            raise ServiceError("invite_accepted", _("That invite has been accepted already."))
        if invite.status == Invite.Status.CANCELLED:
            raise ServiceError("invite_cancelled", _("That invite is cancelled already."))
        invite.status, invite.cancelled_at = Invite.Status.CANCELLED, timezone.now()
        invite.save(update_fields=["status", "cancelled_at"])
        table_bump(game, lobby=True)
    return invite


def invite_decline(*, token) -> Invite:
    """Whoever holds the link says no, signed in or not (the link is the proof, as it is for
    taking the seat): the seat is free again at once, and the manager's card says so."""
    found = invite_find(token)
    if found is None:
        raise invite_refusal(None)
    with transaction.atomic():
        game, table, invite = _invite_locked(found.pk)
        if invite.token_hash != token_hash(token):  # resent meanwhile: this link is dead
            raise invite_refusal(None)
        refusal = invite_refusal(invite)
        if refusal is not None:
            raise refusal
        invite.status, invite.cancelled_at = Invite.Status.DECLINED, timezone.now()
        invite.save(update_fields=["status", "cancelled_at"])
        table_bump(game, lobby=True)
    return invite


def invite_find(token) -> Invite | None:
    if not isinstance(token, str) or not 20 <= len(token) <= 100:
        return None
    return (
        Invite.objects.select_related("table", "inviter__profile")
        .filter(token_hash=token_hash(token))
        .first()
    )


def invite_refusal(invite: Invite | None, user=None) -> ServiceError | None:
    """Why this link cannot seat ``user`` (or anyone, for None) now; None if it can."""
    if invite is None:
        return ServiceError(
            "invite_unknown",
            _(
                "This invitation link is not valid. If it was sent again, use the newest "
                "e-mail; otherwise ask the table manager for a new invite."
            ),
        )
    signed_in = _signed_in(user)
    if invite.status == Invite.Status.ACCEPTED:
        if signed_in and invite.accepted_by_id == user.pk:
            return ServiceError("invite_used", _("You have accepted this invitation already."))
        return ServiceError(
            "invite_taken", _("This invitation has been used already by another player.")
        )
    if invite.status == Invite.Status.CANCELLED:
        return ServiceError(
            "invite_cancelled", _("This invitation was cancelled by the table manager.")
        )
    if invite.status == Invite.Status.DECLINED:
        return ServiceError("invite_declined", _("This invitation was declined."))
    if invite.state == Invite.Status.EXPIRED:
        return ServiceError(
            "invite_expired",
            _("This invitation has expired. Ask the table manager to send it again."),
        )
    if invite.table.status != Table.Status.OPEN:
        return ServiceError("not_open", _("This table is no longer taking players."))
    if signed_in and invite.inviter_id == user.pk:
        return ServiceError(
            "invite_self",
            _("This is your own invitation: send the link to the player you invited."),
        )
    return None


def invite_accept(*, token, user) -> Invite:
    """Seat ``user`` in the seat the link reserves. The link works once, for one account."""
    if not _signed_in(user):
        raise ServiceError("not_signed_in", _("Sign in to take a seat."))
    guest_refuse(user)  # an invited seat may be at a rated table: a guest signs up first
    found = invite_find(token)
    if found is None:
        raise invite_refusal(None)
    with transaction.atomic():
        game, table, invite = _invite_locked(found.pk)
        if invite.token_hash != token_hash(token):  # resent meanwhile: this link is dead
            raise invite_refusal(None)
        refusal = invite_refusal(invite, user) or suspension_refusal(user)
        if refusal is not None:
            raise refusal
        seat = table.seats.get(index=invite.seat_index)
        if seat.user_id or seat.is_bot:
            raise ServiceError("seat_taken", _("That seat is taken."))
        if not table.seats.filter(user=user).exists():
            game_running_check(user, table)  # one game at a time
        table.seats.filter(user=user).update(user=None)  # moving from another seat here
        seat.user = user
        seat.save(update_fields=["user"])
        invite.status, invite.accepted_by, invite.accepted_at = (
            Invite.Status.ACCEPTED,
            user,
            timezone.now(),
        )
        invite.save(update_fields=["status", "accepted_by", "accepted_at"])
        table_bump(game, lobby=True)
    return invite


def invite_email_proven(request, email) -> bool:
    """True when this browser followed a live invite sent to ``email``: reading the link proves
    the address, so signing up with it needs no second confirmation (allauth's
    ``is_email_verified``)."""
    token = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    invite = invite_find(token)
    return bool(
        invite is not None
        and isinstance(email, str)
        and invite.email == email.strip().lower()
        and invite.state == Invite.Status.SENT
    )


def site_url(request=None) -> str:
    """The base of an invite's link: SITE_URL when it is set (production); else the request's
    own scheme, host and port, which the invited person's browser can reach as the inviter's
    did; else (no request) SITE_URL's default, where `make run` listens."""
    if request is None or settings.SITE_URL_SET:
        return settings.SITE_URL
    return request.build_absolute_uri("/").rstrip("/")


def invite_url(token: str, base: str | None = None) -> str:
    return (base or settings.SITE_URL) + reverse("games:invite", args=[token])


def invite_email(invite: Invite, token: str, base: str | None = None) -> EmailMessage:
    """The invite e-mail, in the invite's language (the invitee's), its link to the page in it."""
    table = invite.table
    with translation.override(invite.language):
        partner = (
            variant_for(table).teams
            and table.seats.filter(
                user_id=invite.inviter_id, index=(invite.seat_index + 2) % 4
            ).exists()
        )
        ctx = {
            "inviter": player_name(invite.inviter),
            "table_number": table.pk,
            "mode_label": mode_label(table.mode),
            "seat_number": invite.seat_index + 1,
            "partner": partner,
            "rules": table.rules,
            "url": invite_url(token, base),
            "hours": invite_hours(),
        }
        subject = render_to_string("games/email/invite_subject.txt", ctx)
        subject = settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + " ".join(subject.split())
        body = render_to_string("games/email/invite_message.txt", ctx)
    return EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [invite.email])


def _email_send(invite: Invite, token: str, base: str | None) -> None:
    """Sent by the e-mail task once the transaction commits (accounts/tasks.py): the request
    does not wait for the mail server, and a failed send is retried by the worker."""
    email_send_on_commit(invite_email(invite, token, base))
