"""Playing for a seat whose turn is due: a bot's turn, or a person's timeout (docs/rules.md).

A person whose ``turn_seconds`` run out is played for with the engine's ``auto_moves``: draw from
the stock if not drawn yet and discard the tile drawn. After ``AWAY_AFTER`` timeouts in a row the
seat is marked away and played for at once on its next turns, until the player acts again: any
move of theirs, or the "I'm back" button (``seat_back``).

Every move goes through ``move_submit``, the one move path, as the seat (no user, ``auto``), with
the version the table had when the turn came due: a player's own move that got in first makes
the version stale, and the timeout then does nothing; a timeout that got in first makes the
player's move stale. Either way exactly one of them is applied.

When a turn falls due (``turn_due_at``, the ``turn`` deadline of games.services.deadlines) is
worked out here too: it depends on who sits on the seat (a bot, an away seat, a person).
"""

import hashlib
import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine
from games.models import Game, Seat

from .bots import bot_turn_moves
from .deadline_tasks import deadline_batch
from .deadlines import DeadlineKind, deadline_kind_register
from .errors import ServiceError
from .moves import move_submit
from .tables import table_bump, table_lock

logger = logging.getLogger(__name__)

AWAY_AFTER = 2  # timeouts in a row that mark a seat away
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


def moves_apply(table_id, seat: int, moves, version: int) -> int:
    """Apply one turn's moves for ``seat`` through move_submit; the table's version after them.
    One deadline task is sent for the whole turn (deadline_batch)."""
    with deadline_batch():
        for move in moves:
            out = move_submit(
                table_id=table_id,
                seat=seat,
                move=engine.move_to_dict(move),
                expected_version=version,
                auto=True,
            )
            version = out.version
    return version


def turn_due_play(*, table_id, expected_version=None, now=None) -> bool:
    """Play the turn that is due at the table: a bot's, an away seat's or a timed-out person's.

    Does nothing (False) when the table is at another version than ``expected_version``, or no
    turn is due at ``now``.
    """
    now = now or timezone.now()
    with transaction.atomic():
        game, table = table_lock(table_id)
        if expected_version is not None and game.version != expected_version:
            return False
        if game.status != Game.Status.PLAYING or game.deadline is None:
            return False
        if game.deadline > now:  # never before its time: a move made in time always wins
            return False
        hand = game.hands.order_by("-number").first()
        if hand is None or hand.over:
            return False
        state = engine.hand_from_dict(hand.state)
        seat = table.seats.get(index=state.turn)
        if seat.is_bot:
            strength = seat.bot_strength or table.policy.bot_strength
            return _bot_turn(table_id, seat, state, game.version, strength)
        seat.timeouts_in_row += 1
        seat.away = seat.away or seat.timeouts_in_row >= AWAY_AFTER
        seat.save(update_fields=["timeouts_in_row", "away"])
        moves_apply(table_id, seat.index, engine.auto_moves(state, seat.index), game.version)
        return True


def _bot_turn(table_id, seat: Seat, state, version: int, strength: str) -> bool:
    try:
        with transaction.atomic():
            moves_apply(table_id, seat.index, bot_turn_moves(state, seat.index, strength), version)
    except (ServiceError, engine.IllegalMove, ValueError):
        # A bot whose plan is refused must not stall the table: it plays the timeout move.
        logger.exception("bot at table %s seat %s: plan refused", table_id, seat.index)
        moves_apply(table_id, seat.index, engine.auto_moves(state, seat.index), version)
    return True


def seat_back(*, table_id, user) -> int:
    """The player says they are back: their seat is no longer away. The table's version."""
    with transaction.atomic():
        game, table = table_lock(table_id)
        seat = None
        if user is not None and getattr(user, "is_authenticated", False):
            seat = table.seats.filter(user=user).first()
        if seat is None:
            raise ServiceError("not_seated", _("You are not sitting at this table."))
        if not seat.away and not seat.timeouts_in_row:
            return game.version
        seat.away, seat.timeouts_in_row = False, 0
        seat.save(update_fields=["away", "timeouts_in_row"])
        return table_bump(game)


deadline_kind_register(
    DeadlineKind(
        "turn", when=turn_due_at, handler=turn_due_play, never_early=True, far_left_to_sweep=True
    )
)
