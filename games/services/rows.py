"""One statement per row written on a move's path, without the ORM's query building.

A move writes three rows (its hand, its game's version and deadline, the move itself). Building
each of those statements through the ORM (``save(update_fields=...)``, ``objects.create``) cost
the daphne process about as much CPU as PostgreSQL took to run them, and every move pays it. The
SQL here is made once per model and field list; values still go through each field's own
``get_db_prep_save`` (JSON, time zones), so what lands in the row is what ``save`` would write.
No model here has save signals or a custom ``save``; a model that gains one must not use these.
"""

from functools import lru_cache

from django.db import connection


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
