"""Reports: a player tells staff about another, with the evidence as it stands at that moment
(the table, its hand, the table's last chat lines), copied into the report so that chat pruned
or deleted later is still what staff read. Staff act on it in the admin (games.staff.sanctions).
"""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.allowances import allowance_spend
from games.errors import ServiceError
from games.models import ChatMessage, Hand, Report, Table
from games.names import player_name
from games.social.follows import other_check
from games.table.privacy import table_open_to

NOTE_MAX = 500
# the table's last lines a report keeps: a conversation's worth, whoever wrote them
EVIDENCE_LINES = 30
# Reports one account may make: REPORTS_PER_HOUR an hour (a player in a bad evening reports a
# few; a flood is itself abuse, and each one asks staff for attention) and one open report on
# the same player at the same table.
REPORTS_PER_HOUR = 5
REPORT_WINDOW = 3600


def _evidence(table: Table | None) -> dict:
    if table is None:
        return {"table": None, "hand": None, "chat": []}
    hand = Hand.objects.filter(game__table=table).order_by("-number").first()
    lines = list(
        ChatMessage.objects.filter(table=table)
        .select_related("user__profile")
        .order_by("-created", "-id")[:EVIDENCE_LINES]
    )
    return {
        "table": table.pk,
        "mode": table.mode,
        "hand": hand.number if hand is not None else None,
        "chat": [
            {
                "author": m.user_id,
                "name": player_name(m.user),
                "text": m.text,
                "time": m.created.isoformat(),
            }
            for m in reversed(lines)
        ],
    }


def report_make(*, reporter, reported_id, reason, note="", table_id=None) -> Report:
    """``reporter`` reports ``reported_id`` for ``reason`` (Report.Reason), optionally about
    ``table_id`` (one they may see). Refused: nothing is stored."""
    other_check(reporter, reported_id)
    if reason not in Report.Reason.values:
        raise ServiceError("bad_reason", _("Choose why you report this player."))
    if not isinstance(note, str):
        raise ServiceError("malformed", _("That note is not text."))
    note = " ".join(note.split())
    if len(note) > NOTE_MAX:
        raise ServiceError(
            "note_long", _("A note may be at most %(n)d characters.") % {"n": NOTE_MAX}
        )
    if not get_user_model().objects.filter(pk=reported_id, is_active=True).exists():
        raise ServiceError("no_player", _("There is no such player."))
    table = None
    if table_id is not None:
        if isinstance(table_id, bool) or not isinstance(table_id, int):
            raise ServiceError("no_table", _("There is no such table."))
        table = Table.objects.filter(pk=table_id).first()
        # a private table the reporter was not at is no table to them: nothing to learn here
        if table is None or not table_open_to(table, reporter):
            raise ServiceError("no_table", _("There is no such table."))
    same = Report.objects.filter(
        reporter=reporter, reported_id=reported_id, table=table, status=Report.Status.OPEN
    )
    if same.exists():
        raise ServiceError(
            "reported", _("You have reported this player here already; staff will look at it.")
        )
    if not allowance_spend(f"report:{reporter.pk}", REPORTS_PER_HOUR, REPORT_WINDOW):
        raise ServiceError(
            "reports_fast", _("You have sent many reports this hour; try again later.")
        )
    with transaction.atomic():
        evidence = _evidence(table)
        return Report.objects.create(
            reporter=reporter,
            reported_id=reported_id,
            reason=reason,
            note=note,
            table=table,
            hand_number=evidence["hand"],
            evidence=evidence,
        )
