"""How long a player waits for a hand's review when they first open it.

Run from the repository root (SQLite by default; DATABASE_URL for PostgreSQL):
    .venv/bin/python bench/review_bench.py [--hands 20] [--seed 1]

It creates a throwaway test database, seats four people at a table (so the judging bot is asked
on every discard: the most work a review can take) and plays seeded hands through
games.table.moves.move_submit, each seat choosing its moves as the normal bot or the easy bot
does. No review is made when a hand ends: the review page makes it when it is first opened
(games.review.services.hand_review_make). For each hand it prints its number of moves and that
first opening's work (the replay from the seed, the marks, the write), in wall and CPU time,
with the engine's memo tables as cold as the hand leaves them; then the same again on a warm
process (the review deleted and made once more). The issue's target: a hand of 60 moves ready
within 2 s. Wall times on a shared machine: run it twice and read the better numbers.
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


def timed(fn) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from benchdb import bench_database, bench_django, table_of_four

    bench_django()
    from games import engine
    from games.models import Hand, HandReview
    from games.review.services import hand_review_make
    from games.table import moves as move_service
    from games.table.lifecycle import hand_next
    from games.table.moves import move_submit

    move_service.move_publish = lambda outcome: None  # nobody listens

    rows = []
    with bench_database():
        users, table = table_of_four({"hand_limit": 50})
        rng = random.Random(args.seed)
        for _ in range(args.hands):
            hand = Hand.objects.filter(game__table=table).order_by("-number").first()
            while not hand.over:
                state = engine.hand_from_dict(hand.state)
                seat = state.turn
                for m in engine.bot_moves(state, seat, rng.choice(["normal", "easy"])):
                    move_submit(
                        table_id=table.pk,
                        user=users[seat],
                        move=engine.move_to_dict(m),
                        expected_version=None,
                    )
                hand.refresh_from_db()
            first = timed(lambda h=hand: hand_review_make(hand_id=h.pk))
            HandReview.objects.filter(hand=hand).delete()
            again = timed(lambda h=hand: hand_review_make(hand_id=h.pk))
            n = hand.moves.count()
            rows.append((n, *first, *again))
            print(
                f"hand {hand.number:3d}: {n:3d} moves  first opening {first[0] * 1000:7.1f} ms"
                f" wall, {first[1] * 1000:7.1f} ms CPU;  again {again[0] * 1000:7.1f} ms wall"
            )
            game = table.game
            game.refresh_from_db()
            assert hand_next(table_id=table.pk, expected_version=game.version)

    near = [r for r in rows if 50 <= r[0] <= 70] or rows
    print(
        f"\n{len(rows)} hands, {min(r[0] for r in rows)}-{max(r[0] for r in rows)} moves;"
        f" judging bot: {engine.JUDGE_STRENGTH}"
    )
    for name, subset in (("all hands", rows), ("hands of 50-70 moves", near)):
        first = [r[1] * 1000 for r in subset]
        print(
            f"{name:<22} n={len(subset):3d}  first opening p50 {statistics.median(first):7.1f} ms"
            f"  max {max(first):7.1f} ms wall"
        )


if __name__ == "__main__":
    main()
