"""Load: N tables of four simulated players against the site, and the bare stack beside it.

    .venv/bin/python bench/load.py                       # the whole sitting (see SCENARIOS)
    .venv/bin/python bench/load.py --only rate --tables 100 --rate 1 --seconds 60
    .venv/bin/python bench/load.py --only saturate --sat-tables 40,80
    .venv/bin/python bench/load.py --only idle --sockets 2000
    .venv/bin/python bench/load.py --only rate --webs 1 --tables 20   # one daphne
    .venv/bin/python bench/load.py --game 101 --target site --only saturate --sat-tables 40

It recreates its own PostgreSQL database (DATABASE_URL, default .../okey_load), starts the site
with bin/run (daphne, Celery worker, beat; DEBUG=0) on --port (8500), and for each scenario
makes users, logs them in (one through the real log-in form, the rest with a session made the
same way), deals tables, connects one WebSocket client per player (session cookie, allowed
Origin) and plays legal moves chosen with the engine. Then it stops the site and serves
bench/bare with daphne on --port + 10 for the same scenarios. It prints, per scenario: moves a
second; p50/p95/p99 from a move sent to the update received by each of the other three players
(the move's event reaching them); the bytes a player receives for one move (median and p95 over
every move and player, the mover included); errors; CPU (share of one core) and peak memory of
daphne, the Celery workers, beat, PostgreSQL and Redis; the CPU time per move of each and of the
whole server (the harness apart: bench/loadlib/cpu.py); the machine's CPU and load average; at
the end the site's server CPU per move over the bare's. --json FILE writes it all.

The site runs --webs daphne processes (bin/run's OKEY_WEBS; one a core by default, as bin/run
does) on its one listening socket: the kernel gives each player's connection to one of them, so
the players of a table sit on different daphnes, as in life, and share their games through the
Redis channel layer: every move made through one daphne must reach the players on the others.

--game 101 deals 101 tables instead of Düz ones (bench.loadlib.players.Player101: its players
open, lay, add işlek tiles and discard), for the site's CPU and bytes per 101 move beside a
Düz run's; the bare stack plays no game, so it is the same either way.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shutil
import signal
import sys
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.loadlib import accounts, cpu, procs  # noqa: E402
from bench.loadlib.disk import DiskProbe  # noqa: E402
from bench.loadlib.stats import Recorder, loadavg  # noqa: E402

SCENARIOS = ("rate", "saturate", "idle")
# the tables' options for each --game (long games: no table ends during a run)
GAMES = {
    "duz": {},  # accounts.tables_create's long Düz game
    "101": {"variant": "101", "hand_limit": 21},
}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--only", action="append", choices=SCENARIOS, help="scenarios to run")
    p.add_argument("--target", choices=("site", "bare", "both"), default="both")
    p.add_argument("--tables", type=int, default=100, help="tables in the rate scenario")
    p.add_argument("--rate", type=float, default=1.0, help="moves per second per table")
    p.add_argument("--think", type=float, default=0.3, help="least think time before a move (s)")
    p.add_argument(
        "--jitter",
        type=float,
        default=0.5,
        help="in the rate scenario, each interval between a table's moves is 1/rate times 1 +- up"
        " to this, and a table's first move comes at a random point of its first interval"
        " (0: every table on a strict beat from its first move, started with its batch)",
    )
    p.add_argument(
        "--sat-tables",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[40, 80],
        help="tables in the saturate scenario, one run for each (comma-separated): a server's"
        " saturation throughput is the most it makes in any of them",
    )
    p.add_argument("--sockets", type=int, default=2000, help="sockets in the idle scenario")
    p.add_argument(
        "--heartbeat",
        type=float,
        default=0.0,
        help="idle sockets send table.js's sync after this many seconds without a frame at a"
        " table whose game is on (0: never)",
    )
    p.add_argument(
        "--heartbeat-quiet",
        type=float,
        default=60.0,
        help="the same at a table waiting for players or after its game (table.js: 60)",
    )
    p.add_argument("--warmup", type=float, default=15.0)
    p.add_argument("--seconds", type=float, default=60.0, help="measuring window")
    p.add_argument(
        "--webs",
        type=int,
        default=os.cpu_count() or 1,
        help="daphne processes for the site on its one socket (default: one a core)",
    )
    p.add_argument("--port", type=int, default=8500)
    p.add_argument(
        "--database-url", default=os.environ.get("LOAD_DATABASE_URL", procs.DEFAULT_DATABASE_URL)
    )
    p.add_argument("--redis-url", default=os.environ.get("LOAD_REDIS_URL", procs.DEFAULT_REDIS_URL))
    p.add_argument("--keep-db", action="store_true", help="do not recreate the database first")
    p.add_argument("--debug", action="store_true", help="run the site with DEBUG=1")
    p.add_argument("--json", help="write the results to this file")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--game", choices=tuple(GAMES), default="duz", help="the variant the site's tables play"
    )
    p.add_argument(
        "--engine-discards",
        action="store_true",
        help="site players discard the engine's best discard (0.5-0.7 ms of the harness's CPU"
        " each), not their loosest tile",
    )
    return p.parse_args(argv)  # fmt: skip


async def loop_lag(rec: Recorder, stop: asyncio.Event) -> None:
    """How late the harness's own event loop wakes up: a busy harness inflates latencies."""
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(0.1)
        if rec.measuring:
            rec.loop_lag.append(time.perf_counter() - t - 0.1)


