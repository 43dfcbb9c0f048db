"""What a table's deadline calls for, when it falls: the table's services by kind of deadline."""

from django.utils import timezone

from games.models import Game
from games.table.deadlines import KIND_BY_NAME
from games.table.lifecycle import game_start, hand_next
from games.table.results import game_results_record
from games.timers.timeouts import turn_due_play

# (*, table_id, expected_version[, now]) -> bool: does what is due, in its own transaction under
# the table's lock, and nothing (False) if the table is not at expected_version. ``now`` goes to
# the kinds that are never early (games.table.deadlines.KINDS).
HANDLERS = {
    "start": game_start,
    "turn": turn_due_play,
    "next": hand_next,
    "end": game_results_record,
}


def deadline_due(*, kind: str, table_id, expected_version, now=None) -> bool:
    """Do what the deadline of ``kind`` calls for at the table, if it is still at
    ``expected_version``; whether something was done. ``now``: the moment it is judged at (the
    sweep's), for the kinds that are never early."""
    entry, handler = KIND_BY_NAME.get(kind), HANDLERS.get(kind)
    if entry is None:  # a task from a build that had other kinds: the sweep does what is due
        return False
    if entry.never_early:
        return handler(table_id=table_id, expected_version=expected_version, now=now)
    return handler(table_id=table_id, expected_version=expected_version)


def deadline_wait(*, kind: str, table_id, expected_version, now=None) -> float:
    """Seconds a task of ``kind`` that came early must still wait: until the table's deadline,
    when the table is still at ``expected_version`` and the kind is never early; else 0.
    Reads only."""
    entry = KIND_BY_NAME.get(kind)
    if entry is None or not entry.never_early:
        return 0.0
    now = now or timezone.now()
    row = Game.objects.filter(table_id=table_id).values("version", "deadline").first()
    if row is None or row["version"] != expected_version or row["deadline"] is None:
        return 0.0
    return max(0.0, (row["deadline"] - now).total_seconds())
