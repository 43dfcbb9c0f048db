"""When the server must act next at a table, and how the task for that moment is sent.

Every visible change goes through ``table_version_next`` (games.table.changes), which calls
``deadline_arm``: it works out the next moment the server has to act at the table and what it
will do then (a *kind*), from the rows alone. The kinds are listed in ``KINDS`` below: when each
falls. What each one does is games.timers.due's to say (it calls the table's services, which
call this module: the import goes one way). The Celery task (games.timers.tasks), the sweep
(games.timers.sweep) and the docs (docs/timers.md) all go by these two tables.

- ``start``: the deal, when the manager's 10-second start countdown ends;
- ``turn``: the play for the seat whose turn it is: a bot after its short pause, an away seat at
  once, a person when ``turn_seconds`` run out (docs/rules.md, Timeouts);
- ``next``: the next deal, a short pause after a hand ended (void or not);
- ``end``: the game's results, as soon as its last hand ended.

The moment is stored in ``Game.deadline`` in the same transaction, and once it commits the task
for that kind is sent by its pinned name with a countdown and the table's version; except for a
person's turn, whose deadline is further off than the sweep's reach (``arm_ahead``): the sweep
sends that task when the deadline comes near (``sweep_arm``), since most turns are played well
before. A handler that finds the table at another version does nothing, so late, repeated or
superseded tasks are harmless and nothing is ever revoked; a task that is lost (a worker killed,
a broker restarted) is found by the periodic sweep through ``Game.deadline``.

Eager Celery (tests): timed tasks are not sent at all. Run eagerly they would fire at once,
before their time, and a bot table would recurse move after move; tests drive them through the
sweep or a real worker instead.
"""

import contextvars
import hashlib
import logging
import math
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Game, Hand, Seat, Table

logger = logging.getLogger(__name__)

# The Celery task that does what a deadline calls for (games.timers.tasks), by its pinned name:
# this module sends it without importing the task, whose work calls back into the table.
DEADLINE_TASK = "games.tasks.deadline_due_task"


START_SECONDS = 10  # docs/rules.md: the game starts 10 seconds after the manager presses Start


# Pause between a hand's end and the next deal, so that everyone can read the result.
NEXT_HAND_SECONDS = 12


NEXT_HAND_AFTER_VOID_SECONDS = 4


def start_due_at(game: Game, table: Table, hand, seats):
    """When the ``start`` deadline falls: the end of the countdown."""
    return table.start_at if table.status == Table.Status.STARTING else None


def next_pause(hand: Hand) -> float:
    void = bool((hand.result or {}).get("void"))
    return NEXT_HAND_AFTER_VOID_SECONDS if void else NEXT_HAND_SECONDS


def hand_next_due_at(game: Game, table: Table, hand, seats):
    """When the ``next`` deadline falls: a pause after the last hand ended."""
    if game.status != Game.Status.PLAYING or hand is None or not hand.over:
        return None
    return hand.ended + timedelta(seconds=next_pause(hand))


def results_due_at(game: Game, table: Table, hand, seats):
    """When the ``end`` deadline falls: as soon as the game is over, until it has results."""
    if game.status == Game.Status.OVER and game.results is None:
        return game.ended
    return None


# An away seat is played for "at once" (docs/rules.md): after a beat, so that the others see
# whose turn it was.
AWAY_SECONDS = 1.0


# A bot's pause before its turn, in seconds: human-like, and different every turn.
BOT_PAUSE = (0.8, 2.5)


def bot_pause(hand) -> float:
    """The bot's pause for the turn at ``hand.version``: spread over OKEY_BOT_PAUSE, but a pure
    function of the hand and the move count, so that it is the same whenever it is worked out."""
    low, high = getattr(settings, "OKEY_BOT_PAUSE", BOT_PAUSE)
    digest = hashlib.sha256(f"{hand.pk}:{hand.version}".encode()).digest()
    return low + (high - low) * int.from_bytes(digest[:4], "big") / 2**32


def turn_due_at(game: Game, table, hand, seats):
    """When the ``turn`` deadline falls: a bot's pause, a beat for an away seat, or a person's
    ``turn_seconds`` after the turn started. ``seats``: the table's Seat rows when the caller
    has read them (a move), to spare a query."""
    if game.status != Game.Status.PLAYING or hand is None or hand.over:
        return None
    turn = hand.state["turn"]
    if seats is not None:
        seat = next(({"is_bot": s.is_bot, "away": s.away} for s in seats if s.index == turn), None)
    else:
        seat = Seat.objects.filter(table_id=table.pk, index=turn).values("is_bot", "away").first()
    if seat is None:
        return None
    if seat["is_bot"]:
        wait = bot_pause(hand)
    elif seat["away"]:
        wait = AWAY_SECONDS
    else:
        wait = table.rules.turn_seconds
    return (hand.turn_started or hand.started) + timedelta(seconds=wait)


