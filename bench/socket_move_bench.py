"""The CPU a daphne process spends on one socket move, outside the stack: the move as the
consumer applies it, its event rendered once per language for everyone at the table, and the
players' own parts after it.

Run from the repository root, on PostgreSQL as the site runs:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/okey_bench \
        .venv/bin/python bench/socket_move_bench.py [--moves 1500] [--dump frames.txt] [--profile]

It creates a throwaway test database, seats four users at a Düz table and plays seeded hands
(the same deals every run) the way bench/load.py's players do: draw, then finish when
``engine.finishes`` finds a tile, else discard ``engine.best_discard``. For each move it times, in
this thread's CPU time:
- ``move_submit`` between two ``close_old_connections``, what the socket's database thread runs
  for ``TableConsumer.on_move`` (database_sync_to_async), its publish on commit apart:
- what that publish renders for the move (``games.table.publish.move_messages``): its public
  event once in each of the site's languages, and each changed player's own part once, in the
  player's language (the players' profiles and pages are in --lang);
- for a move that ends the hand (the table changed: each page shows it whole again), the four
  players' full frames, rendered as broadcast renders them where the move ran (one read of the
  table, a frame for each player in their language).
It also reports the bytes (UTF-8, in --lang) each player's socket receives for a move: the
event, plus its own part when it has one, or its full frame at a hand's end. ``--dump`` writes
every frame, to compare two versions of the code byte for byte; ``--profile`` prints the top of
a cProfile of the whole run, in this thread's CPU time (as the figures above are) rather than wall
time, which counts the database's answers as the code waiting for them. CPU time on a shared
machine still varies by tens of percent from minute to minute: compare two versions of the code
by running them alternately.
"""

import argparse
import os
import statistics
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
# fixed deals: honoured only under pytest or DEBUG (the services.seeds), so say it is a test
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


def bytes_line(name, values):
    values = sorted(values)
    print(
        f"{name:<40} n={len(values):5d}  p50 {values[len(values) // 2]:6d} B"
        f"  p95 {values[min(len(values) - 1, int(len(values) * 0.95))]:6d} B"
        f"  mean {statistics.mean(values):8.0f} B"
    )


@contextmanager
def statements_count(on):
    """[statements, round trips] that the block sends to the database (when ``on``): statements
    as Django runs them, round trips as psycopg waits for answers (its BEGIN and COMMIT too)."""
    counted = [0, 0]
    if not on:
        yield counted
        return
    from django.db import connection

    def wrapper(execute, sql, params, many, context):
        counted[0] += 1
        return execute(sql, params, many, context)

    _counting[:] = [counted]
    with connection.execute_wrapper(wrapper):
        yield counted
    _counting.clear()


_counting = []


def round_trips_count():
    """Count psycopg's waits for the server's answers into ``statements_count``'s block (a
    bench's look inside psycopg: its generators, one call per round trip)."""
    import psycopg._cursor_base
    import psycopg.generators

    def counting(execute):
        def wrapped(pgconn, *args, **kwargs):
            if _counting:
                _counting[0][1] += 1
            return execute(pgconn, *args, **kwargs)

        return wrapped

    psycopg.generators.execute = counting(psycopg.generators.execute)
    psycopg._cursor_base.execute = counting(psycopg._cursor_base.execute)


