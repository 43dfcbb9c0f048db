"""Which server process a CPU second belongs to, and the server's CPU per move.

Pure logic, tested without a server (tests/bench/test_cpu.py): the harness reads the process
table and PostgreSQL's ``pg_stat_activity`` (bench/loadlib/procs.py) and hands them here.

A process of the site is known by what it runs, not by who started it: the harness walks the
tree under each process it started (bin/run and honcho, supervisord, a shell, or daphne itself)
and gives each process the kind of the nearest of itself and its ancestors that it recognises
(``daphne``, a Celery ``worker``, the ``reviews`` worker, ``beat``, ``redis``); anything whose
line of descent names none of them (honcho, supervisord, bin/supervise, a shell) is ``other``.
So a child of daphne (a process pool, whatever it runs) counts as daphne, a prefork child of a
Celery worker as that worker.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping

# the kinds, gathered into the groups the report prints; ``SERVER`` are the groups summed into
# the whole server's CPU (the harness is never one of them)
GROUPS = {
    "daphne": ("daphne",),
    "workers": ("worker", "reviews"),
    "beat": ("beat",),
    "postgres": ("postgres",),
    "redis": ("redis",),
    "other": ("other",),
}
SERVER = tuple(GROUPS)

INTERPRETER = re.compile(r"^(python[\d.]*|pypy[\d.]*|bash|sh|dash|env|nice|exec)$")


def program(argv: list[str]) -> str:
    """The program a command line runs: the script or module an interpreter (or ``env``,
    ``nice``) is given, else the executable; its file name only. ``python -c CODE`` runs no
    named program: ''."""
    args = list(argv)
    while args:
        name = os.path.basename(args[0])
        if not INTERPRETER.match(name):
            return name
        rest = args[1:]
        args = []
        skip_value = False
        for i, arg in enumerate(rest):
            if skip_value:
                skip_value = False
                continue
            if arg == "-m" and i + 1 < len(rest):
                return rest[i + 1].split(".")[0]
            if arg == "-c":
                return ""
            if arg == "-n" and name == "nice":
                skip_value = True
                continue
            if arg.startswith("-") or ("=" in arg and name == "env"):
                continue
            args = rest[i:]
            break
    return ""


def kind_of(argv: list[str], name: str = "") -> str | None:
    """What a process is by its command line (and its kernel name), or None when it does not
    say (it then takes its parent's kind)."""
    prog = program(argv)
    if prog == "daphne":
        return "daphne"
    if prog == "celery":
        if "beat" in argv:
            return "beat"
        if "worker" in argv:
            queues = _option(argv, "-Q", "--queues")
            return "reviews" if queues and set(queues.split(",")) == {"reviews"} else "worker"
        return None
    if prog == "redis-server" or name == "redis-server":
        return "redis"
    return None


def _option(argv: list[str], *names: str) -> str | None:
    for i, arg in enumerate(argv):
        if arg in names and i + 1 < len(argv):
            return argv[i + 1]
        for n in names:
            if n.startswith("--") and arg.startswith(n + "="):
                return arg.split("=", 1)[1]
    return None


def kinds(table: Mapping[int, tuple[int, list[str], str]], roots: Iterable[int]) -> dict[int, str]:
    """The kind of every process under ``roots`` (themselves included), from ``table``: pid ->
    (parent pid, command line, kernel name). Root first, then depth first: a role's first
    process is the one the harness started."""
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    out: dict[int, str] = {}

    def walk(pid: int, inherited: str | None) -> None:
        if pid in out or pid not in table:
            return
        _, argv, name = table[pid]
        kind = kind_of(argv, name) or inherited
        out[pid] = kind or "other"
        for child in sorted(children.get(pid, [])):
            walk(child, kind)

    for root in roots:
        walk(root, None)
    return out


def postgres_roles(
    activity: Iterable[tuple[int, str | None]],
    postmaster: int | None,
    children: Iterable[int],
    database: str,
    excluded: set[int],
) -> dict[int, str]:
    """PostgreSQL's processes by whom they serve: ``pg_bench`` (backends of the bench's
    database, autovacuum workers on it included), ``pg_other`` (backends of any other
    database), ``pg_shared`` (the postmaster and its processes of no database: checkpointer,
    background writer, WAL writer, launchers, logger). ``activity``: (pid, datname) rows of
    pg_stat_activity; ``children``: the postmaster's child pids; ``excluded``: the harness's own
    backends (its queries are not the server's work)."""
    out: dict[int, str] = {}
    for pid, datname in activity:
        if pid in excluded:
            continue
        if datname is None:
            out[pid] = "pg_shared"
        else:
            out[pid] = "pg_bench" if datname == database else "pg_other"
    for pid in children:
        if pid not in out and pid not in excluded:
            out[pid] = "pg_shared"
    if postmaster is not None:
        out[postmaster] = "pg_shared"
    return out


def postgres_share(bench_s: float, other_s: float, shared_s: float) -> float:
    """The bench's PostgreSQL CPU seconds: its backends' own, and of the shared processes' (and
    of backends that came and went unseen) the bench's share of all backends' CPU."""
    backends = bench_s + other_s
    if backends <= 0:
        return bench_s
    return bench_s + shared_s * bench_s / backends


def per_move(cpu_s: Mapping[str, float], moves: int) -> dict[str, float]:
    """Milliseconds of CPU per move of each group (kinds summed as GROUPS says) and of the
    whole server (every group, the harness never among them)."""
    if not moves:
        return {}
    out = {
        group: round(1000 * sum(cpu_s.get(k, 0.0) for k in members) / moves, 2)
        for group, members in GROUPS.items()
    }
    out["server"] = round(
        1000 * sum(cpu_s.get(k, 0.0) for g in SERVER for k in GROUPS[g]) / moves, 2
    )
    return out


def server_ratios(results: list[dict]) -> dict[str, dict]:
    """The site's whole-server CPU per move beside the bare consumer's, and site / bare:
    saturating (each kind's run with the most moves a second: its saturation point), at each
    number of saturating tables, and at the offered rate. ``results``: load.py's runs, each
    with kind, scenario, tables, moves_per_s and server_cpu_ms_per_move."""

    def run(kind, scenario, tables=None):
        runs = [
            r
            for r in results
            if r["kind"] == kind
            and r["scenario"] == scenario
            and (tables is None or r["tables"] == tables)
            and r.get("server_cpu_ms_per_move")
        ]
        return max(runs, key=lambda r: r["moves_per_s"], default=None)

    sat_tables = sorted({r["tables"] for r in results if r["scenario"] == "saturate"})
    wanted = [("saturate", "saturate", None)]
    wanted += [(f"saturate {n} tables", "saturate", n) for n in sat_tables]
    wanted += [("rate", "rate", None)]
    out = {}
    for name, scenario, tables in wanted:
        site, bare = run("site", scenario, tables), run("bare", scenario, tables)
        if site and bare:
            s, b = site["server_cpu_ms_per_move"], bare["server_cpu_ms_per_move"]
            out[name] = {
                "site_ms": s,
                "bare_ms": b,
                "ratio": round(s / b, 2),
                "site": site.get("cpu_ms_per_move", {}),
                "bare": bare.get("cpu_ms_per_move", {}),
            }
    return out


def redis_foreign(clients: list[dict], ours: set[int], window_s: float) -> int:
    """Redis's clients that are not the server's nor the harness's (their TCP port is not one of
    ``ours``) and sent a command within the window: Redis's CPU is the whole server's, and
    theirs is in it. ``clients``: CLIENT LIST's entries (addr, idle, ...)."""
    n = 0
    for c in clients:
        port = c.get("addr", "").rpartition(":")[2]
        if port.isdigit() and int(port) in ours:
            continue
        if float(c.get("idle", 0)) <= window_s:
            n += 1
    return n
