"""The CPU a daphne process spends on one socket move, outside the stack: the move as the
consumer applies it, and the four frames its players' sockets then build.

Run from the repository root, on PostgreSQL as the site runs:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/okey_bench \
        .venv/bin/python bench/socket_move_bench.py [--moves 1500] [--dump frames.txt] [--profile]

It creates a throwaway test database, seats four users at a Düz table and plays seeded hands
(the same deals every run) the way bench/load.py's players do: draw, then finish when
``engine.finishes`` finds a tile, else discard ``engine.best_discard``. For each move it times, in
this thread's CPU time:
- ``TableConsumer.move_apply`` (``move_submit`` with its broadcasts held, and the snapshot it
  leaves on commit) between two ``close_old_connections``, what a database thread of daphne
  runs (channels' DatabaseSyncToAsync);
- the four players' frames, each built as ``TableConsumer.board_render`` builds it: from the
  stored snapshot in the event loop when no query is needed, else through ``frame_render``.
``--dump`` writes every frame, to compare two versions of the code byte for byte; ``--profile``
prints the top of a cProfile of the whole run, in this thread's CPU time (as the figures above
are) rather than wall time, which counts the database's answers as the code waiting for them.
CPU time on a shared machine still varies by tens of percent from minute to minute: compare two
versions of the code by running them alternately.
"""

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
# fixed deals: honoured only under pytest or DEBUG (games.services.seeds), so say it is a test
os.environ["PYTEST_CURRENT_TEST"] = "bench/socket_move_bench.py"
os.environ.setdefault("OKEY_TEST_SEED_HEX", "5a" * 32)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] * 1000


def line(name, values):
    print(
        f"{name:<40} n={len(values):5d}  p50 {pct(values, 0.5):6.3f} ms"
        f"  p95 {pct(values, 0.95):6.3f} ms  mean {statistics.mean(values) * 1000:6.3f} ms"
    )


def move_choose(state, seat):
    """What a bench/load.py player sends: draw, then finish or the engine's best discard."""
    from games import engine

    if state.phase == "draw":
        return {"kind": "draw"}
    rack = list(state.racks[seat])
    done = engine.finishes(rack, state.okey) if len(rack) == 15 else {}
    if done:
        return {"kind": "finish", "tile": engine.format_tile(min(done.items())[0])}
    return {"kind": "discard", "tile": engine.format_tile(engine.best_discard(rack, state.okey))}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=1500)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--dump", help="write every frame to this file")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--sort", default="cumulative", help="the profile's order (pstats)")
    parser.add_argument("--top", type=int, default=45, help="the profile's lines")
    args = parser.parse_args()

    from benchdb import bench_database, bench_django, table_of_four

    bench_django(OKEY_TEST_SEED_HEX=os.environ["OKEY_TEST_SEED_HEX"])
    from django.db import close_old_connections

    from games import engine, selectors, services
    from games.consumers import TableConsumer
    from games.models import Game, Hand
    from games.snapshots import snapshot_cached, snapshots_clear

    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile(time.thread_time)
    with bench_database(), open(args.dump or os.devnull, "w") as dump:
        out = dump if args.dump else None
        users, table = table_of_four()
        sockets = []
        for user in users:
            socket = TableConsumer()
            socket.table_id, socket.user, socket.lang = table.pk, user, args.lang
            sockets.append(socket)
        snapshots_clear()
        for socket in sockets:  # as each socket does when it connects
            socket.frame_render(chat=True)

        def frames_build(version, mover):
            """The four frames after a move, as TableConsumer.board_render builds them."""
            frames = []
            for i, socket in enumerate(sockets):
                message = "" if i == mover else None
                snap = snapshot_cached(table.pk, version)
                if snap is not None and not selectors.view_reads_rows(snap, socket.user):
                    frames.append(socket.frame_build(snap, message=message))
                else:
                    frames.append(socket.frame_render(at_least=version, message=message))
            return frames

        applied, built, built_reading, reads = [], [], [], 0
        moves = 0
        while moves < args.moves:
            game = Game.objects.get(table=table)
            hand = Hand.objects.filter(game=game).order_by("-number").first()
            state = engine.hand_from_dict(hand.state)
            if game.status != Game.Status.PLAYING:
                break
            if state.phase == "over":
                services.hand_next(table_id=table.pk, expected_version=game.version)
                continue
            seat = state.turn
            move = move_choose(state, seat)
            if profiler:  # only what is timed
                profiler.enable()
            t0 = time.thread_time()
            close_old_connections()  # before and after, as channels' DatabaseSyncToAsync does
            outcome, _held = sockets[seat].move_apply(move, game.version, uuid.uuid4().hex)
            close_old_connections()
            t1 = time.thread_time()
            read = snapshot_cached(table.pk, outcome.version) is None
            reads += read
            frames = frames_build(outcome.version, seat)
            t2 = time.thread_time()
            if profiler:
                profiler.disable()
            applied.append(t1 - t0)
            built.append(t2 - t1)
            if read:
                built_reading.append(t2 - t1)
            moves += 1
            if out:
                for i, (version, html) in enumerate(frames):
                    out.write(f"--- move {moves} seat {i} version {version}\n")
                    out.write(" ".join(html.split()) + "\n")
        if not moves:
            return
        line("move_apply (move_submit), CPU", applied)
        line("four frames after the move, CPU", built)
        line("the move and its frames, CPU", [a + b for a, b in zip(applied, built, strict=True)])
        print(f"moves whose frames read the table again: {reads} of {moves}")
        # a hand's end (its scores and result), and the first move after a deal that this
        # script made outside any socket
        if built_reading:
            line("four frames that read the table, CPU", built_reading)
        if profiler:
            import pstats

            pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