def backend_cpu():
    """(pid, CPU seconds) of this connection's PostgreSQL backend, from /proc (the server runs
    on this machine): what the database spends on the run's statements."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return pid, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=1500)
    parser.add_argument("--lang", default="en", help="the language whose bytes are counted")
    parser.add_argument("--dump", help="write every frame to this file")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--game", choices=("duz", "101"), default="duz", help="101: its moves are the normal bot's"
    )
    parser.add_argument(
        "--count", action="store_true", help="count move_submit's statements and round trips"
    )
    parser.add_argument("--sort", default="cumulative", help="the profile's order (pstats)")
    parser.add_argument("--top", type=int, default=45, help="the profile's lines")
    args = parser.parse_args()

    from benchdb import bench_database, bench_django, table_of_four

    bench_django(OKEY_TEST_SEED_HEX=os.environ["OKEY_TEST_SEED_HEX"])
    from django.db import close_old_connections

    from games.models import Game, Hand
    from games.table import moves as move_service
    from games.table.bots import bot_turn_moves
    from games.table.lifecycle import hand_next
    from games.table.moves import move_submit
    from games.table.publish import move_event, move_messages, table_changed_messages
    from games.table.render import languages
    from games.table.socket import TableConsumer

    # The move's publish (on commit) is timed apart, as rendering: the bench has no channel
    # layer to send to, and the move's own CPU is what the lock is held for.
    committed = []
    move_service.move_publish = committed.append
    if args.count:
        round_trips_count()
    statements = []

    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile(time.thread_time)
    with bench_database(), open(args.dump or os.devnull, "w") as dump:
        out = dump if args.dump else None
        options = {"variant": "101", "hand_limit": 21} if args.game == "101" else None
        users, table = table_of_four(options, lang=args.lang)
        rules = table.engine_variant
        sockets = []
        for user in users:
            socket = TableConsumer()
            socket.table_id, socket.user, socket.lang = table.pk, user, args.lang
            socket.chat_hidden = frozenset()  # as the socket starts: no one blocked
            sockets.append(socket)
        for socket in sockets:  # as each socket does when it connects
            socket.frame_render(chat=True)
        seat_of = {u.pk: i for i, u in enumerate(users)}

        def renders(outcome):
            """{seat: html in --lang} of what the sockets receive after the move, rendered as
            its publish renders it: the event (for every seat) in every language, the own parts
            in their players' language (--lang)."""
            ((_group, message),) = move_messages(move_event(outcome))
            own = {seat_of[m["own"]["user_id"]]: m["html"] for m in message["own"]}
            return message["html"][args.lang], own

        backend = backend_cpu() if args.count else None
        applied, rendered, ended, whole = [], [], [], []
        viewer_bytes, move_bytes, event_bytes, own_bytes = [], [], [], []
        moves = 0
        while moves < args.moves:
            game = Game.objects.get(table=table)
            hand = Hand.objects.filter(game=game).order_by("-number").first()
            state = rules.hand_from_dict(hand.state)
            if game.status != Game.Status.PLAYING:
                break
            if state.phase == "over":
                hand_next(table_id=table.pk, expected_version=game.version)
                continue
            seat = state.turn
            if args.game == "101":  # the normal bot's turn, a move at a time
                played = bot_turn_moves(table, state, seat, "normal")[0]
                move = {k: v for k, v in rules.move_to_dict(played).items() if k != "seat"}
            else:
                move = move_choose(state, seat)
            if profiler:  # only what is timed
                profiler.enable()
            t0 = time.thread_time()
            close_old_connections()  # before and after, as channels' DatabaseSyncToAsync does
            with statements_count(args.count) as counted:
                outcome = move_submit(
                    table_id=table.pk, user=users[seat], move=move, expected_version=game.version,
                    idempotency_key=uuid.uuid4().hex,
                )  # fmt: skip
            close_old_connections()
            t1 = time.thread_time()
            if not outcome.hand_over:
                public, own = renders(outcome)
                frames = [public + own.get(i, "") for i in range(len(sockets))]
            else:  # the hand's end: each player's whole table, rendered as its publish does
                changed, *framed = table_changed_messages(table.pk, outcome.version)
                frames = [m["html"] for _group, m in framed]
            t2 = time.thread_time()
            if profiler:
                profiler.disable()
            if args.count and not outcome.hand_over:
                statements.append((counted[0], counted[1]))
            applied.append(t1 - t0)
            whole.append(t2 - t0)
            (ended if outcome.hand_over else rendered).append(t2 - t1)
            sizes = [len(html.encode()) for html in frames]
            viewer_bytes += sizes
            move_bytes.append(sum(sizes))
            if not outcome.hand_over:
                event_bytes.append(len(public.encode()))
                own_bytes += [len(html.encode()) for html in own.values()]
            moves += 1
            if out:
                for i, html in enumerate(frames):
                    out.write(f"--- move {moves} seat {i} version {outcome.version}\n")
                    out.write(" ".join(html.split()) + "\n")
        if not moves:
            return
        langs = len(languages())
        line("move_submit, CPU", applied)
        if rendered:
            line(f"event and own parts, {langs} languages, CPU", rendered)
        line("the move and its renders, CPU", whole)
        print(f"moves that ended a hand (four full frames instead): {len(ended)} of {moves}")
        if ended:
            line("four full frames at a hand's end, CPU", ended)
        if backend is not None:
            spent = backend_cpu()[1] - backend[1]
            print(
                f"PostgreSQL's backend CPU (this connection): {spent * 1000 / moves:.3f} ms a move"
            )
        if statements:
            n = len(statements)
            print(
                f"move_submit (not a hand's end): {sum(s for s, _ in statements) / n:.2f} queries sent,"
                f" {sum(t for _, t in statements) / n:.2f} round trips a move"
                " (BEGIN and COMMIT included)"
            )
        bytes_line(f"bytes a player receives a move ({args.lang})", viewer_bytes)
        bytes_line("bytes of a move, four players", move_bytes)
        if event_bytes:
            bytes_line("the event (one language)", event_bytes)
        if own_bytes:
            bytes_line("an own part (one language)", own_bytes)
        if profiler:
            import pstats

            pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
