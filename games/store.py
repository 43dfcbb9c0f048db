"""How a hand is loaded and saved for a move: the one place that knows the rows a move touches.

A move locks its table's Game row (and the Table, which the same statement joins), then reads
the latest hand and the seats with their players' names; it writes the hand and appends the
move. Two implementations of the same operations, chosen by ``settings.OKEY_MOVE_STORE``:

- ``"orm"``: plain ORM, on any database. The lock is ``select_for_update``, which does nothing
  on SQLite, where the version check and ``UniqueConstraint(hand, seq)`` keep a move from
  applying twice.
- ``"sql"`` (PostgreSQL): the same rows through fixed statements. Compiling a query is most of
  what the ORM costs a move, in the daphne process that every socket at the table shares; these
  statements are written once, at import, from the models' own fields, so a new field is read
  and written without a change here. Rows become model instances through ``Model.from_db`` and
  the fields' own converters, as the ORM makes them.

Both are under test (tests/games/test_store.py); everything else in a move is the same code.
"""

from dataclasses import dataclass

from django.conf import settings
from django.db import connection

from games.models import Game, Hand, Move, Seat, Table

# the players' rows as select_related("user__profile") reaches them, without naming accounts
User = Seat._meta.get_field("user").related_model
Profile = User._meta.get_field("profile").related_model

HAND_MOVE_FIELDS = ("state", "version", "turn_started", "over", "ended", "result")
GAME_MOVE_FIELDS = ("version", "deadline")  # a move within a hand leaves the rest alone


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


def _sql() -> bool:
    return settings.OKEY_MOVE_STORE == "sql"


def game_lock(table_id) -> Game | None:
    """The table's Game row, locked, with its Table (locked too); None if there is none."""
    key = table_key(table_id)
    if key is None:
        return None
    if _sql():
        return _game_lock_sql(key)
    return Game.objects.select_for_update().select_related("table").filter(table_id=key).first()


def move_rows_lock(table_id) -> MoveRows | None:
    game = game_lock(table_id)
    if game is None:
        return None
    if _sql():
        hand, seats = _hand_latest_sql(game.pk), _seats_sql(game.table_id)
    else:
        hand = Hand.objects.filter(game=game).order_by("-number").first()
        seats = list(
            Seat.objects.filter(table_id=game.table_id)
            .select_related("user__profile")
            .order_by("index")
        )
    return MoveRows(game=game, table=game.table, hand=hand, seats=seats)


def hand_save(hand: Hand) -> None:
    # only what a move changes: the seed, commitment and deal stay as they were written
    if _sql():
        _row_update_sql(_HAND_SAVE, _HAND_SAVE_FIELDS, hand)
    else:
        hand.save(update_fields=HAND_MOVE_FIELDS)


def game_move_save(game: Game) -> None:
    """The game's fields that a move within a hand changes: its version and deadline."""
    if _sql():
        _row_update_sql(_GAME_SAVE, _GAME_SAVE_FIELDS, game)
    else:
        game.save(update_fields=GAME_MOVE_FIELDS)


def move_append(move: Move) -> None:
    if _sql():
        _move_insert_sql(move)
    else:
        move.save(force_insert=True)


def move_by_key(hand: Hand, key: str) -> Move | None:
    return Move.objects.select_related("hand__game").filter(hand=hand, idempotency_key=key).first()


def move_by_table_key(table_id: int, key: str) -> Move | None:
    """The move of the table's latest hand that carries ``key``, if any."""
    moves = Move.objects.select_related("hand__game").filter(hand__game__table_id=table_id)
    return moves.filter(idempotency_key=key).order_by("-hand__number").first()


# --- the fixed statements ------------------------------------------------------------------------


class _Shape:
    """A model's columns as a statement reads them (``alias."col", ...``), and how a row's
    values become an instance of it: through each field's converters, as the ORM's compiler
    applies them (JSON decoded, and so on)."""

    def __init__(self, model, alias):
        self.model = model
        fields = model._meta.concrete_fields
        self.names = [f.attname for f in fields]
        self.columns = ", ".join(f'{alias}."{f.column}"' for f in fields)
        self.converters = []
        for i, field in enumerate(fields):
            col = field.get_col(alias)
            found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if found:
                self.converters.append((i, col, found))

    def __len__(self):
        return len(self.names)

    def instance(self, values):
        values = list(values)
        for i, col, converters in self.converters:
            for convert in converters:
                values[i] = convert(values[i], col, connection)
        return self.model.from_db(connection.alias, self.names, values)


