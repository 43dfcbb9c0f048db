"""The documented backup, tried once: bin/backup dumps the test database (a table mid-hand, its
moves) with pg_dump, bin/restore loads it into a fresh database, and the table and its moves
are there, move for move. Needs PostgreSQL (DATABASE_URL) and its client tools."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from psycopg import sql

from games.models import Move
from okeysite.backup import BackupError, database_restore
from tests.games.conftest import game_started, table_full
from tests.games.helpers import play_moves

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="pg_dump backs up PostgreSQL: DATABASE_URL is not PostgreSQL (SQLite)",
    ),
    pytest.mark.skipif(
        not (shutil.which("pg_dump") and shutil.which("pg_restore")),
        reason="PostgreSQL's client tools (pg_dump, pg_restore) are not installed",
    ),
]


def url_of(db: dict, name: str) -> str:
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{name}"


def connect(db: dict, name: str):
    return psycopg.connect(
        host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"],
        password=db.get("PASSWORD") or None, dbname=name, autocommit=True,
    )  # fmt: skip


@pytest.fixture
def fresh_database():
    db = settings.DATABASES["default"]
    name = f"okey_restore_test_{os.getpid()}"
    with connect(db, "postgres") as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    yield name
    with connect(db, "postgres") as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def script(name: str, *args, database_url: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": database_url}
    return subprocess.run(
        [sys.executable, str(ROOT / "bin" / name), *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


# transaction=True: the rows are committed, so pg_dump's own connection sees them
@pytest.mark.django_db(transaction=True)
def test_backup_then_restore_into_a_fresh_database(users, fixed_seed, in_memory_layer, tmp_path,
                                                   fresh_database):  # fmt: skip
    table = game_started(table_full(users))
    play_moves(table, 6)
    moves = list(
        Move.objects.filter(hand__game__table=table)
        .order_by("hand_id", "seq")
        .values_list("seq", "seat", "kind", "tile", "version")
    )
    assert len(moves) >= 6

    db = settings.DATABASES["default"]
    dump = tmp_path / "okey.dump"
    done = script("backup", str(dump), database_url=url_of(db, db["NAME"]))
    assert done.returncode == 0, done.stderr
    assert dump.stat().st_size > 0 and not (tmp_path / "okey.dump.partial").exists()

    done = script("restore", str(dump), database_url=url_of(db, fresh_database))
    assert done.returncode == 0, done.stderr
    with connect(db, fresh_database) as conn:
        row = conn.execute(
            "SELECT manager_id, status FROM games_table WHERE id = %s", [table.pk]
        ).fetchone()
        assert row == (table.manager_id, table.status)
        restored = conn.execute(
            "SELECT m.seq, m.seat, m.kind, m.tile, m.version FROM games_move m JOIN games_hand h ON h.id = m.hand_id"
            " JOIN games_game g ON g.id = h.game_id WHERE g.table_id = %s ORDER BY m.hand_id, m.seq",
            [table.pk],
        ).fetchall()
    assert [tuple(r) for r in restored] == moves

    # a second restore into the now full database is refused, and changes nothing
    done = script("restore", str(dump), database_url=url_of(db, fresh_database))
    assert done.returncode != 0 and "empty" in done.stderr
    with pytest.raises(BackupError, match="empty"):
        database_restore(dump, {**db, "NAME": fresh_database})
