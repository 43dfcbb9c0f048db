"""The bare Channels consumer: the stack the site stands on, and nothing of the site.

One socket per player at ws/bare/<table>/. A move ({"action": "move", "version": n}) is one
PostgreSQL transaction (lock the table's row, check the version, bump it, append a move row),
then one group_send; every socket of the table forwards {"version": n + 1} to its client. It runs
on the same daphne, Channels, channels_redis layer, Django database settings and
database_sync_to_async as the site, so the site's moves per second can be read as a ratio of it.
"""

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import connection, transaction

SCHEMA = """
CREATE TABLE IF NOT EXISTS bench_bare_table (id integer PRIMARY KEY, version integer NOT NULL);
CREATE TABLE IF NOT EXISTS bench_bare_move (
    id bigserial PRIMARY KEY, table_id integer NOT NULL, seq integer NOT NULL,
    created timestamptz NOT NULL DEFAULT now(), UNIQUE (table_id, seq));
"""


def tables_reset(count: int) -> None:
    """Empty the bare tables and make ``count`` of them at version 0 (ids 1..count)."""
    with connection.cursor() as c:
        c.execute(SCHEMA)
        c.execute("TRUNCATE bench_bare_table, bench_bare_move")
        c.executemany(
            "INSERT INTO bench_bare_table (id, version) VALUES (%s, 0)",
            [(i,) for i in range(1, count + 1)],
        )


def version_get(table_id: int):
    with connection.cursor() as c:
        c.execute("SELECT version FROM bench_bare_table WHERE id = %s", [table_id])
        row = c.fetchone()
    return row[0] if row else None


def move_apply(table_id: int, expected: int):
    """One transaction: the new version, or None when ``expected`` is not the current one."""
    with transaction.atomic(), connection.cursor() as c:
        c.execute("SELECT version FROM bench_bare_table WHERE id = %s FOR UPDATE", [table_id])
        row = c.fetchone()
        if row is None or row[0] != expected:
            return None
        c.execute("UPDATE bench_bare_table SET version = version + 1 WHERE id = %s", [table_id])
        c.execute(
            "INSERT INTO bench_bare_move (table_id, seq) VALUES (%s, %s)", [table_id, expected + 1]
        )
        return expected + 1


class BareConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.group = f"bare.{self.table_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        version = await database_sync_to_async(version_get)(self.table_id)
        await self.send(text_data=json.dumps({"version": version}))

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            content = json.loads(text_data or "")
            expected = int(content["version"])
        except (ValueError, KeyError, TypeError):
            await self.send(text_data=json.dumps({"version": None, "error": "bad message"}))
            return
        version = await database_sync_to_async(move_apply)(self.table_id, expected)
        if version is None:
            await self.send(text_data=json.dumps({"version": None, "error": "stale"}))
            return
        await self.channel_layer.group_send(self.group, {"type": "moved", "version": version})

    async def moved(self, event):
        await self.send(text_data=json.dumps({"version": event["version"]}))
