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


def _tool(argv: list[str], env: dict, what: str) -> str:
    """Run one of PostgreSQL's tools; its own message, not a traceback, when it fails."""
    try:
        done = subprocess.run(argv, env=env, capture_output=True, text=True)
    except FileNotFoundError:
        raise BackupError(
            f"{argv[0]} is not installed: install PostgreSQL's client tools (postgresql-client)"
        ) from None
    if done.returncode != 0:
        raise BackupError(f"{what} failed: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def database_backup(path: Path, database: dict | None = None) -> Path:
    """Dump the database to ``path``, readable by its owner only (mode 0600): a dump holds the
    password hashes, the sessions and everything the players wrote."""
    env = libpq_env(database or settings.DATABASES["default"])
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    # written under another name and renamed when whole: a backup that failed half-way never
    # sits where a good one is expected
    draft = path.with_name(path.name + ".partial")
    draft.unlink(missing_ok=True)
    # created 0600 here, before pg_dump writes into it (it keeps an existing file's mode)
    os.close(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        _tool(["pg_dump", "--format=custom", "--file", str(draft)], env, "pg_dump")
    except BackupError:
        draft.unlink(missing_ok=True)
        raise
    draft.rename(path)
    return path


def database_is_empty(env: dict) -> bool:
    tables = _tool(
        ["psql", "-X", "-A", "-t", "-c",
         "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"],
        env, f"connecting to the database {env.get('PGDATABASE')}",
    ).strip()  # fmt: skip
    return tables == "0"


def may_create_tables(env: dict) -> bool:
    """Whether the role may create tables in schema public: from PostgreSQL 15 on only the
    database's owner may, and a database made by `createdb` as the superuser is the superuser's."""
    answer = _tool(
        ["psql", "-X", "-A", "-t", "-c", "SELECT has_schema_privilege('public', 'CREATE')"],
        env, f"connecting to the database {env.get('PGDATABASE')}",
    ).strip()  # fmt: skip
    return answer == "t"


def database_restore(path: Path, database: dict | None = None) -> None:
    env = libpq_env(database or settings.DATABASES["default"])
    if not path.is_file():
        raise BackupError(f"no backup at {path}")
    name, role = env.get("PGDATABASE"), env.get("PGUSER") or "the site's role"
    if not database_is_empty(env):
        raise BackupError(
            f"the database {name} has tables: restore into an empty one "
            f"(createdb -O {role} a new one, or dropdb and createdb -O {role} the old one with "
            "the site stopped)"
        )
    if not may_create_tables(env):
        raise BackupError(
            f"{role} may not create tables in the database {name} (schema public): since "
            "PostgreSQL 15 only the database's owner may. Make it the owner, as the superuser: "
            f"`createdb -O {role} {name}` for a new one, or `psql -c 'ALTER DATABASE {name} "
            f"OWNER TO {role}'` for this one"
        )
    # --no-owner: the tables belong to whoever restores, whatever role made them
    _tool(
        ["pg_restore", "--no-owner", "--exit-on-error", "--single-transaction",
         "--dbname", name, str(path)],
        env, "pg_restore",
    )  # fmt: skip
