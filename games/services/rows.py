"""The rows on a move's path, read and written without the ORM's query building.

A move reads three things (its table's Game row, locked, with the Table; the latest hand; the
seats) and writes three rows (its hand, its game's version and deadline, the move itself).
Building each of those statements through the ORM cost the daphne process about as much CPU as
PostgreSQL took to run them, and every move pays it. The SQL here is made once per model and
shape. Values written go through each field's own ``get_db_prep_save`` (JSON, time zones), so
what lands in the row is what ``save`` would write; values read go through the same converters
the ORM applies (``from_db_value``, the backend's), and the instances are made with
``Model.from_db``, as a QuerySet makes them. No model here has save signals or a custom
``save``; a model that gains one must not use these.

On PostgreSQL the three reads go as one query and the three writes as another
(``move_rows_locked``, ``rows_batched``), the COMMIT with the writes when the move is its own
transaction: a move is then three round trips (BEGIN, reads, writes and COMMIT) instead of eight,
and each one cost the web process a wait for the socket and then for the GIL.
"""

import contextvars
from contextlib import contextmanager
from functools import lru_cache

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model

from games.models import Game, Hand, Seat, Table

# (sql, params) of the writes that rows_batched holds back
_batch: contextvars.ContextVar = contextvars.ContextVar("rows_batch", default=None)


def _db():
    """The database wrapper itself. ``django.db.connection`` is a proxy that looks the
    wrapper up in an asgiref Local at each attribute read: forty-odd reads a move, once the
    fields' converters and preparers are handed the proxy."""
    return connections[DEFAULT_DB_ALIAS]


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


@lru_cache(maxsize=64)
def _update_sql(model, fields: tuple[str, ...]) -> tuple[str, tuple]:
    meta = model._meta
    columns = tuple(meta.get_field(name) for name in fields)
    sets = ", ".join(f"{_quote(f.column)} = %s" for f in columns)
    return f"UPDATE {_quote(meta.db_table)} SET {sets} WHERE {_quote(meta.pk.column)} = %s", columns


@lru_cache(maxsize=16)
def _insert_sql(model) -> tuple[str, tuple]:
    meta = model._meta
    columns = tuple(f for f in meta.concrete_fields if not f.primary_key)
    names = ", ".join(_quote(f.column) for f in columns)
    marks = ", ".join(["%s"] * len(columns))
    return f"INSERT INTO {_quote(meta.db_table)} ({names}) VALUES ({marks})", columns


def _several_per_query(cursor, db) -> bool:
    """Whether one execute can carry several statements: PostgreSQL with client-side binding
    (Django's default psycopg cursor) puts the values into the text and sends it as one query,
    in which each statement still takes its own snapshot (READ COMMITTED)."""
    if db.vendor != "postgresql":
        return False
    return isinstance(cursor.cursor, psycopg.ClientCursor)


def statements_run(statements: list[tuple[str, list]], commit: bool = False) -> list[list]:
    """Run ``statements`` in order; each one's rows ([] for one that returns none). One round
    trip where the database allows it, else one each. ``commit``: see ``rows_batched``."""
    db = _db()
    with db.cursor() as cursor:
        several = _several_per_query(cursor, db)
        if commit and several and _commit_is_next(db):
            statements = [*statements, ("COMMIT", [])]
        if len(statements) > 1 and several:
            cursor.execute(
                "; ".join(sql for sql, _ in statements),
                [value for _, params in statements for value in params],
            )
            results = []
            while True:
                results.append(cursor.fetchall() if _has_rows(cursor, db) else [])
                if not cursor.nextset():
                    break
            return results
        results = []
        for sql, params in statements:
            cursor.execute(sql, params)
            results.append(cursor.fetchall() if _has_rows(cursor, db) else [])
        return results


def _has_rows(cursor, db) -> bool:
    """Whether the statement just run returned rows (a SELECT). psycopg's ``description`` would
    make an object per column to say so: thirty-odd a move."""
    if db.vendor == "postgresql":
        result = cursor.cursor.pgresult
        return result is not None and result.status == psycopg.pq.ExecStatus.TUPLES_OK
    return cursor.description is not None


