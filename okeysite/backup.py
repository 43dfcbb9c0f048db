"""Back up the site's PostgreSQL database with pg_dump, and restore it into an empty one.

bin/backup and bin/restore run these (README, "Backups"). The database is the one the settings
name (DATABASE_URL, from the environment or .env), reached as PostgreSQL's own tools reach it:
the host, port, user and password go in their PG* variables, never on a command line that `ps`
would show. pg_dump's custom format (-Fc) is compressed and lets pg_restore pick what it needs;
it is a consistent snapshot taken while the site runs. A restore goes only into an empty
database (a new one, or the old one dropped and created again): pg_restore over live tables
would fail half-way or mix two states.

Redis holds nothing to back up: the channel layer's messages, the Celery queue (a lost task is
redone by the sweep) and the cache (log-in rate-limit counters) all rebuild themselves.
"""

import os
import subprocess
from pathlib import Path

from django.conf import settings


class BackupError(Exception):
    pass


def libpq_env(database: dict) -> dict:
    """The environment pg_dump, pg_restore and psql read the connection from."""
    if "postgresql" not in database["ENGINE"]:
        raise BackupError(
            "the database is not PostgreSQL (DATABASE_URL unset means SQLite: stop the site and "
            "copy var/okey.sqlite3, or use sqlite3's .backup command)"
        )
    env = dict(os.environ)
    for variable, key in (
        ("PGHOST", "HOST"),
        ("PGPORT", "PORT"),
        ("PGUSER", "USER"),
        ("PGPASSWORD", "PASSWORD"),
        ("PGDATABASE", "NAME"),
    ):
        if database.get(key):
            env[variable] = str(database[key])
    return env


def database_backup(path: Path, database: dict | None = None) -> Path:
    env = libpq_env(database or settings.DATABASES["default"])
    path.parent.mkdir(parents=True, exist_ok=True)
    # written under another name and renamed when whole: a backup that failed half-way never
    # sits where a good one is expected
    draft = path.with_name(path.name + ".partial")
    subprocess.run(["pg_dump", "--format=custom", "--file", str(draft)], env=env, check=True)
    draft.rename(path)
    return path


def database_is_empty(env: dict) -> bool:
    tables = subprocess.run(
        ["psql", "-X", "-A", "-t", "-c",
         "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"],
        env=env, check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    return tables == "0"


def database_restore(path: Path, database: dict | None = None) -> None:
    env = libpq_env(database or settings.DATABASES["default"])
    if not path.is_file():
        raise BackupError(f"no backup at {path}")
    if not database_is_empty(env):
        raise BackupError(
            f"the database {env.get('PGDATABASE')} has tables: restore into an empty one "
            "(createdb a new one, or dropdb and createdb the old one with the site stopped)"
        )
    # --no-owner: the tables belong to whoever restores, whatever role made them
    subprocess.run(
        ["pg_restore", "--no-owner", "--exit-on-error", "--single-transaction",
         "--dbname", env["PGDATABASE"], str(path)],
        env=env, check=True,
    )  # fmt: skip
