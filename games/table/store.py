"""How a hand is loaded and saved for a move: the one place that knows the rows a move touches.

A move locks its table's Game row (and the Table), and reads the latest hand and the seats with
their players' names; it writes the hand and the game, and appends the move. Two
implementations of the same operations, chosen by ``settings.OKEY_MOVE_STORE``:

- ``"orm"``: plain ORM, on any database. The lock is ``select_for_update``, which does nothing
  on SQLite, where the version check and ``UniqueConstraint(hand, seq)`` keep a move from
  applying twice.
- ``"sql"`` (PostgreSQL): the same rows through fixed statements. Compiling a query is most of
  what the ORM costs a move, in the daphne process that every socket at the table shares; these
  statements are written once, at import, from the models' own fields, so a new field is read
  and written without a change here. Rows become model instances through ``Model.from_db`` and
  the fields' own converters, as the ORM makes them. A move's lock and reads go to PostgreSQL
  together, in one round trip, and its writes in another (the updates as data-modifying WITH
  clauses of the insert): each trip to PostgreSQL is one more wait in the thread that runs
  every socket's moves. With BEGIN and COMMIT, a move is four round trips.

Both are under test (tests/games/test_store.py); everything else in a move is the same code.
"""

from dataclasses import dataclass

from django.conf import settings
from django.db import connection

from games.models import Game, Hand, Move, Seat, Table

# the players' rows as select_related("user__profile") reaches them, without naming accounts
User = Seat._meta.get_field("user").related_model


_USER_PROFILE = User._meta.get_field("profile")


Profile = _USER_PROFILE.related_model


HAND_MOVE_FIELDS = ("state", "version", "turn_started", "over", "ended", "result")


GAME_FIELDS = ("version", "state", "status", "started", "ended", "results", "deadline")


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
    if _sql():
        key = table_key(table_id)
        return None if key is None else _move_rows_sql(key)
    game = game_lock(table_id)
    if game is None:
        return None
    hand = game.latest_hand()
    seats = list(
        Seat.objects.filter(table_id=game.table_id)
        .select_related("user__profile")
        .order_by("index")
    )
    return MoveRows(game=game, table=game.table, hand=hand, seats=seats)


def move_save(hand: Hand, game: Game, move: Move, *, game_whole: bool) -> None:
    """Write what a move changed: the hand (not its seed, commitment or deal, which stay as they
    were written), the game (``game_whole``: every field a hand's end changes; else only its
    version and deadline, not its growing state) and the new move, whose id it sets."""
    if _sql():
        _move_save_sql(hand, game, move, _MOVE_SAVE_WHOLE if game_whole else _MOVE_SAVE)
        return
    hand.save(update_fields=HAND_MOVE_FIELDS)
    game.save(update_fields=GAME_FIELDS if game_whole else GAME_MOVE_FIELDS)
    move.save(force_insert=True)


def move_by_key(hand: Hand, key: str) -> Move | None:
    return Move.objects.select_related("hand__game").filter(hand=hand, idempotency_key=key).first()


def move_by_table_key(table_id: int, key: str) -> Move | None:
    """The move of the table's latest hand that carries ``key``, if any."""
    moves = Move.objects.select_related("hand__game").filter(hand__game__table_id=table_id)
    return moves.filter(idempotency_key=key).order_by("-hand__number").first()


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


# A move's reads after its lock, in one statement: a row per seat, each with the table's latest
# hand (decoded from the first row only). Not in the locking statement: one that waited for the
# lock sees the locked rows as committed, but joined rows as they were when it began (READ
# COMMITTED), and would miss the hand that the lock's holder dealt.
_HAND_SEATS = (
    f"SELECT {_HAND.columns}, {_SEAT.columns}, {_USER.columns}, {_PROFILE.columns} "
    f"FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT * FROM {_table(Hand)} h "
    f'WHERE h."game_id" = (SELECT "id" FROM {_table(Game)} WHERE "table_id" = %s) '
    'ORDER BY h."number" DESC LIMIT 1) h ON true '
    f'LEFT JOIN {_table(Seat)} s ON s."table_id" = %s '
    f'LEFT JOIN {_table(User)} u ON u."id" = s."user_id" '
    f'LEFT JOIN {_table(Profile)} p ON p."user_id" = u."id" '
    'ORDER BY s."index"'
)


