"""How a hand is loaded and saved for a move: the one place that knows the rows a move touches.

A move locks its table's Game row (and the Table, which the same statement joins), then reads
the latest hand and the seats with their players' names; it writes the hand, the game's version
and deadline, and appends the move. Plain ORM: the lock is ``select_for_update``, which does
nothing on SQLite, where the version check and ``UniqueConstraint(hand, seq)`` keep a move from
applying twice.
"""

from dataclasses import dataclass

from games.models import Game, Hand, Move, Seat, Table

HAND_MOVE_FIELDS = ("state", "version", "turn_started", "over", "ended", "result")


@dataclass
class MoveRows:
    game: Game
    table: Table
    hand: Hand | None  # the table's latest hand
    seats: list[Seat]


def table_key(table_id) -> int | None:
    """``table_id`` as the database can hold it, or None for anything else."""
    if isinstance(table_id, bool):
        return None
    try:
        table_id = int(table_id)
    except (ValueError, TypeError):
        return None
    return table_id if -(2**63) <= table_id < 2**63 else None


def game_lock(table_id) -> Game | None:
    """The table's Game row, locked, with its Table (locked too); None if there is none."""
    key = table_key(table_id)
    if key is None:
        return None
    return Game.objects.select_for_update().select_related("table").filter(table_id=key).first()


def move_rows_lock(table_id) -> MoveRows | None:
    game = game_lock(table_id)
    if game is None:
        return None
    hand = Hand.objects.filter(game=game).order_by("-number").first()
    seats = list(
        Seat.objects.filter(table_id=game.table_id)
        .select_related("user__profile")
        .order_by("index")
    )
    return MoveRows(game=game, table=game.table, hand=hand, seats=seats)


def hand_save(hand: Hand) -> None:
    # only what a move changes: the seed, commitment and deal stay as they were written
    hand.save(update_fields=HAND_MOVE_FIELDS)


def move_append(move: Move) -> None:
    move.save(force_insert=True)


def move_by_key(hand: Hand, key: str) -> Move | None:
    return Move.objects.select_related("hand__game").filter(hand=hand, idempotency_key=key).first()


def move_by_table_key(table_id: int, key: str) -> Move | None:
    """The move of the table's latest hand that carries ``key``, if any."""
    moves = Move.objects.select_related("hand__game").filter(hand__game__table_id=table_id)
    return moves.filter(idempotency_key=key).order_by("-hand__number").first()
