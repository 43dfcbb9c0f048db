"""Playing for a seat whose turn is due: a bot's turn, or a person's timeout (docs/rules.md).

A person whose ``turn_seconds`` run out is played for with the engine's ``auto_moves``: draw from
the stock if not drawn yet and discard the tile drawn. After ``AWAY_AFTER`` timeouts in a row the
seat is marked away and played for at once on its next turns, until the player acts again: any
move of theirs, or the "I'm back" button (``seat_back``).

Every move goes through ``move_submit``, the one move path, as the seat (no user, ``auto``), with
the version the table had when the turn came due: a player's own move that got in first makes
the version stale, and the timeout then does nothing; a timeout that got in first makes the
player's move stale. Either way exactly one of them is applied.

When a turn falls due (``turn_due_at``, the ``turn`` deadline of games.table.deadlines) is
worked out here too: it depends on who sits on the seat (a bot, an away seat, a person).
"""

import logging

from django.db import transaction
from django.utils import timezone

from games import engine
from games.errors import ServiceError
from games.models import Game, Seat
from games.table.bots import bot_turn_moves
from games.table.changes import table_lock
from games.table.deadlines import deadline_batch
from games.table.moves import move_submit

logger = logging.getLogger(__name__)


AWAY_AFTER = 2  # timeouts in a row that mark a seat away


def moves_apply(table_id, seat: int, moves, version: int, rules: engine.Variant) -> int:
    """Apply one turn's moves for ``seat`` (moves of the game ``rules`` plays by) through
    move_submit; the table's version after them. One deadline task is sent for the whole turn
    (deadline_batch)."""
    with deadline_batch():
        for move in moves:
            out = move_submit(
                table_id=table_id,
                seat=seat,
                move=rules.move_to_dict(move),
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
        hand = game.latest_hand()
        if hand is None or hand.over:
            return False
        rules = table.engine_variant
        state = rules.hand_from_dict(hand.state)
        seat = table.seats.get(index=state.turn)
        if seat.is_bot:
            strength = seat.bot_strength or table.policy.bot_strength
            return _bot_turn(table, seat, state, game.version, strength)
        seat.timeouts_in_row += 1
        seat.away = seat.away or seat.timeouts_in_row >= AWAY_AFTER
        seat.save(update_fields=["timeouts_in_row", "away"])
        moves = rules.auto_moves(state, seat.index)
        moves_apply(table_id, seat.index, moves, game.version, rules)
        return True


def _bot_turn(table, seat: Seat, state, version: int, strength: str) -> bool:
    table_id, rules = table.pk, table.engine_variant
    try:
        with transaction.atomic():
            moves = bot_turn_moves(table, state, seat.index, strength)
            moves_apply(table_id, seat.index, moves, version, rules)
    except (ServiceError, engine.IllegalMove, ValueError):
        # A bot whose plan is refused must not stall the table: it plays the timeout move.
        logger.exception("bot at table %s seat %s: plan refused", table_id, seat.index)
        moves_apply(table_id, seat.index, rules.auto_moves(state, seat.index), version, rules)
    return True
