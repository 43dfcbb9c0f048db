"""When the server must act next at a table, and what it does then: the kinds of deadline.

Every visible change goes through ``table_bump``, which calls ``deadline_arm``: it works out the
next moment the server has to act at the table and what it will do then (a *kind*). Each kind
is registered once (``deadline_kind_register``): when it falls, which service handles it, and how its task is
sent. The Celery task (games.tasks.deadline_due_task), the sweep (games.services.sweep) and the
docs (docs/timers.md) all go by this table, so a new kind is one more line here.

- ``start``: the deal, when the manager's 10-second start countdown ends;
- ``turn``: the play for the seat whose turn it is: a bot after its short pause, an away seat at
  once, a person when ``turn_seconds`` run out (docs/rules.md, Timeouts);
- ``next``: the next deal, a short pause after a hand ended (void or not);
- ``end``: the game's results, as soon as its last hand ended.

The moment is stored in ``Game.deadline`` in the same transaction, and once it commits the task
for that kind is sent with a countdown and the table's version (games.services.deadline_tasks);
except for a person's turn, whose deadline is further off than the sweep's reach
(``arm_ahead``): the sweep sends that task when the deadline comes near (``sweep.sweep_arm``),
since most turns are played well before. A handler that finds the table at another version
does nothing, so late, repeated or superseded tasks are harmless and nothing is ever revoked; a
task that is lost (a worker killed, a broker restarted) is found by the periodic sweep through
``Game.deadline``.

Eager Celery (tests): timed tasks are not sent at all (games.tasks.deadline_task_send). Run
eagerly they would fire at once, before their time, and a bot table would recurse move after
move; tests drive them through the sweep or a real worker instead.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils import timezone

from games.models import Game, Table

from .deadline_tasks import arm_ahead, countdown_until, deadline_queue, deadline_unqueue

# deadline_batch: beside deadline_arm, whose tasks it gathers
from .deadline_tasks import deadline_batch as deadline_batch


@dataclass(frozen=True)
class DeadlineKind:
    name: str
    # (game, table, latest hand or None, the table's Seat rows or None) -> the moment, or None
    # when this kind is not what the table waits for. At most one kind gives a moment.
    when: Callable
    # (*, table_id, expected_version[, now]) -> bool: does what is due, in its own transaction
    # under the table's lock, and nothing (False) if the table is not at expected_version.
    handler: Callable
    # A person's time must run out whole: the handler checks the deadline against ``now``
    # itself, and a task that comes early (another host's clock) waits out the rest.
    never_early: bool = False
    # A deadline further off than ``arm_ahead`` gets its task from the sweep when it comes
    # near, not from the change: most turns are played long before their time is up, and a
    # timed task at every move (each held by the worker until its time) cost more than the move.
    far_left_to_sweep: bool = False


# Each kind is registered by the module that owns what it does (lifecycle: start, next, end;
# timeouts: turn) when games.services is imported: a new kind of deadline is one registration
# there, and this module, which every change reaches through table_bump, imports none of them.
KIND_BY_NAME: dict[str, DeadlineKind] = {}


def deadline_kind_register(kind: DeadlineKind) -> None:
    KIND_BY_NAME[kind.name] = kind


def deadline_of(game: Game, table: Table, hand=None, seats=None) -> tuple:
    """(moment, kind name) of the server's next action at the table, or (None, None).

    ``hand``: the table's latest hand, and ``seats``: its Seat rows, when the caller has read
    them (a move), to spare queries."""
    if table.status == Table.Status.CLOSED:  # closed: nothing more happens
        return None, None
    if hand is None and game.status == Game.Status.PLAYING:
        hand = game.hands.order_by("-number").first()
    for kind in KIND_BY_NAME.values():
        when = kind.when(game, table, hand, seats)
        if when is not None:
            return when, kind.name
    return None, None


def deadline_arm(game: Game, *, hand=None, seats=None) -> None:
    """Set ``game.deadline`` for the table as it is now (the caller saves the game) and send
    the task for it once the transaction commits."""
    when, name = deadline_of(game, game.table, hand, seats)
    game.deadline = when
    if when is None:
        return
    countdown = countdown_until(when, timezone.now())
    if KIND_BY_NAME[name].far_left_to_sweep and countdown > arm_ahead():
        deadline_unqueue(game.table_id)  # sweep.sweep_arm sends it once it is near
        return
    deadline_queue(name, game.table_id, game.version, countdown)


def deadline_due(*, kind: str, table_id, expected_version, now=None) -> bool:
    """Do what the deadline of ``kind`` calls for at the table, if it is still at
    ``expected_version``; whether something was done. ``now``: the moment it is judged at (the
    sweep's), for the kinds that are never early."""
    entry = KIND_BY_NAME.get(kind)
    if entry is None:  # a task from a build that had other kinds: the sweep does what is due
        return False
    if entry.never_early:
        return entry.handler(table_id=table_id, expected_version=expected_version, now=now)
    return entry.handler(table_id=table_id, expected_version=expected_version)


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
