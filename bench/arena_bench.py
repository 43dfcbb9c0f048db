"""The arena's two costs: pairing a big waiting pool, and pushing a big arena's standings.

Run from the repository root:
    .venv/bin/python bench/arena_bench.py                  # both
    .venv/bin/python bench/arena_bench.py --only pairing   # seconds, no servers
    ARENA_DATABASE_URL=postgres://postgres@127.0.0.1:5432/okey_load_arena \\
    ARENA_REDIS_URL=redis://127.0.0.1:6379/6 .venv/bin/python bench/arena_bench.py --only push

1. Pairing (target: p99 at most 200 ms of one core): ``games.arena.pairing.pool_pair`` on 400
   waiting players, 100 runs, each a new pool (a seeded random): standings shuffled, every
   player's last table four of nearby standing (the case the pairing works hardest on: repeats
   sit next to each other), 40 blocked pairs among neighbours, bots allowed, waits from 0 to 40 s.
   The CPU time of each call (``time.process_time``) is reported at p50/p99/max.

2. The standings' push (target: a 400-player arena's standings sent to 400 pages at most once a
   second, at most 10 % of a core): one daphne (``okeysite.asgi``, DEBUG=0, PostgreSQL, Redis,
   its own throwaway database whose name says load), a tournament of 400 entrants with ten
   games each, and 400 WebSocket clients on its page's socket (in a child process of their own,
   so their CPU is not counted). Once a second for ``--seconds`` the bench does what a push does
   (``games.arena.publish.standings_send``: the standings rendered once per language, one group
   message); the server's cost is daphne's CPU over the window (psutil) plus the push's own CPU
   in this process (in production it runs wherever the change committed: a worker, a daphne).
   Each client counts the frames and bytes it received.
"""

import argparse
import asyncio
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


# --- 1. pairing ----------------------------------------------------------------------------


def pool_make(rng: random.Random, n: int = 400):
    from games.arena.pairing import Waiting

    order = list(range(n))
    rng.shuffle(order)  # user ids in standing order
    mates = {}
    for k in range(0, n, 4):  # the last tables: four of nearby standing
        table = order[k : k + 4]
        for u in table:
            mates[u] = frozenset(table) - {u}
    pool = [
        Waiting(user_id=u, rank=r, mates=mates[u], waited=rng.random() * 40)
        for r, u in enumerate(order)
    ]
    forbidden = set()
    while len(forbidden) < 40:
        r = rng.randrange(n - 3)
        forbidden.add(frozenset((order[r], order[r + rng.randrange(1, 4)])))
    return pool, forbidden


def bench_pairing(runs: int) -> None:
    from games.arena.pairing import pool_pair

    rng = random.Random(47)
    times, tables, repeats = [], [], 0
    for _ in range(runs):
        pool, forbidden = pool_make(rng)
        start = time.process_time()
        made = pool_pair(pool, forbidden=forbidden, bots=True, bot_wait=20, repeat_wait=20)
        times.append(time.process_time() - start)
        tables.append(len(made))
        mates = {p.user_id: p.mates for p in pool}
        for t in made:
            people = [u for u in t if u is not None]
            repeats += sum(1 for a in people for b in people if a < b and b in mates[a])
            assert not any(frozenset((a, b)) in forbidden for a in people for b in people)
    ms = [t * 1000 for t in times]
    print(
        f"pairing 400 waiting, {runs} runs: p50 {pct(ms, 0.5):.1f} ms, p99 {pct(ms, 0.99):.1f} ms,"
        f" max {max(ms):.1f} ms of CPU; {statistics.mean(tables):.1f} tables a run;"
        f" {repeats} pairs seated again at once over all runs (target p99 <= 200 ms)"
    )


# --- 2. the standings' push ------------------------------------------------------------------


