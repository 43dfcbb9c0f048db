"""What staff do to an account, from a report or the player's row in the admin: warn, mute
their chat for a time, suspend the account for a time, lift a sanction, dismiss a report.

A suspension takes effect at once: the account's tables not over are left as a leave does
(games.personal_data: a game under way goes on with a bot or the timeouts in the seat), and from then
on it cannot sit, chat, follow or invite (games.sanctions is asked by each of those). Its open
sockets are refused at the next chat line or move. The player is told why and until when, on
whatever page they have open (games.social.notices) and in every refusal. Every action leaves
a StaffAction, the audit log.
"""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.models import Report, Sanction, StaffAction
from games.names import player_name
from games.personal_data import player_tables_leave
from games.social.notices import sanction_notice_publish
from games.staff.services import REASON_MAX, staff_check

# the longest mute or suspension staff may give at once: a year; a longer one is a decision
# to take again, not a slip of the keyboard
HOURS_MAX = 24 * 366

KIND_ACTION = {
    Sanction.Kind.WARN: StaffAction.Kind.ACCOUNT_WARN,
    Sanction.Kind.MUTE: StaffAction.Kind.ACCOUNT_MUTE,
    Sanction.Kind.SUSPEND: StaffAction.Kind.ACCOUNT_SUSPEND,
}


def _reason(reason) -> str:
    reason = " ".join(str(reason or "").split())[:REASON_MAX]
    if not reason:
        # the player is told it: a sanction without a reason tells them nothing
        raise ServiceError("no_reason", _("Write the reason: the player is shown it."))
    return reason


def account_sanction(
    *, staff, user_id, kind, reason, hours=None, report_id=None, now=None
) -> Sanction:
    """Warn (``hours`` unused), mute or suspend (for ``hours``) the account ``user_id``; the
    report it answers, if any, is marked acted on."""
    staff_check(staff)
    if kind not in KIND_ACTION:
        raise ServiceError("bad_kind", _("There is no such sanction."))
    reason = _reason(reason)
    until = None
    now = now or timezone.now()
    if kind != Sanction.Kind.WARN:
        if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= HOURS_MAX:
            raise ServiceError(
                "bad_hours", _("Give the time in hours, 1 to %(n)d.") % {"n": HOURS_MAX}
            )
        until = now + timedelta(hours=hours)
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise ServiceError("no_player", _("There is no such player."))
    if user.is_staff:
        raise ServiceError("staff", _("A staff account is not sanctioned here."))
    report = None
    if report_id is not None:
        report = Report.objects.filter(pk=report_id, reported=user).first()
        if report is None:
            raise ServiceError("no_report", _("There is no such report on this player."))
    with transaction.atomic():
        sanction = Sanction.objects.create(
            user=user, kind=kind, reason=reason, until=until, staff=staff, report=report
        )
        if report is not None:
            Report.objects.filter(pk=report.pk).update(
                status=Report.Status.ACTIONED, handled_by=staff, handled_at=now
            )
        action = StaffAction.objects.create(
            staff=staff,
            kind=KIND_ACTION[kind],
            table=None,
            reason=reason,
            details={
                "user": user.pk,
                "name": player_name(user),
                "sanction": sanction.pk,
                "until": until.isoformat() if until else None,
                "report": report.pk if report else None,
            },
        )
    if kind == Sanction.Kind.SUSPEND:
        # each table under its own lock, after the sanction is committed: from here on no seat
        # can be taken again (games.sanctions), so one pass leaves them all
        left = player_tables_leave(user)
        action.details["tables_left"] = left
        StaffAction.objects.filter(pk=action.pk).update(details=action.details)
    sanction_notice_publish(sanction)
    return sanction


def sanction_lift(*, staff, sanction_id, reason) -> Sanction:
    """End a mute or suspension before its time."""
    staff_check(staff)
    reason = _reason(reason)
    with transaction.atomic():
        sanction = Sanction.objects.select_for_update().filter(pk=sanction_id).first()
        now = timezone.now()
        if sanction is None or sanction.lifted or not sanction.until or sanction.until <= now:
            raise ServiceError("not_in_force", _("That sanction is not in force."))
        sanction.lifted = now
        sanction.save(update_fields=["lifted"])
        StaffAction.objects.create(
            staff=staff,
            kind=StaffAction.Kind.SANCTION_LIFT,
            reason=reason,
            details={"user": sanction.user_id, "sanction": sanction.pk, "kind": sanction.kind},
        )
    return sanction


def report_dismiss(*, staff, report_id, reason="") -> Report:
    """Close a report with nothing done to the player."""
    staff_check(staff)
    with transaction.atomic():
        report = Report.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise ServiceError("no_report", _("There is no such report."))
        if report.status != Report.Status.OPEN:
            raise ServiceError("report_closed", _("This report was handled already."))
        report.status, report.handled_by = Report.Status.DISMISSED, staff
        report.handled_at = timezone.now()
        report.save(update_fields=["status", "handled_by", "handled_at"])
        StaffAction.objects.create(
            staff=staff,
            kind=StaffAction.Kind.REPORT_DISMISS,
            reason=" ".join(str(reason or "").split())[:REASON_MAX],
            details={"user": report.reported_id, "report": report.pk},
        )
    return report
