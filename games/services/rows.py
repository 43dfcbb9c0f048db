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
"""

from functools import lru_cache

from django.db import connection
from django.db.models import Model


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


def row_update(instance, fields) -> None:
    """``instance.save(update_fields=fields)`` for a row that exists."""
    sql, columns = _update_sql(type(instance), tuple(fields))
    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in columns]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, instance.pk])


def row_insert(instance) -> None:
    """``instance.save()`` for a new row whose id nobody reads afterwards (it is not fetched)."""
    sql, columns = _insert_sql(type(instance))
    params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in columns]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


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


def _instance(model, alias: str, values) -> Model:
    _, names, loaders = _columns(model, alias, connection.vendor)
    converted = []
    for value, (col, convs) in zip(values, loaders, strict=True):
        for convert in convs:
            value = convert(value, col, connection)
        converted.append(value)
    return model.from_db(connection.alias, names, converted)


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
    vendor = connection.vendor
    with connection.cursor() as cursor:
        cursor.execute(_with_parent_sql(model, parent, vendor), [parent_id])
        row = cursor.fetchone()
    if row is None:
        return None
    n = len(model._meta.concrete_fields)
    instance = _instance(model, "c", row[:n])
    _link(model, parent).set_cached_value(instance, _instance(parent, "p", row[n:]))
    return instance


@lru_cache(maxsize=16)
def _where_sql(model, column: str, order: str, limit: int | None, vendor: str) -> str:
    direction = " DESC" if order.startswith("-") else " ASC"
    sql = (
        f"SELECT {_columns(model, 'r', vendor)[0]} FROM {_table(model)} r"
        f" WHERE r.{_quote(column)} = %s ORDER BY r.{_quote(order.lstrip('-'))}{direction}"
    )
    return sql + (f" LIMIT {int(limit)}" if limit is not None else "")


def rows_where(model, column: str, value, order: str, limit: int | None = None) -> list:
    """``model.objects.filter(<column>=value).order_by(order)[:limit]``; ``order`` is a
    column, "-column" for descending."""
    with connection.cursor() as cursor:
        cursor.execute(_where_sql(model, column, order, limit, connection.vendor), [value])
        rows = cursor.fetchall()
    return [_instance(model, "r", row) for row in rows]