def _write(sql: str, params: list) -> None:
    pending = _batch.get()
    if pending is not None:
        pending.append((sql, params))
        return
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _commit_is_next(db) -> bool:
    """Whether leaving the current atomic block commits the transaction: it is the outermost,
    entered with autocommit on, and not marked for rollback."""
    return (
        db.in_atomic_block
        and len(db.atomic_blocks) == 1
        and not db.savepoint_ids
        and db.commit_on_exit
        and not db.needs_rollback
    )


@contextmanager
def rows_batched(last: bool = False):
    """``row_update`` and ``row_insert`` inside the block are sent together when it ends (not
    when it raises: the transaction is rolled back then). Only for writes that nothing inside
    the block reads back from the database.

    ``last``: the caller's atomic block does nothing more after this one. Where that block's
    exit would commit (it is the outermost) and the writes go as one query, the COMMIT goes in
    that query too: one round trip less. The atomic block's own commit then finds no
    transaction open, which psycopg skips, and Django runs the on_commit callbacks as always.
    A write or the COMMIT that fails raises here, inside the block, which then rolls back what
    is left (nothing, once the server has ended the transaction)."""
    pending: list = []
    token = _batch.set(pending)
    try:
        yield
    finally:
        _batch.reset(token)
    if pending:
        statements_run(pending, commit=last)


def row_update(instance, fields) -> None:
    """``instance.save(update_fields=fields)`` for a row that exists."""
    sql, columns = _update_sql(type(instance), tuple(fields))
    db = _db()
    params = [f.get_db_prep_save(getattr(instance, f.attname), db) for f in columns]
    _write(sql, [*params, instance.pk])


def row_insert(instance) -> None:
    """``instance.save()`` for a new row whose id nobody reads afterwards (it is not fetched)."""
    sql, columns = _insert_sql(type(instance))
    db = _db()
    _write(sql, [f.get_db_prep_save(f.pre_save(instance, True), db) for f in columns])


# ---- reads -----------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _columns(model, alias: str, vendor: str) -> tuple[str, tuple, tuple]:
    """``model``'s select list under ``alias``, its attnames, and per column the converters
    SQLCompiler.get_converters would apply (the backend's, then the field's) with their column."""
    fields = model._meta.concrete_fields
    select = ", ".join(f"{alias}.{_quote(f.column)}" for f in fields)
    loaders = []
    for f in fields:
        col = f.get_col(alias)
        convs = tuple(connection.ops.get_db_converters(col)) + tuple(
            col.get_db_converters(connection)
        )
        loaders.append((col, convs))
    return select, tuple(f.attname for f in fields), tuple(loaders)


def _instance(model, alias: str, values, db=None) -> Model:
    db = db or _db()
    _, names, loaders = _columns(model, alias, db.vendor)
    converted = []
    for value, (col, convs) in zip(values, loaders, strict=True):
        for convert in convs:
            value = convert(value, col, db)
        converted.append(value)
    return model.from_db(db.alias, names, converted)


def _table(model) -> str:
    return _quote(model._meta.db_table)


def _link(model, parent):
    return next(f for f in model._meta.concrete_fields if f.related_model is parent)


@lru_cache(maxsize=16)
def _with_parent_sql(model, parent, vendor: str) -> str:
    link = _link(model, parent).column
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    return (
        f"SELECT {_columns(model, 'c', vendor)[0]}, {_columns(parent, 'p', vendor)[0]}"
        f" FROM {_table(model)} c INNER JOIN {_table(parent)} p"
        f" ON c.{_quote(link)} = p.{_quote(parent._meta.pk.column)}"
        f" WHERE c.{_quote(link)} = %s{lock}"
    )


def row_with_parent_locked(model, parent, parent_id: int) -> Model | None:
    """``model.objects.select_for_update().select_related(<link>).get(<link>=parent_id)`` for a
    model with a one-to-one link to ``parent``: the row with its parent cached on it, both rows
    locked (as select_related's FOR UPDATE locks them); None when there is none."""
    (rows,) = statements_run([_locked_read(model, parent, parent_id)])
    return _locked_row(model, parent, rows)


