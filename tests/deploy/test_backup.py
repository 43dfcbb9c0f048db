"""The documented backup, tried once: bin/backup dumps the test database (a table mid-hand, its
moves, a staff member's authenticator app) with pg_dump into a file only its owner reads, the
app's secret not in it in clear; bin/restore loads it into a fresh database owned by the site's
role, as README says for PostgreSQL 15, and the table and its moves are there, move for move.
A restore that cannot work says why, without a traceback. Needs PostgreSQL (DATABASE_URL) and
its client tools."""

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
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

    secret = generate_totp_secret()
    TOTP.activate(users[0], secret)  # a staff member's authenticator app

    db = settings.DATABASES["default"]
    dump = tmp_path / "okey.dump"
    done = script("backup", str(dump), database_url=url_of(db, db["NAME"]))
    assert done.returncode == 0, done.stderr
    assert dump.stat().st_size > 0 and not (tmp_path / "okey.dump.partial").exists()
    # password hashes, sessions, chat: for the owner's eyes only
    assert stat.S_IMODE(dump.stat().st_mode) == 0o600
    # the dump's data as SQL: the app's secret is there only encrypted (accounts.mfa)
    text = subprocess.run(
        ["pg_restore", "--data-only", "--file=-", str(dump)],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "enc1:" in text and secret not in text

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


@pytest.fixture
def site_role():
    """A role like production's: may log in, owns nothing, no superuser."""
    db = settings.DATABASES["default"]
    role = f"okey_site_{os.getpid()}"
    with connect(db, "postgres") as conn:
        conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
    yield role
    with connect(db, "postgres") as conn:
        conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))


@pytest.mark.django_db(transaction=True)
def test_restore_as_readme_says_on_postgresql_15_and_clear_refusals(
    users, fixed_seed, in_memory_layer, tmp_path, site_role
):
    table = game_started(table_full(users))
    play_moves(table, 2)
    db = settings.DATABASES["default"]
    dump = tmp_path / "okey.dump"
    assert script("backup", str(dump), database_url=url_of(db, db["NAME"])).returncode == 0
    as_role = {**db, "USER": site_role, "PASSWORD": ""}
    owned, not_owned = f"okey_owned_{os.getpid()}", f"okey_not_owned_{os.getpid()}"
    with connect(db, "postgres") as conn:
        for name in (owned, not_owned):
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        # README: `createdb -O <role> <name>`, as the superuser
        conn.execute(
            sql.SQL("CREATE DATABASE {} OWNER {}").format(
                sql.Identifier(owned), sql.Identifier(site_role)
            )
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(not_owned)))
    try:
        # a database the superuser owns: PostgreSQL 15 lets the role create no table in it
        done = script("restore", str(dump), database_url=url_of(as_role, not_owned))
        assert done.returncode != 0 and "Traceback" not in done.stderr
        assert f"createdb -O {site_role} {not_owned}" in done.stderr
        # no such database, no such file: a sentence, not a traceback
        done = script("restore", str(dump), database_url=url_of(as_role, "okey_nowhere"))
        assert done.returncode != 0 and "Traceback" not in done.stderr
        assert "okey_nowhere" in done.stderr
        done = script(
            "restore", str(tmp_path / "nothing.dump"), database_url=url_of(as_role, owned)
        )
        assert done.returncode != 0 and "no backup at" in done.stderr
        # as README says: restored, by the site's own role
        done = script("restore", str(dump), database_url=url_of(as_role, owned))
        assert done.returncode == 0, done.stderr
        with connect(as_role, owned) as conn:
            count = conn.execute(
                "SELECT count(*) FROM games_move m JOIN games_hand h ON h.id = m.hand_id"
                " JOIN games_game g ON g.id = h.game_id WHERE g.table_id = %s",
                [table.pk],
            ).fetchone()[0]
        assert count == 2
    finally:
        with connect(db, "postgres") as conn:
            for name in (owned, not_owned):
                conn.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )
