"""How soon a hand's review is ready after the hand ends.

Run from the repository root, on PostgreSQL (the worker thread and the bench share the
database, which SQLite's in-memory test database cannot) and a Redis for the worker:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/okey_bench REDIS_URL=redis://127.0.0.1:6379/14 \
        .venv/bin/python bench/review_bench.py [--hands 20] [--seed 1]

It creates a throwaway test database, seats four people at a table (so the judging bot is asked
on every discard: the most work a review can take) and plays seeded hands through
games.services.move_submit, each seat choosing its moves as the normal bot does. The move that
ends a hand sends the review's task after commit, as on the site, to a Celery worker running in
this process (a thread, solo pool) on that Redis. For each hand it prints its number of moves
and:
- ready: wall time from the end of the hand's last move_submit to the review's row existing
  (the task's trip through Redis, the worker, the marks, the write), polled every 10 ms;
- make: the task's own work again, hand_review_make on the hand whose review is deleted (the
  replay, the marks, the write), in wall and CPU time; the engine's memo tables are warm by then,
  so "ready" is the figure that counts.
The issue's target: a hand of 60 moves ready within 2 s. Wall times on a shared machine: run it
twice and read the better numbers.
"""

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if "REDIS_URL" not in os.environ or "postgres" not in os.environ.get("DATABASE_URL", ""):
        sys.exit("set DATABASE_URL (PostgreSQL) and REDIS_URL: see the top of this script")

    from benchdb import bench_database, bench_django, table_of_four

    bench_django()
    from celery.contrib.testing.worker import start_worker

    from games import broadcast, engine, services
    from games.models import Hand, HandReview
    from okeysite.celery import app

    broadcast.event_publish = lambda event: None  # nobody listens

    rows = []
    with (
        bench_database(),
        start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING"),
    ):
        users, table = table_of_four({"hand_limit": 50})
        rng = random.Random(args.seed)
        for _ in range(args.hands):
            hand = Hand.objects.filter(game__table=table).order_by("-number").first()
            while True:
                state = engine.hand_from_dict(hand.state)
                seat = state.turn
                moves = engine.bot_moves(state, seat, rng.choice(["normal", "easy"]))
                for m in moves:
                    services.move_submit(
                        table_id=table.pk,
                        user=users[seat],
                        move=engine.move_to_dict(m),
                        expected_version=None,
                    )
                hand.refresh_from_db()
                if hand.over:
                    break
            ended = time.perf_counter()
            # the worker is a thread of this process: polling more often would take its time
            while not HandReview.objects.filter(hand=hand).exists():
                time.sleep(0.01)
            ready = time.perf_counter() - ended
            HandReview.objects.filter(hand=hand).delete()
            wall, cpu = time.perf_counter(), time.process_time()
            services.hand_review_make(hand_id=hand.pk)
            make = time.perf_counter() - wall, time.process_time() - cpu
            n = hand.moves.count()
            rows.append((n, ready, *make))
            print(
                f"hand {hand.number:3d}: {n:3d} moves  ready {ready * 1000:7.1f} ms"
                f"  make {make[0] * 1000:7.1f} ms wall, {make[1] * 1000:7.1f} ms CPU"
            )
            game = table.game
            game.refresh_from_db()
            assert services.hand_next(table_id=table.pk, expected_version=game.version)

    near = [r for r in rows if 50 <= r[0] <= 70] or rows
    print(
        f"\n{len(rows)} hands, {min(r[0] for r in rows)}-{max(r[0] for r in rows)} moves;"
        f" judging bot: {engine.JUDGE_STRENGTH}"
    )
    for name, subset in (("all hands", rows), ("hands of 50-70 moves", near)):
        ready = [r[1] * 1000 for r in subset]
        make = [r[2] * 1000 for r in subset]
        print(
            f"{name:<22} n={len(subset):3d}  ready p50 {statistics.median(ready):7.1f} ms"
            f"  max {max(ready):7.1f} ms   make p50 {statistics.median(make):7.1f} ms"
            f"  max {max(make):7.1f} ms"
        )


if __name__ == "__main__":
    main()
