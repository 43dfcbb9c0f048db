"""Faults: kill -9 daphne, the Celery worker or Redis at random moments during bot games, restart
it, and check after each injection that nothing was lost, doubled or left undone.

    .venv/bin/python bench/faults.py                  # 51 injections (17 of each), ~15 minutes
    .venv/bin/python bench/faults.py --injections 6 --tables 4     # a quick look

Setup: its own database (default .../okey_load_faults, recreated), a private redis-server on
--redis-port (8590; never the shared 6379, and with no persistence, so a kill loses whatever
Redis held), and the site's processes with deploy/programs.conf's commands, each on its own
without supervisord (web on --port, worker, reviews, beat), so that a death stays seen until this
harness restarts the process. Each table has two bots
(seats 2 and 4) and two people playing through WebSockets: an attentive one, and a sleepy one
who lets about a third of their turns time out (turn_seconds 15), so the server plays timed-out
turns and away seats all along. Each client sends table.js's sync every 15 s.

After each injection it checks:
- the database (one consistent snapshot): every hand's moves numbered 1..n without gap or repeat,
  replaying them from the seed gives the stored state, versions increase (bench/loadlib/checks);
- convergence: after a daphne kill each client reconnects, and its view (a full frame on the new
  socket, then the moves' events) reaches the table's current version within 2 s of the socket
  opening; after a Redis or worker kill, every client's view reaches the version the table had
  when the process came back, and the time it took;
- deadlines: within 30 s no table is more than 2 s past its Game.deadline (a timed-out turn, a
  bot's turn, the next deal: eventually played; exactly once is the replay check above);
- collateral deaths: a site process that exited by itself after the fault (it is restarted, as
  a supervisor would, and reported).
All along, each client checks every frame it receives (bench/loadlib/frames.frame_problems): a
rack only ever of its own seat, none to a spectator; a breach is a client error in the
summary. It prints one line per injection and a summary; --json FILE writes them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.loadlib import accounts, checks, procs  # noqa: E402
from bench.loadlib.stats import Recorder, loadavg, pct  # noqa: E402

CONVERGE_LIMIT = 2.0


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--injections", type=int, default=51)
    p.add_argument("--tables", type=int, default=8)
    p.add_argument("--port", type=int, default=8520)
    p.add_argument("--redis-port", type=int, default=8590)
    p.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/okey_load_faults")
    p.add_argument(
        "--gap",
        type=float,
        nargs=2,
        default=(3.0, 12.0),
        help="seconds between a recovery and the next kill (uniform)",
    )
    p.add_argument(
        "--down",
        type=float,
        nargs=2,
        default=(0.2, 2.0),
        help="seconds a killed process stays down (uniform)",
    )
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--json")
    return p.parse_args(argv)  # fmt: skip


class Redis:
    """A private redis-server started and killed by this harness only."""

    def __init__(self, port: int, directory: Path):
        self.port, self.dir, self.proc = port, directory, None
        self.binary = (
            shutil.which("redis-server")
            or subprocess.check_output(["bin/ensure-redis"], cwd=ROOT, text=True).strip()
        )

    def start(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir), "--logfile", str(self.dir / "redis.log")],
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=self.port, socket_timeout=1).ping()
                return
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


def tables_make(n: int) -> tuple[list[int], list, list[str]]:
    """``n`` tables: people at seats 1 and 3 (index 0, 2), bots at 2 and 4 (filled at start)."""
    from games.table.create import table_create
    from games.table.lifecycle import game_start, table_start
    from games.table.seats import seat_take

    users = accounts.users_create(f"fault-{int(time.time())}", 2 * n)
    cookies = [accounts.session_cookie(u) for u in users]
    opts = {"hand_limit": 50, "start_count": 50, "turn_seconds": 15}
    tables = []
    for k in range(n):
        a, b = users[2 * k], users[2 * k + 1]
        table = table_create(manager=a, options=opts)
        seat_take(table_id=table.pk, user=b, index=2)
        version = table_start(table_id=table.pk, user=a)
        game_start(table_id=table.pk, expected_version=version)
        tables.append(table.pk)
    from django.db import close_old_connections

    close_old_connections()
    return tables, users, cookies


def db_versions(tables) -> dict[int, int]:
    from django.db import close_old_connections

    from games.models import Game

    try:
        return dict(Game.objects.filter(table_id__in=tables).values_list("table_id", "version"))
    finally:
        close_old_connections()


def db_checks(tables) -> list[str]:
    from django.db import close_old_connections

    try:
        return checks.database_check_consistent(tables)
    finally:
        close_old_connections()


def db_overdue(tables) -> list[str]:
    from django.db import close_old_connections

    try:
        return checks.overdue_deadlines(2.0, tables)
    finally:
        close_old_connections()


async def converge_after_reconnect(players, since: float, timeout=30.0) -> list[float]:
    """For each player: reconnected after ``since``; seconds from its socket opening until its
    view reached the version the table had just after it opened, from a full frame received on
    the new socket (the whole table, as the page shows it on connecting) and the events after
    it."""
    out = []
    deadline = time.perf_counter() + timeout

    async def one(p):
        while not (p.opened_at and p.opened_at[-1] > since and p.connected.is_set()):
            if time.perf_counter() > deadline:
                return float("inf")
            await asyncio.sleep(0.02)
        opened = p.opened_at[-1]
        target = (await asyncio.to_thread(db_versions, [p.table]))[p.table]
        while p.full_at < opened or p.version < target:
            if time.perf_counter() > deadline:
                return float("inf")
            await asyncio.sleep(0.01)
        return time.perf_counter() - opened

    out = await asyncio.gather(*(one(p) for p in players))
    return list(out)


async def converge_in_place(players, timeout=30.0) -> list[float]:
    """Seconds until each player's view reaches the version its table has now (through the
    moves' events, or a full frame after a gap in them or a heartbeat's sync)."""
    t0 = time.perf_counter()
    target = await asyncio.to_thread(db_versions, sorted({p.table for p in players}))

    async def one(p):
        while p.version < target[p.table]:
            if time.perf_counter() - t0 > timeout:
                return float("inf")
            await asyncio.sleep(0.02)
        return time.perf_counter() - t0

    return list(await asyncio.gather(*(one(p) for p in players)))


def revive(stack: procs.Stack, port: int) -> list[str]:
    """Restart any site process that died by itself, as supervisord does in production, and say
    which: a process that a fault elsewhere took down is a finding of its own."""
    died = []
    for role, line in (
        ("daphne", "web"),
        ("worker", "worker"),
        ("reviews", "reviews"),
        ("mail", "mail"),
        ("beat", "beat"),
    ):
        live = [p for p in stack.popen.get(role, []) if p.poll() is None]
        if not live:
            stack.popen.pop(role, None)
            died.append(role)
            stack.proc_start(line, port=port if line == "web" else 0)
    return died


async def overdue_clear(tables, timeout=30.0, stack=None, port=0, died=None):
    t0 = time.perf_counter()
    while True:
        if stack is not None:
            died += revive(stack, port)
        late = await asyncio.to_thread(db_overdue, tables)
        if not late or time.perf_counter() - t0 > timeout:
            return time.perf_counter() - t0, late
        await asyncio.sleep(0.5)


async def injections_run(args, stack: procs.Stack, redis: Redis, players, tables, rng):
    kinds = ["daphne", "worker", "redis"]
    order = [kinds[i % 3] for i in range(args.injections)]
    rng.shuffle(order)
    log = []
    for n, kind in enumerate(order, start=1):
        await asyncio.sleep(rng.uniform(*args.gap))
        t_kill = time.perf_counter()
        before = await asyncio.to_thread(db_versions, tables)
        if kind == "redis":
            redis.kill()
        else:
            for p in stack.popen.pop("daphne" if kind == "daphne" else "worker", []):
                os.killpg(p.pid, signal.SIGKILL)  # the process group this harness started
                p.wait()
        await asyncio.sleep(rng.uniform(*args.down))
        if kind == "redis":
            await asyncio.to_thread(redis.start)
        elif kind == "worker":
            stack.proc_start("worker")
        else:
            stack.proc_start("web", port=args.port)
            await asyncio.to_thread(
                procs.http_wait, f"http://127.0.0.1:{args.port}/healthz", 60, False
            )
        t_up = time.perf_counter()
        if kind == "daphne":
            conv = await converge_after_reconnect(players, t_kill)
        else:
            conv = await converge_in_place(players)
        died = revive(stack, args.port)
        overdue_s, late = await overdue_clear(tables, stack=stack, port=args.port, died=died)
        problems = await asyncio.to_thread(db_checks, tables)
        after = await asyncio.to_thread(db_versions, tables)
        moved = sum(after[t] - before.get(t, 0) for t in tables)
        row = {
            "n": n,
            "kind": kind,
            "down_s": round(t_up - t_kill, 2),
            "converge_max_s": round(max(conv), 2),
            "converge_p50_s": round(pct(conv, 0.5), 2),
            "not_converged_in_2s": sum(1 for c in conv if c > CONVERGE_LIMIT),
            "overdue_cleared_s": round(overdue_s, 1),
            "overdue_left": late,
            "problems": problems,
            "table_versions_advanced": moved,
            "also_died": died,
            "loadavg": loadavg(),
        }
        log.append(row)
        print(
            f"#{n:2d} kill -9 {kind:<6} down {row['down_s']:5.2f} s  converge max "
            f"{row['converge_max_s']:5.2f} s (p50 {row['converge_p50_s']:.2f}, over 2 s: "
            f"{row['not_converged_in_2s']})  overdue cleared in {row['overdue_cleared_s']:4.1f} s"
            f"{' LEFT ' + str(late) if late else ''}  db problems {len(problems)}  "
            f"versions +{moved}{'  ALSO DIED: ' + ','.join(died) if died else ''}"
            f"  load {row['loadavg']}",
            flush=True,
        )
        for p in problems[:5]:
            print("    ", p)
    return log


async def main_async(args, stack, redis, tables, cookies, rng):
    from bench.loadlib.players import SitePlayer, TablePace

    rec = Recorder()
    players = []
    for k, table in enumerate(tables):
        pace = TablePace(rate=0.0, think=1.0)
        for j, seat in enumerate((0, 2)):
            p = SitePlayer(
                url=f"ws://127.0.0.1:{args.port}/ws/table/{table}/?lang=en",
                origin=f"http://127.0.0.1:{args.port}",
                table=table, seat=seat, cookie=cookies[2 * k + j], recorder=rec, pace=pace,
                rng=random.Random(rng.random()), heartbeat=15.0,
            )  # fmt: skip
            p.skip_chance = 0.35 if j == 1 else 0.0
            players.append(p)
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.run(stop)) for p in players]
    await asyncio.gather(*(p.connected.wait() for p in players))
    rec.start()

    async def watchdog():
        while not stop.is_set():
            await asyncio.sleep(1)
            for p in players:
                p.watchdog()

    wd = asyncio.create_task(watchdog())
    try:
        log = await injections_run(args, stack, redis, players, tables, rng)
        await asyncio.sleep(5)
        _, late = await overdue_clear(tables, stack=stack, port=args.port, died=[])
        final = await asyncio.to_thread(db_checks, tables)
    finally:
        stop.set()
        await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
        await asyncio.gather(*tasks, wd, return_exceptions=True)
    return log, final, late, rec


def main(argv=None):
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # still stop what we started
    rng = random.Random(args.seed)
    redis = Redis(args.redis_port, ROOT / "var" / "load" / "fault-redis")
    env = procs.site_env(args.database_url, f"redis://127.0.0.1:{args.redis_port}/0")
    log_dir = ROOT / "var" / "load" / "fault-logs"
    shutil.rmtree(log_dir, ignore_errors=True)
    stack = procs.Stack(env=env, log_dir=log_dir)
    procs.db_recreate(args.database_url)
    print(f"load average at the start: {loadavg()}", flush=True)
    redis.start()
    try:
        stack.prepare()
        stack.proc_start("web", port=args.port)
        stack.proc_start("worker")
        stack.proc_start("reviews")
        stack.proc_start("mail")
        stack.proc_start("beat")
        procs.http_wait(f"http://127.0.0.1:{args.port}/healthz", 90)
        accounts.django_setup(env)
        tables, _users, cookies = tables_make(args.tables)
        log, final, late, rec = asyncio.run(main_async(args, stack, redis, tables, cookies, rng))
    finally:
        stack.stop()
        redis.stop()
    from django.db import close_old_connections

    from games.models import Move

    moves = Move.objects.filter(hand__game__table_id__in=tables).count()
    timed_out = checks.timed_out_turns(tables)
    close_old_connections()
    conv_daphne = [r["converge_max_s"] for r in log if r["kind"] == "daphne"]
    summary = {
        "injections": len(log),
        "by_kind": {
            k: sum(1 for r in log if r["kind"] == k) for k in ("daphne", "worker", "redis")
        },
        "db_problems_after_injections": sum(len(r["problems"]) for r in log),
        "db_problems_final": final,
        "overdue_left_final": late,
        "clients_not_converged_in_2s_after_reconnect": sum(
            r["not_converged_in_2s"] for r in log if r["kind"] == "daphne"
        ),
        "reconnect_converge_max_s": max(conv_daphne) if conv_daphne else None,
        "in_place_converge_max_s": max(
            (r["converge_max_s"] for r in log if r["kind"] != "daphne"), default=None
        ),
        "overdue_cleared_max_s": max((r["overdue_cleared_s"] for r in log), default=None),
        "collateral_deaths": {
            f"{k} after a {r['kind']} kill": sum(
                1 for x in log if x["kind"] == r["kind"] for d in x["also_died"] if d == k
            )
            for r in log
            for k in r["also_died"]
        },
        "moves_logged": moves,
        "timed_out_turns_played": timed_out,
        "client_errors": dict(rec.errors),
        "loadavg_end": loadavg(),
    }
    print(json.dumps(summary, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps({"injections": log, "summary": summary}, indent=1))


if __name__ == "__main__":
    main()