@dataclass(frozen=True)
class DeadlineKind:
    name: str
    # (game, table, latest hand or None, the table's Seat rows or None) -> the moment, or None
    # when this kind is not what the table waits for. At most one kind gives a moment.
    when: Callable
    # A person's time must run out whole: the handler checks the deadline against ``now``
    # itself, and a task that comes early (another host's clock) waits out the rest.
    never_early: bool = False
    # A deadline further off than ``arm_ahead`` gets its task from the sweep when it comes
    # near, not from the change: most turns are played long before their time is up, and a
    # timed task at every move (each held by the worker until its time) cost more than the move.
    far_left_to_sweep: bool = False


KINDS = (
    DeadlineKind("start", when=start_due_at),
    DeadlineKind("turn", when=turn_due_at, never_early=True, far_left_to_sweep=True),
    DeadlineKind("next", when=hand_next_due_at),
    DeadlineKind("end", when=results_due_at),
)
KIND_BY_NAME = {kind.name: kind for kind in KINDS}


def deadline_of(game: Game, table: Table, hand=None, seats=None) -> tuple:
    """(moment, kind name) of the server's next action at the table, or (None, None).

    ``hand``: the table's latest hand, and ``seats``: its Seat rows, when the caller has read
    them (a move), to spare queries."""
    if table.status == Table.Status.CLOSED:  # closed: nothing more happens
        return None, None
    if hand is None and game.status == Game.Status.PLAYING:
        hand = game.latest_hand()
    for kind in KINDS:
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


# --- sending the task ----------------------------------------------------------------------


_batch: contextvars.ContextVar = contextvars.ContextVar("deadline_batch", default=None)


def deadline_send(kind: str, table_id: int, version: int, countdown: float) -> None:
    """Send the task for the table's deadline of ``kind`` at ``version``, ``countdown`` seconds
    from now. Never raises: the sweep acts on whatever was not sent. Eager Celery (tests) sends
    none (see the module)."""
    if current_app.conf.task_always_eager:
        return
    try:
        current_app.send_task(DEADLINE_TASK, args=(kind, table_id, version), countdown=countdown)
    except Exception:  # the broker is down: the change is committed, the sweep will act
        logger.exception("could not send %s for table %s v%s", kind, table_id, version)


def deadline_queue(kind: str, table_id: int, version: int, countdown: float) -> None:
    """Send the task once the transaction commits; inside ``deadline_batch``, only note it (the
    last one noted for the table is sent at the batch's end)."""
    pending = _batch.get()
    if pending is not None:
        pending[table_id] = (kind, version, countdown)
        return
    transaction.on_commit(partial(deadline_send, kind, table_id, version, countdown))


def deadline_unqueue(table_id: int) -> None:
    """Forget the task noted for the table in the running batch: its deadline moved beyond
    what the change sends (see ``arm_ahead``)."""
    pending = _batch.get()
    if pending is not None:
        pending.pop(table_id, None)


@contextmanager
def deadline_batch():
    """Inside the block, changes only note their deadline; at its end (still inside the caller's
    transaction) one task per table is sent on commit, for the last version. Several moves
    applied in one transaction (a bot's or a timeout's whole turn) so send one task, not one per
    move, each made stale by the next."""
    pending = {}
    token = _batch.set(pending)
    try:
        yield
    finally:
        _batch.reset(token)
    for table_id, (kind, version, countdown) in pending.items():
        transaction.on_commit(partial(deadline_send, kind, table_id, version, countdown))


def arm_ahead() -> float:
    """A deadline further off than this, in seconds, for a person's turn (``turn_seconds`` is
    at least 15) gets its task from the sweep, not from the change that set it."""
    return 2 * settings.OKEY_SWEEP_SECONDS + 2


def countdown_until(when, now) -> float:
    """Seconds from ``now`` to ``when`` for a task's countdown, rounded up to a tenth of a
    second: a task is never early."""
    return max(0.0, math.ceil((when - now).total_seconds() * 10) / 10)