def _table(model) -> str:
    return f'"{model._meta.db_table}"'


_GAME, _TABLE = _Shape(Game, "g"), _Shape(Table, "t")
_HAND = _Shape(Hand, "h")
_SEAT, _USER, _PROFILE = _Shape(Seat, "s"), _Shape(User, "u"), _Shape(Profile, "p")

# FOR UPDATE locks the joined Table row too, as the ORM's select_for_update does
_GAME_LOCK = (
    f"SELECT {_GAME.columns}, {_TABLE.columns} FROM {_table(Game)} g "
    f'JOIN {_table(Table)} t ON t."id" = g."table_id" WHERE g."table_id" = %s FOR UPDATE'
)
_HAND_LATEST = (
    f'SELECT {_HAND.columns} FROM {_table(Hand)} h WHERE h."game_id" = %s '
    'ORDER BY h."number" DESC LIMIT 1'
)
_SEATS = (
    f"SELECT {_SEAT.columns}, {_USER.columns}, {_PROFILE.columns} FROM {_table(Seat)} s "
    f'LEFT JOIN {_table(User)} u ON u."id" = s."user_id" '
    f'LEFT JOIN {_table(Profile)} p ON p."user_id" = u."id" '
    'WHERE s."table_id" = %s ORDER BY s."index"'
)


def _update(model, names) -> tuple[list, str]:
    fields = [model._meta.get_field(name) for name in names]
    sets = ", ".join(f'"{f.column}" = %s' for f in fields)
    return fields, f'UPDATE {_table(model)} SET {sets} WHERE "id" = %s'


_HAND_SAVE_FIELDS, _HAND_SAVE = _update(Hand, HAND_MOVE_FIELDS)
_GAME_SAVE_FIELDS, _GAME_SAVE = _update(Game, GAME_MOVE_FIELDS)
_MOVE_FIELDS = [f for f in Move._meta.concrete_fields if not f.primary_key]
_MOVE_INSERT = (
    f"INSERT INTO {_table(Move)} ("
    + ", ".join(f'"{f.column}"' for f in _MOVE_FIELDS)
    + ") VALUES ("
    + ", ".join(["%s"] * len(_MOVE_FIELDS))
    + ') RETURNING "id"'
)


def _game_lock_sql(table_id: int) -> Game | None:
    with connection.cursor() as cursor:
        cursor.execute(_GAME_LOCK, [table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    game = _GAME.instance(row[: len(_GAME)])
    game.table = _TABLE.instance(row[len(_GAME) :])
    return game


def _hand_latest_sql(game_id: int) -> Hand | None:
    with connection.cursor() as cursor:
        cursor.execute(_HAND_LATEST, [game_id])
        row = cursor.fetchone()
    return None if row is None else _HAND.instance(row)


def _seats_sql(table_id: int) -> list[Seat]:
    with connection.cursor() as cursor:
        cursor.execute(_SEATS, [table_id])
        rows = cursor.fetchall()
    seats = []
    user_end = len(_SEAT) + len(_USER)
    for row in rows:
        seat = _SEAT.instance(row[: len(_SEAT)])
        if seat.user_id is None:
            seat.user = None
        else:
            user = _USER.instance(row[len(_SEAT) : user_end])
            if row[user_end] is not None:  # a profile's id: every player has one
                user.profile = _PROFILE.instance(row[user_end:])
            seat.user = user
        seats.append(seat)
    return seats


def _row_update_sql(statement: str, fields: list, instance) -> None:
    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(statement, [*params, instance.pk])


def _move_insert_sql(move: Move) -> None:
    params = [f.get_db_prep_save(f.pre_save(move, True), connection) for f in _MOVE_FIELDS]
    with connection.cursor() as cursor:
        cursor.execute(_MOVE_INSERT, params)
        move.pk = cursor.fetchone()[0]
    move._state.adding, move._state.db = False, connection.alias
