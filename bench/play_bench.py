"""How long a move takes on the server, and how long each socket's view takes to render.

Run from the repository root:
    .venv/bin/python bench/play_bench.py [--hands 20]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/okey_bench .venv/bin/python bench/play_bench.py

It creates a throwaway test database (SQLite file, or `test_<name>` on PostgreSQL), plays random
four-player hands through games.services.move_submit, and times:
- move_submit: one whole service call (lock, version check, engine, save, move log), in wall
  time and in this process's CPU time (what a daphne process spends on it: the ORM, the engine);
- the frame a socket sends after each move, for the player to move next and for a spectator:
  selectors.table_view plus the template partial (what TableConsumer.frame_render does), once
  with the table read from the database and once from the process's shared snapshot (what every
  socket but the first does after a move, games.snapshots).
Broadcasts go to an in-memory channel layer. Timing is wall time on a shared machine: run it
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


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] * 1000


def line(name, values):
    print(
        f"{name:<34} n={len(values):5d}  p50 {pct(values, 0.5):6.1f} ms"
        f"  p95 {pct(values, 0.95):6.1f} ms  mean {statistics.mean(values) * 1000:6.1f} ms"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=20)
    args = parser.parse_args()

    from benchdb import bench_database, bench_django, table_of_four

    bench_django()
    from django.template.loader import render_to_string

    from games import engine, selectors, services
    from games.models import Hand, Table
    from games.snapshots import snapshot_get
    from tests.games.helpers import random_move

    with bench_database():
        users, table = table_of_four()
        rng = random.Random(1)
        submit, render_player, render_spectator = [], [], []
        from_snapshot, submit_cpu, four = [], [], []
        from django.contrib.auth.models import AnonymousUser

        for _ in range(args.hands):
            while True:
                hand = Hand.objects.filter(game__table=table).order_by("-number").first()
                state = engine.hand_from_dict(hand.state)
                if state.phase == "over":
                    break
                version = Table.objects.get(pk=table.pk).game.version
                t0, c0 = time.perf_counter(), time.process_time()
                services.move_submit(
                    table_id=table.pk,
                    user=users[state.turn],
                    move=random_move(state, rng),
                    expected_version=version,
                )
                submit.append(time.perf_counter() - t0)
                submit_cpu.append(time.process_time() - c0)
                # what the four players' sockets do after a move: the snapshot the move left
                # (games.snapshots), each player's view and frame (seats cached across them)
                moved = Table.objects.select_related("game").get(pk=table.pk).game.version
                t0 = time.process_time()
                for viewer in users:
                    snap = snapshot_get(table.pk, moved)
                    ctx = selectors.table_view(snap, viewer, chat=False)
                    render_to_string("games/table.html#frame", ctx)
                four.append(time.process_time() - t0)
                fresh = Table.objects.select_related("game").get(pk=table.pk)
                nxt = engine.hand_from_dict(Hand.objects.get(pk=hand.pk).state).turn
                for viewer, out in (
                    (users[nxt], render_player),
                    (AnonymousUser(), render_spectator),
                ):
                    t0 = time.perf_counter()
                    ctx = selectors.table_view(fresh, viewer)
                    render_to_string("games/table.html#frame", ctx)
                    out.append(time.perf_counter() - t0)
                    snap = selectors.table_snapshot(fresh)
                    t0 = time.perf_counter()
                    ctx = selectors.table_view(snap, viewer, chat=False)
                    render_to_string("games/table.html#frame", ctx)
                    from_snapshot.append(time.perf_counter() - t0)
            game = Table.objects.get(pk=table.pk).game
            services.hand_next(table_id=table.pk, expected_version=game.version)
        line("move_submit", submit)
        line("move_submit, CPU of this process", submit_cpu)
        line("frame render, player to move", render_player)
        line("frame render, spectator", render_spectator)
        line("frame from the shared snapshot", from_snapshot)
        line("four players' frames after a move, CPU", four)


if __name__ == "__main__":
    main()
