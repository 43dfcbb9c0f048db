"""How long a move takes on the server, what it renders for the sockets, and how long a full
frame takes to render.

Run from the repository root:
    .venv/bin/python bench/play_bench.py [--hands 20]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/okey_bench .venv/bin/python bench/play_bench.py

It creates a throwaway test database (SQLite file, or `test_<name>` on PostgreSQL), plays random
four-player hands through games.services.move_submit, and times:
- move_submit: one whole service call (lock, version check, engine, save, move log), in wall
  time and in this process's CPU time (what a daphne process spends on it: the ORM, the engine),
  with the move's broadcast held;
- what the move's commit renders for the sockets (games.broadcast.event_messages): its public
  event once in each of the site's languages, and each changed player's own part once, in the
  player's language (the players' is --lang), in CPU time; and the bytes they come to (--lang)
  for each player, and for the four;
- a full frame (what TableConsumer.frame_render does on a connect, a sync with a stale version
  or after a change of the table's life: selectors.table_rows, table_view and
  render.frame_full), for the player to move next and for a spectator.
Nothing listens on the in-memory channel layer. Timing is wall time on a shared machine: run it
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
        f"{name:<40} n={len(values):5d}  p50 {pct(values, 0.5):6.1f} ms"
        f"  p95 {pct(values, 0.95):6.1f} ms  mean {statistics.mean(values) * 1000:6.1f} ms"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--lang", default="en", help="the language whose bytes are counted")
    args = parser.parse_args()

    from benchdb import bench_database, bench_django, table_of_four

    bench_django()
    from django.contrib.auth.models import AnonymousUser
    from django.utils import translation

    from games import broadcast, engine, render, selectors, services
    from games.events import MoveEvent
    from games.models import Hand, Table
    from tests.games.helpers import random_move

    broadcast.event_publish = lambda event: None  # rendered below, where it is timed

    def frame_full(viewer):
        rows = selectors.table_rows(table.pk)
        with translation.override(args.lang):
            return render.frame_full(selectors.table_view(rows, viewer))

    with bench_database():
        users, table = table_of_four(lang=args.lang)
        seat_of = {u.pk: i for i, u in enumerate(users)}
        rng = random.Random(1)
        submit, submit_cpu, renders, render_player, render_spectator = [], [], [], [], []
        viewer_bytes, move_bytes = [], []

        for _ in range(args.hands):
            while True:
                hand = Hand.objects.filter(game__table=table).order_by("-number").first()
                state = engine.hand_from_dict(hand.state)
                if state.phase == "over":
                    break
                version = Table.objects.get(pk=table.pk).game.version
                t0, c0 = time.perf_counter(), time.process_time()
                outcome = services.move_submit(
                    table_id=table.pk,
                    user=users[state.turn],
                    move=random_move(state, rng),
                    expected_version=version,
                )
                submit.append(time.perf_counter() - t0)
                submit_cpu.append(time.process_time() - c0)
                event = outcome.event
                if isinstance(event, MoveEvent):
                    # what the move renders (games.broadcast.event_messages): its event in
                    # every language, each changed player's own part in theirs (--lang)
                    t0 = time.process_time()
                    messages = [m for _group, m in broadcast.event_messages(event)]
                    renders.append(time.process_time() - t0)
                    public = messages[0]["html"]
                    own = {seat_of[m["own"]["user_id"]]: m["html"][args.lang] for m in messages[1:]}
                    sizes = [
                        len((public[args.lang] + own.get(i, "")).encode())
                        for i in range(len(users))
                    ]
                    viewer_bytes += sizes
                    move_bytes.append(sum(sizes))
                nxt = engine.hand_from_dict(Hand.objects.get(pk=hand.pk).state).turn
                for viewer, out in (
                    (users[nxt], render_player),
                    (AnonymousUser(), render_spectator),
                ):
                    t0 = time.perf_counter()
                    frame_full(viewer)
                    out.append(time.perf_counter() - t0)
            game = Table.objects.get(pk=table.pk).game
            services.hand_next(table_id=table.pk, expected_version=game.version)
        line("move_submit", submit)
        line("move_submit, CPU of this process", submit_cpu)
        line("event (every language) and own parts, CPU", renders)
        line("full frame, player to move", render_player)
        line("full frame, spectator", render_spectator)
        for name, values in (
            (f"bytes a player receives a move ({args.lang})", viewer_bytes),
            ("bytes of a move, four players", move_bytes),
        ):
            values = sorted(values)
            print(
                f"{name:<40} n={len(values):5d}  p50 {values[len(values) // 2]:6d} B"
                f"  p95 {values[min(len(values) - 1, int(len(values) * 0.95))]:6d} B"
            )


if __name__ == "__main__":
    main()