def _locked_read(model, parent, parent_id: int) -> tuple[str, list]:
    return _with_parent_sql(model, parent, connection.vendor), [parent_id]


def _locked_row(model, parent, rows, db=None) -> Model | None:
    if not rows:
        return None
    row = rows[0]
    n = len(model._meta.concrete_fields)
    instance = _instance(model, "c", row[:n], db)
    _link(model, parent).set_cached_value(instance, _instance(parent, "p", row[n:], db))
    return instance


@lru_cache(maxsize=16)
def _where_sql(model, column: str, order: str, limit: int | None, vendor: str, through=None) -> str:
    direction = " DESC" if order.startswith("-") else " ASC"
    value = "%s"
    if through is not None:  # the value names a row of another model, by one of its columns
        other, other_column = through
        value = (
            f"(SELECT o.{_quote(other._meta.pk.column)} FROM {_table(other)} o"
            f" WHERE o.{_quote(other_column)} = %s)"
        )
    sql = (
        f"SELECT {_columns(model, 'r', vendor)[0]} FROM {_table(model)} r"
        f" WHERE r.{_quote(column)} = {value} ORDER BY r.{_quote(order.lstrip('-'))}{direction}"
    )
    return sql + (f" LIMIT {int(limit)}" if limit is not None else "")


def rows_where(model, column: str, value, order: str, limit: int | None = None) -> list:
    """``model.objects.filter(<column>=value).order_by(order)[:limit]``; ``order`` is a
    column, "-column" for descending."""
    (rows,) = statements_run([_where_read(model, column, value, order, limit)])
    return [_instance(model, "r", row) for row in rows]


def _where_read(model, column, value, order, limit=None, through=None) -> tuple[str, list]:
    return _where_sql(model, column, order, limit, connection.vendor, through), [value]


@lru_cache(maxsize=4)
def _latest_hand_sql(vendor: str) -> str:
    """The latest hand of a table, with its state left out (NULL) when it is the hand (by id
    and by the commitment of its random seed, should an id ever be used again) and version the
    caller names: the state column is never NULL otherwise."""
    sql = _where_sql(Hand, _link(Hand, Game).column, "-number", 1, vendor,
                     through=(Game, _link(Game, Table).column))  # fmt: skip
    state = f"r.{_quote(Hand._meta.get_field('state').column)}"
    known = (
        f"CASE WHEN r.{_quote(Hand._meta.pk.column)} = %s"
        f" AND r.{_quote(Hand._meta.get_field('version').column)} = %s"
        f" AND r.{_quote(Hand._meta.get_field('commitment').column)} = %s"
        f" THEN NULL ELSE {state} END"
    )
    head, rest = sql.split(" FROM ", 1)
    assert head.count(state) == 1, head
    return f"{head.replace(state, known)} FROM {rest}"


def move_rows_locked(table_id: int, known_hand: tuple[int, int, str] | None = None) -> tuple:
    """(game, latest hand, seats) of the table ``table_id``: its Game locked with the Table
    cached on it (as ``row_with_parent_locked``), the hand with the highest number or None, the
    seats by index; (None, None, []) when there is no such table.

    ``known_hand``: (id, version, commitment) of a hand whose state the caller already holds.
    When that is the latest hand, at that version, its ``state`` comes back None instead of
    being read: a hand's state changes only with its version (``move_submit`` bumps both
    together; the admin shows hands read-only), so the caller's copy is the same, and the JSON
    is neither sent nor decoded again.

    One round trip on PostgreSQL: the reads after the lock run once it is granted, each with its
    own snapshot, so they see what the lock's last holder committed."""
    known_id, known_version, known_commitment = known_hand or (None, None, None)
    locked, hands, seats = statements_run(
        [
            _locked_read(Game, Table, table_id),
            (
                _latest_hand_sql(connection.vendor),
                [known_id, known_version, known_commitment, table_id],
            ),
            _where_read(Seat, _link(Seat, Table).column, table_id, "index"),
        ]
    )
    db = _db()
    game = _locked_row(Game, Table, locked, db)
    if game is None:
        return None, None, []
    hand = _instance(Hand, "r", hands[0], db) if hands else None
    return game, hand, [_instance(Seat, "r", row, db) for row in seats]