async def scenario_run(players, rec: Recorder, meter: procs.Meter, args, *, connect_batch=100):
    """Connect everyone, warm up, measure for --seconds, stop; return the summary."""
    from bench.loadlib.players import Player  # noqa: F401  (the type of ``players``)

    stop = asyncio.Event()
    tasks = []
    t0 = time.perf_counter()
    for i, p in enumerate(players):
        tasks.append(asyncio.create_task(p.run(stop)))
        if (i + 1) % connect_batch == 0:
            await asyncio.gather(*(q.connected.wait() for q in players[: i + 1]))
    await asyncio.wait_for(asyncio.gather(*(p.connected.wait() for p in players)), 600)
    connect_s = time.perf_counter() - t0
    # the sockets and players live through the run: out of the collector's walks, whose pauses
    # would otherwise count in the latencies measured (the harness's own loop lag)
    gc.collect()
    gc.freeze()
    aux = [asyncio.create_task(loop_lag(rec, stop))]

    async def watchdog():
        while not stop.is_set():
            await asyncio.sleep(1)
            for p in players:
                p.watchdog()

    aux.append(asyncio.create_task(watchdog()))
    await asyncio.sleep(args.warmup)
    rec.start()
    meter.begin()
    disk = DiskProbe(ROOT / "var" / "load")
    disk.begin()
    load0 = os.getloadavg()
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        await asyncio.sleep(min(2.0, max(0.0, end - time.monotonic())))
        meter.sample()
    rec.stop()
    usage = meter.end()
    disk_flushes = disk.end()
    load1 = os.getloadavg()
    await asyncio.sleep(2.0)  # updates still on their way count as seen, not as missed
    stop.set()
    await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
    await asyncio.gather(*tasks, *aux, return_exceptions=True)
    gc.unfreeze()
    out = rec.summary()
    out["connect_s"] = round(connect_s, 1)
    out["sockets"] = len(players)
    out["usage"] = usage
    out["disk"] = disk_flushes
    out["loadavg_before"] = " ".join(f"{x:.2f}" for x in load0)
    out["loadavg_after"] = " ".join(f"{x:.2f}" for x in load1)
    return out


def players_make(kind, tables, cookies, args, rec, *, rate, think, play, ports, heartbeat=0.0,
                 jitter=0.0):  # fmt: skip
    quiet = args.heartbeat_quiet if heartbeat else 0.0
    from bench.loadlib.players import BarePlayer, Player101, SitePlayer, TablePace

    cls = BarePlayer if kind != "site" else Player101 if args.game == "101" else SitePlayer
    more = {"engine_discards": args.engine_discards} if kind == "site" else {}
    path = "ws/table/{}/?lang=en" if kind == "site" else "ws/bare/{}/"
    rng = random.Random(args.seed)
    players = []
    for n, table in enumerate(tables):
        pace = TablePace(rate=rate, think=think, jitter=jitter)
        for seat in range(4):
            port = ports[seat % len(ports)]
            players.append(
                cls(
                    url=f"ws://127.0.0.1:{port}/" + path.format(table),
                    origin=f"http://127.0.0.1:{port}",
                    table=table,
                    seat=seat,
                    cookie=cookies[n * 4 + seat] if cookies else None,
                    recorder=rec,
                    pace=pace,
                    rng=random.Random(rng.random()),
                    play=play,
                    heartbeat=heartbeat,
                    heartbeat_quiet=quiet,
                    **more,
                )
            )
    return players