async def clients_run(url: str, n: int, seconds: float) -> None:
    import websockets

    frames = [0] * n
    sizes = [0] * n
    ready = asyncio.Event()
    connected = 0

    async def one(i):
        nonlocal connected
        origin = url.replace("ws://", "http://").split("/ws/")[0]
        async with websockets.connect(url, origin=origin, max_size=None, open_timeout=60) as ws:
            await ws.recv()  # the page's first frame
            connected += 1
            if connected == n:
                ready.set()
            try:
                while True:
                    msg = await ws.recv()
                    frames[i] += 1
                    sizes[i] += len(msg.encode() if isinstance(msg, str) else msg)
            except websockets.ConnectionClosed:
                return

    tasks = []
    for i in range(n):
        tasks.append(asyncio.create_task(one(i)))
        if i % 50 == 49:
            await asyncio.sleep(0.2)
    await asyncio.wait_for(ready.wait(), 120)
    print("ready", flush=True)
    await asyncio.sleep(seconds + 2)
    for t in tasks:
        t.cancel()
    print(
        f"clients: {n} pages; frames each: min {min(frames)}, max {max(frames)};"
        f" {statistics.mean(sizes) / max(1, statistics.mean(frames)) / 1024:.1f} KiB a frame",
        flush=True,
    )


def bench_push(players: int, seconds: float, port: int) -> None:
    import psutil

    from bench.loadlib.accounts import django_setup
    from bench.loadlib.procs import Stack, db_recreate, site_env

    database_url = os.environ.get(
        "ARENA_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/okey_load_arena"
    )
    redis_url = os.environ.get("ARENA_REDIS_URL", "redis://127.0.0.1:6379/6")
    db_recreate(database_url)
    # the site's processes and this one (which renders the pushes) send no mail here
    os.environ.setdefault("EMAIL_URL", "consolemail://")
    env = site_env(database_url, redis_url, EMAIL_URL=os.environ["EMAIL_URL"])
    stack = Stack(env, ROOT / "var" / "load" / "arena-logs")
    stack.prepare()
    django_setup(env)

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.arena.publish import standings_send
    from games.arena.schedule import tournament_schedule
    from games.models import Entrant

    t = tournament_schedule(
        name="Bench arena", options={"mode": "duz"}, starts=timezone.now(), minutes=120
    )
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"arena-bench-{i}", email=f"a{i}@example.com")
        for i in range(players)
    )
    rng = random.Random(1)
    line = [{"table": 1, "place": p, "points": (4, 2, 1, 0)[p - 1], "fire": False, "left": False}
            for p in (1, 2, 3, 4)]  # fmt: skip
    Entrant.objects.bulk_create(
        Entrant(tournament=t, user=u, points=rng.randrange(60), games=10,
                results=[rng.choice(line) for _ in range(10)])
        for u in users
    )  # fmt: skip
    try:
        daphne = stack.daphne_start(port)
        clients = subprocess.Popen(
            [sys.executable, __file__, "--clients", f"ws://127.0.0.1:{port}/ws/arena/{t.pk}/?lang=tr",
             "--players", str(players), "--seconds", str(seconds)],
            stdout=subprocess.PIPE, text=True, cwd=ROOT,
        )  # fmt: skip
        assert clients.stdout.readline().strip() == "ready"
        proc = psutil.Process(daphne.pid)
        before = proc.cpu_times()
        mine = resource.getrusage(resource.RUSAGE_SELF)
        start = time.monotonic()
        pushes = 0
        while time.monotonic() - start < seconds:
            standings_send(t.pk)
            pushes += 1
            time.sleep(max(0.0, start + pushes - time.monotonic()))
        window = time.monotonic() - start
        after = proc.cpu_times()
        mine_after = resource.getrusage(resource.RUSAGE_SELF)
        daphne_s = (after.user + after.system) - (before.user + before.system)
        push_s = (mine_after.ru_utime + mine_after.ru_stime) - (mine.ru_utime + mine.ru_stime)
        print(clients.stdout.read().strip())
        clients.wait(30)
        print(
            f"push: {players} pages, {pushes} pushes in {window:.1f} s: daphne"
            f" {daphne_s / window * 100:.1f} % of a core, the push itself"
            f" {push_s / pushes * 1000:.1f} ms of CPU each ({push_s / window * 100:.1f} %);"
            f" together {(daphne_s + push_s) / window * 100:.1f} % of a core (target <= 10 %)"
        )
    finally:
        stack.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=["pairing", "push"])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--port", type=int, default=8547)
    parser.add_argument("--clients")
    args = parser.parse_args()
    if args.clients:
        asyncio.run(clients_run(args.clients, args.players, args.seconds))
        return
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores")
    if args.only in (None, "pairing"):
        bench_pairing(args.runs)
    if args.only in (None, "push"):
        bench_push(args.players, args.seconds, args.port)


if __name__ == "__main__":
    main()