# The lock and the reads sent together, in one round trip: PostgreSQL runs the second statement
# once the first holds the lock, with a snapshot of its own (READ COMMITTED takes one per
# statement), so it sees what the lock's previous holder committed. Two statements in one
# query: Django's cursor binds the parameters client-side (no ``server_side_binding``).
_MOVE_ROWS = f"{_GAME_LOCK}; {_HAND_SEATS}"


def _fields(model, names) -> list:
    return [model._meta.get_field(name) for name in names]


def _sets(fields) -> str:
    return ", ".join(f'"{f.column}" = %s' for f in fields)


_HAND_SAVE_FIELDS = _fields(Hand, HAND_MOVE_FIELDS)


_MOVE_FIELDS = [f for f in Move._meta.concrete_fields if not f.primary_key]


def _move_save_statement(game_names) -> tuple[list, str]:
    """(the game's fields, the statement) that writes a move: the hand's and the game's updates
    run whole whether or not the insert reads them (PostgreSQL's rule for WITH)."""
    game_fields = _fields(Game, game_names)
    return game_fields, (
        f"WITH hand_saved AS (UPDATE {_table(Hand)} SET {_sets(_HAND_SAVE_FIELDS)} "
        'WHERE "id" = %s), '
        f'game_saved AS (UPDATE {_table(Game)} SET {_sets(game_fields)} WHERE "id" = %s) '
        f"INSERT INTO {_table(Move)} ("
        + ", ".join(f'"{f.column}"' for f in _MOVE_FIELDS)
        + ") VALUES ("
        + ", ".join(["%s"] * len(_MOVE_FIELDS))
        + ') RETURNING "id"'
    )


_MOVE_SAVE = _move_save_statement(GAME_MOVE_FIELDS)


_MOVE_SAVE_WHOLE = _move_save_statement(GAME_FIELDS)


def _game_lock_sql(table_id: int) -> Game | None:
    with connection.cursor() as cursor:
        cursor.execute(_GAME_LOCK, [table_id])
        row = cursor.fetchone()
    return None if row is None else _game_of(row)


def _game_of(row) -> Game:
    game = _GAME.instance(row[: len(_GAME)])
    game.table = _TABLE.instance(row[len(_GAME) :])
    return game


def _move_rows_sql(table_id: int) -> MoveRows | None:
    with connection.cursor() as cursor:
        cursor.execute(_MOVE_ROWS, [table_id, table_id, table_id])
        locked = cursor.fetchone()
        cursor.nextset()  # the reads' rows
        rows = cursor.fetchall()
    if locked is None:
        return None
    game = _game_of(locked)
    hand_end = len(_HAND)
    seat_end = hand_end + len(_SEAT)
    user_end = seat_end + len(_USER)
    first = rows[0]  # one row at least, from the left of every join
    hand = None if first[0] is None else _HAND.instance(first[:hand_end])
    seats = []
    for row in rows:
        if row[hand_end] is None:  # a table without seats: no seat joined
            continue
        seat = _SEAT.instance(row[hand_end:seat_end])
        if seat.user_id is None:
            seat.user = None
        else:
            user = _USER.instance(row[seat_end:user_end])
            if row[user_end] is not None:  # a profile's id: every player has one
                user.profile = _PROFILE.instance(row[user_end:])
            else:  # as select_related leaves it: known to be missing, not read again per use
                _USER_PROFILE.set_cached_value(user, None)
            seat.user = user
        seats.append(seat)
    return MoveRows(game=game, table=game.table, hand=hand, seats=seats)


def _prep(fields, instance) -> list:
    return [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]


def _move_save_sql(hand: Hand, game: Game, move: Move, statement: tuple[list, str]) -> None:
    game_fields, sql = statement
    params = [
        *_prep(_HAND_SAVE_FIELDS, hand),
        hand.pk,
        *_prep(game_fields, game),
        game.pk,
        *[f.get_db_prep_save(f.pre_save(move, True), connection) for f in _MOVE_FIELDS],
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        move.pk = cursor.fetchone()[0]
    move._state.adding, move._state.db = False, connection.alias