def site_tables(
    count: int, tag: str, base_url: str, start=True, game="duz"
) -> tuple[list[int], list[str]]:
    """``count`` tables of four logged-in users playing ``game`` (dealt when ``start``); user 0
    logs in through the form."""
    from django.db import close_old_connections

    users = accounts.users_create(f"load-{tag}-{int(time.time())}", count * 4, with_password=1)
    cookies = [accounts.login_through_form(base_url, users[0].email)]
    cookies += [accounts.session_cookie(u) for u in users[1:]]
    tables = accounts.tables_create(users, options=GAMES[game], start=start)
    close_old_connections()
    return tables, cookies


def tables_drop(tables) -> None:
    """Delete a scenario's tables: left alone, their turn timers would have the server play
    them on (timeouts, then away seats) through the next scenario."""
    from django.db import IntegrityError, OperationalError, close_old_connections

    from games.models import Table

    for table_id in tables:
        for _ in range(5):  # a deadlock with a move or a timeout still being applied: again
            try:
                Table.objects.filter(pk=table_id).delete()
                break
            except (OperationalError, IntegrityError):
                time.sleep(0.2)
    close_old_connections()


def queues_empty(redis_url: str) -> None:
    """Empty the Celery queues of the bench's Redis database: the reviews a saturating run of an
    earlier sitting left waiting would otherwise be worked off during this one."""
    with redis.Redis.from_url(redis_url) as client:
        client.delete("celery", "reviews")


def reviews_waiting(redis_url: str) -> int:
    """Hands' reviews still queued at the end of a run: their worker runs at a lower CPU
    priority than live play (deploy/programs.conf), so on a saturated machine they wait."""
    with redis.Redis.from_url(redis_url) as client:
        return client.llen("reviews")


def report_line(name, r) -> str:
    u = r["usage"]
    d = u.get("daphne", {})
    rv = u.get("reviews")
    ms = r.get("cpu_ms_per_move", {})
    reviews = (
        f"reviews {rv.get('cpu_pct_of_core', 0):4.1f}%, {r.get('reviews_waiting', 0)} waiting  "
        if rv
        else ""
    )

    def pct(role):
        return u.get(role, {}).get("cpu_pct_of_core", 0)

    webs = f"{d.get('processes', 0)} processes " if d.get("processes", 0) > 1 else ""
    n = u.get("redis", {}).get("foreign_clients_active")
    foreign = f"(and {n} clients not the site's) " if n else ""
    return (
        f"{name:<22} {r['sockets']:5d} sockets  {r['moves_per_s']:7.1f} moves/s  "
        f"p50 {r['p50_ms']:6.1f}  p95 {r['p95_ms']:6.1f}  p99 {r['p99_ms']:7.1f} ms  "
        f"errors {r['errors']}  missed {r.get('updates_missed', 0)}  "
        f"daphne {webs}{pct('daphne'):5.1f}% {d.get('rss_mb_peak', 0):5.0f} MB  "
        f"worker {pct('worker'):4.1f}%  {reviews}beat {pct('beat'):3.1f}%  "
        f"postgres {pct('postgres'):4.1f}%  redis {pct('redis'):4.1f}%  {foreign}"
        f"other {pct('other'):3.1f}%  harness {u['harness_cpu']:5.1f}%  "
        f"machine {u['machine']['cpu_pct_of_all_cores']:5.1f}%  "
        f"harness lag p99 {r.get('harness_loop_lag_p99_ms', 0):.0f}"
        f" max {r.get('harness_loop_lag_max_ms', 0):.0f} ms  "
        f"load {r['loadavg_before']} -> {r['loadavg_after']}"
        + (
            f"\n   CPU per move (ms): server {ms['server']:.2f} = daphne {ms['daphne']:.2f}"
            f" + workers {ms['workers']:.2f} + beat {ms['beat']:.2f}"
            f" + postgres {ms['postgres']:.2f} + redis {ms['redis']:.2f}"
            f" + other {ms['other']:.2f} (harness apart: {r.get('harness_cpu_ms_per_move', 0):.2f})"
            if ms
            else ""
        )
        + (
            f"\n   bytes a player receives for one move (its event, own part or full frame):"
            f" p50 {r['viewer_bytes_per_move_p50']}  p95 {r['viewer_bytes_per_move_p95']};"
            f" all four players p50 {r['bytes_per_move_p50']}"
            if r.get("viewer_bytes_per_move_p50") is not None
            else ""
        )
        + (
            f"\n   gc pauses logged (OKEY_GC_LOG_MS): {g['n']}, {g['full']} of them full,"
            f" longest {g['max_ms']:.0f} ms, {g['total_ms']:.0f} ms in all"
            f" ({g.get('cpu_ms', 0):.0f} ms of them on the CPU)"
            if (g := r.get("gc_pauses")) and g["n"]
            else ""
        )
        + (
            f"\n   most moves sent within 50 ms: {r.get('moves_sent_within_50ms_max', 0)};"
            " slowest seconds (UTC: updates, p50, max ms): "
            + ", ".join(
                f"{w['at']}: {w['samples']}, {w['p50_ms']:.0f}, {w['max_ms']:.0f}" for w in ws
            )
            if (ws := r.get("worst_seconds"))
            else ""
        )
        + (
            f"\n   disk flush (8 KiB fdatasync every 50 ms): p50 {k['p50_ms']:.2f}  p99"
            f" {k['p99_ms']:.2f}  max {k['max_ms']:.0f} ms; over 100 ms at: "
            + (", ".join(f"{x['at']} ({x['ms']} ms)" for x in k["stalls"]) or "none")
            if (k := r.get("disk")) and k["flushes"]
            else ""
        )
    )


