"""When the server must act next at a table: stored on the Game, sent as a task after commit.

Every visible change goes through ``table_bump``, which calls ``deadline_arm``: it works out the
next moment the server has to act at the table and what it will do then (a *kind*):

- ``start``: the deal, when the manager's 10-second start countdown ends;
- ``turn``: the play for the seat whose turn it is: a bot after its short pause, an away seat at
  once, a person when ``turn_seconds`` run out (okey-rules.md, Timeouts);
- ``next``: the next deal, a short pause after a hand ended (void or not);
- ``end``: the game's results, as soon as its last hand ended.

The moment is stored in ``Game.deadline`` in the same transaction, and once it commits the task
for that kind is sent with a countdown and the table's version; except for a person's turn,
whose deadline is further off than the sweep's reach (``arm_ahead``): the sweep sends that task
when the deadline comes near (``sweep.sweep_arm``), since most turns are played well before.
A task that finds the table at another version does nothing, so late, repeated or superseded
tasks are harmless and nothing is ever revoked; a task that is lost (a worker killed, a broker
restarted) is found by the periodic sweep (``games.services.sweep``) through ``Game.deadline``.

Several moves applied in one transaction (a bot's or a timeout's whole turn) send one task for
the last version only: see ``deadline_batch``.

Eager Celery (tests): timed tasks are not sent at all. Run eagerly they would fire at once,
before their time, and a bot table would recurse move after move; tests drive them through the
sweep or a real worker instead.
"""

import contextvars
import hashlib
import logging
import math
from contextlib import contextmanager
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import transaction

from games.models import Game, Seat, Table

logger = logging.getLogger(__name__)

# An away seat is played for "at once" (okey-rules.md): after a beat, so that the others see
# whose turn it was.
AWAY_SECONDS = 1.0
# A bot's pause before its turn, in seconds: human-like, and different every turn.
BOT_PAUSE = (0.8, 2.5)

_batch: contextvars.ContextVar = contextvars.ContextVar("deadline_batch", default=None)


def bot_pause(hand) -> float:
    """The bot's pause for the turn at ``hand.version``: spread over OKEY_BOT_PAUSE, but a pure
    function of the hand and the move count, so that it is the same whenever it is worked out."""
    low, high = getattr(settings, "OKEY_BOT_PAUSE", BOT_PAUSE)
    digest = hashlib.sha256(f"{hand.pk}:{hand.version}".encode()).digest()
    return low + (high - low) * int.from_bytes(digest[:4], "big") / 2**32


def next_pause(hand) -> float:
    from .hands import NEXT_HAND_AFTER_VOID_SECONDS, NEXT_HAND_SECONDS

    void = bool((hand.result or {}).get("void"))
    return NEXT_HAND_AFTER_VOID_SECONDS if void else NEXT_HAND_SECONDS


def arm_ahead() -> float:
    """A deadline further off than this, in seconds, for a person's turn (``turn_seconds`` is
    at least 15) gets its task from the sweep, not from the change that set it."""
    return 2 * settings.OKEY_SWEEP_SECONDS + 2


def countdown_until(when, now) -> float:
    """Seconds from ``now`` to ``when`` for a task's countdown, rounded up to a tenth of a
    second: a task is never early."""
    return max(0.0, math.ceil((when - now).total_seconds() * 10) / 10)


def deadline_of(game: Game, table: Table, hand=None, seats=None) -> tuple:
    """(moment, kind) of the server's next action at the table, or (None, None).

    ``seats``: the table's Seat rows, when the caller has read them (a move), to spare a query."""
    if table.status == Table.Status.CLOSED:  # closed by staff: nothing more happens
        return None, None
    if table.status == Table.Status.STARTING:
        return table.start_at, "start"
    if game.status == Game.Status.OVER:
        return (game.ended, "end") if game.results is None else (None, None)
    if game.status != Game.Status.PLAYING:
        return None, None
    if hand is None:
        hand = game.hands.order_by("-number").first()
    if hand is None:
        return None, None
    if hand.over:
        return hand.ended + timedelta(seconds=next_pause(hand)), "next"
    turn = hand.state["turn"]
    if seats is not None:
        seat = next(({"is_bot": s.is_bot, "away": s.away} for s in seats if s.index == turn), None)
    else:
        seat = Seat.objects.filter(table_id=table.pk, index=turn).values("is_bot", "away").first()
    if seat is None:
        return None, None
    if seat["is_bot"]:
        wait = bot_pause(hand)
    elif seat["away"]:
        wait = AWAY_SECONDS
    else:
        wait = table.rules.turn_seconds
    return (hand.turn_started or hand.started) + timedelta(seconds=wait), "turn"


def deadline_arm(game: Game, *, hand=None, seats=None) -> None:
    """Set ``game.deadline`` for the table as it is now (the caller saves the game) and send
    the task for it once the transaction commits."""
    from django.utils import timezone

    when, kind = deadline_of(game, game.table, hand, seats)
    game.deadline = when
    if when is None:
        return
    countdown = countdown_until(when, timezone.now())
    pending = _batch.get()
    if kind == "turn" and countdown > arm_ahead():
        # A person's turn: most are played long before their time is up, and a timed task at
        # every move (each held by the worker until its time) cost more than the move itself.
        # The sweep sends the task once the deadline is near (sweep.sweep_arm).
        if pending is not None:
            pending.pop(game.table_id, None)
        return
    if pending is not None:
        pending[game.table_id] = (kind, game.version, countdown)
        return
    transaction.on_commit(partial(task_send, kind, game.table_id, game.version, countdown))


@contextmanager
def deadline_batch():
    """Inside the block, changes only note their deadline; at its end (still inside the caller's
    transaction) one task per table is sent on commit, for the last version."""
    pending = {}
    token = _batch.set(pending)
    try:
        yield
    finally:
        _batch.reset(token)
    for table_id, (kind, version, countdown) in pending.items():
        transaction.on_commit(partial(task_send, kind, table_id, version, countdown))


def task_send(kind: str, table_id: int, version: int, countdown: float) -> None:
    from games import tasks

    task = {
        "start": tasks.game_start_task,
        "turn": tasks.turn_due_task,
        "next": tasks.hand_next_task,
        "end": tasks.game_end_task,
    }[kind]
    if task.app.conf.task_always_eager:
        return  # see the module's notes: the sweep does it
    try:
        task.apply_async(args=(table_id, version), countdown=countdown)
    except Exception:  # the broker is down: the change is committed, the sweep will act
        logger.exception("could not send %s for table %s v%s", task.name, table_id, version)


def deadline_rearm(table_id) -> None:
    """Work the table's deadline out again and send its task, without a visible change (after
    its times were changed by hand: an operator, a test). Tasks already sent stay harmless."""
    from .tables import table_lock

    with transaction.atomic():
        game, _ = table_lock(table_id)
        deadline_arm(game)
        game.save(update_fields=["deadline"])