def measure(kind, scenario, args, stack, ports, results, services, sat_tables=None):
    import psutil

    rec = Recorder()
    base_url = f"http://127.0.0.1:{ports[0]}"
    if scenario == "rate":
        n, rate, think, play, hb = args.tables, args.rate, args.think, True, 0.0
    elif scenario == "saturate":
        n, rate, think, play, hb = sat_tables, 0.0, 0.0, True, 0.0
    else:
        n, rate, think, play, hb = args.sockets // 4, 0.0, 0.0, False, args.heartbeat
    if kind == "site":
        # Idle sockets sit at full tables waiting for the start: a dealt table is not idle, its
        # turn timer would have the server play every turn after turn_seconds.
        tables, cookies = site_tables(
            n, scenario, base_url, start=scenario != "idle", game=args.game
        )
    else:
        from bench.bare.consumer import tables_reset

        tables_reset(n)
        tables, cookies = list(range(1, n + 1)), None
    players = players_make(
        kind, tables, cookies, args, rec, rate=rate, think=think, play=play, ports=ports,
        heartbeat=hb, jitter=args.jitter if scenario == "rate" else 0.0,
    )  # fmt: skip
    groups = stack.processes()
    groups["harness"] = [psutil.Process()]
    # daphne's children, if it has any, may start with a socket; PostgreSQL's backends with a
    # connection
    meter = procs.Meter(groups, more=stack.processes, services=services)
    logs_at = procs.log_offsets(stack.log_dir)
    r = asyncio.run(scenario_run(players, rec, meter, args))
    if kind == "site":
        r["reviews_waiting"] = reviews_waiting(args.redis_url)
    r["gc_pauses"] = procs.gc_pauses_since(stack.log_dir, logs_at)  # warm-up included
    if kind == "site":
        tables_drop(tables)
    r["updates_missed"] = rec.updates_missed(3) if play else 0
    r["usage"]["harness_cpu"] = r["usage"].pop("harness", {}).get("cpu_pct_of_core", 0.0)
    webs = args.webs if kind == "site" else 1
    r.update(kind=kind, scenario=scenario, tables=n, rate=rate, think=think, webs=webs)
    r["game"] = args.game if kind == "site" else None
    if scenario == "rate":
        r["jitter"] = args.jitter
    cpu_s = r["usage"].pop("cpu_s", {})
    # CPU time per move: less sensitive to a busy machine than moves per second; each group's
    # (daphne with any child it has, the workers, PostgreSQL's share, Redis) and the server's
    r["cpu_ms_per_move"] = cpu.per_move(cpu_s, r["moves"])
    if r["moves"]:
        r["daphne_cpu_ms_per_move"] = r["cpu_ms_per_move"]["daphne"]
        r["server_cpu_ms_per_move"] = r["cpu_ms_per_move"]["server"]
        r["harness_cpu_ms_per_move"] = round(1000 * cpu_s.get("harness", 0.0) / r["moves"], 2)
    if scenario == "idle":
        r["heartbeat_s"] = hb
        r["heartbeat_quiet_s"] = args.heartbeat_quiet if hb else 0.0
    name = f"{kind}{' 101' if kind == 'site' and args.game == '101' else ''} {scenario}"
    name += f" {n}" if scenario == "saturate" else ""
    name += f" x{len(ports)} daphne" if len(ports) > 1 else ""
    print(report_line(name, r), flush=True)
    if r["error_kinds"]:
        print("   errors:", r["error_kinds"], {k: v for k, v in rec.error_examples.items()})
    results.append(r)


def ratios_print(results) -> dict:
    """The site's moves per second over the bare consumer's: saturating, the best run of each
    (each server at its own saturation point), and at each number of tables; at the offered
    rate."""
    ratio = {}

    def best(kind, scenario, tables=None):
        runs = [r for r in results if r["kind"] == kind and r["scenario"] == scenario]
        runs = [r for r in runs if tables is None or r["tables"] == tables]
        return max((r["moves_per_s"] for r in runs), default=0.0)

    sat_tables = sorted({r["tables"] for r in results if r["scenario"] == "saturate"})
    runs = [("saturate", "saturate", None)]
    runs += [(f"saturate {n} tables", "saturate", n) for n in sat_tables]
    runs += [("rate", "rate", None)]
    for name, scenario, tables in runs:
        site, bare = best("site", scenario, tables), best("bare", scenario, tables)
        if site and bare:
            ratio[name] = round(site / bare, 2)
            print(f"site / bare moves per second, {name}: {ratio[name]}")
    return ratio


def main(argv=None):
    args = parse_args(argv)
    # a timeout or kill -TERM still stops the servers this run started (the finally below)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    scenarios = args.only or list(SCENARIOS)
    kinds = ["site", "bare"] if args.target == "both" else [args.target]
    env = procs.site_env(args.database_url, args.redis_url, debug=args.debug)
    log_dir = ROOT / "var" / "load" / "logs"
    shutil.rmtree(log_dir, ignore_errors=True)
    if not args.keep_db:
        procs.db_recreate(args.database_url)
    queues_empty(args.redis_url)
    results = []
    print(f"load average at the start: {loadavg()}  ({os.cpu_count()} cores)", flush=True)
    accounts.django_setup(env)
    services = procs.Services(args.database_url, args.redis_url)
    for kind in kinds:
        stack = procs.Stack(env=dict(env), log_dir=log_dir)
        try:
            if kind == "site":
                stack.env["OKEY_WEBS"] = str(args.webs)
                stack.site_run("127.0.0.1", args.port)
                ports = [args.port]
            else:
                stack.prepare()
                stack.daphne_start(args.port + 10, "bench.bare.asgi:application")
                ports = [args.port + 10]
            for scenario in scenarios:
                if kind == "bare" and scenario == "idle":
                    continue
                for n in args.sat_tables if scenario == "saturate" else [None]:
                    measure(kind, scenario, args, stack, ports, results, services, sat_tables=n)
        finally:
            stack.stop()
    services.close()
    ratio = ratios_print(results)
    cpu_ratio = cpu.server_ratios(results)
    for name, c in cpu_ratio.items():
        print(
            f"server CPU per move (harness excluded), {name}: site {c['site_ms']:.2f} ms,"
            f" bare {c['bare_ms']:.2f} ms, site / bare {c['ratio']}"
        )
    print(f"load average at the end: {loadavg()}")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {"results": results, "ratio": ratio, "server_cpu_per_move": cpu_ratio}, indent=1
            )
        )


if __name__ == "__main__":
    main()
