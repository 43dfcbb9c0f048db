"""How many of a hand's discards its review marks, and why: hands of four normal bots, every
discard judged as if a person had made it (engine.hand_marks).

Run from the repository root (under nice on a shared machine):

    nice -n 19 .venv/bin/python bench/review_marks_bench.py [--hands 40] [--seed 1]

Prints the discards, the marks by kind and by reason, and, for comparison, the rule before
MARKS_VERSION 2 (a mark wherever the judging bot's discard differed, whatever it kept): how many
of those there are and how many kept as many tiles in melds as the player's. Every deal comes
from a seed derived from --seed and the hand's number (as bench/bot_bench.py does).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import RuleOptions, bot_moves, deal, hand_apply, hand_marks  # noqa: E402
from games.engine.moves import Discard  # noqa: E402
from games.engine.rack import rack_strength  # noqa: E402
from games.engine.review import BOT_DISCARD, bot_choice  # noqa: E402


def seed_of(base: int, i: int) -> bytes:
    return hashlib.sha256(repr((base, 2, i)).encode()).digest()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    t0 = time.perf_counter()
    discards, kinds, reasons = 0, Counter(), Counter()
    differed = differed_even = 0
    for i in range(args.hands):
        state = dealt = deal(seed_of(args.seed, i), RuleOptions(), i % 4)
        moves = []
        while state.phase != "over":
            for m in bot_moves(state, state.turn):
                if isinstance(m, Discard):
                    discards += 1
                    # the old rule: the judging bot's discard wherever it differed
                    choice = bot_choice(state, m.seat)
                    if isinstance(choice, Discard) and choice.tile != m.tile:
                        differed += 1
                        rack = list(state.racks[m.seat])
                        mine, theirs = list(rack), list(rack)
                        mine.remove(choice.tile)
                        theirs.remove(m.tile)
                        differed_even += (
                            rack_strength(mine, state.okey)[0]
                            == rack_strength(theirs, state.okey)[0]
                        )
                moves.append(m)
                state = hand_apply(state, m)
        for mark in hand_marks(dealt, moves, judged=range(1, len(moves) + 1)):
            kinds[mark.kind] += 1
            if mark.kind == BOT_DISCARD:
                reasons[mark.reason] += 1
    print(
        f"{args.hands} hands of four normal bots (seed {args.seed}), {discards} discards, "
        f"every one judged: marks {dict(kinds)}; bot_discard by reason {dict(reasons)}; "
        f"{kinds[BOT_DISCARD]} of {discards} discards marked as the bot's better choice "
        f"({kinds[BOT_DISCARD] / max(1, discards):.1%})"
    )
    print(
        f"  the rule before: {differed} of {discards} marked ({differed / max(1, discards):.1%}), "
        f"{differed_even} of them with both keeping as many tiles in melds "
        f"({time.perf_counter() - t0:.0f} s)"
    )


if __name__ == "__main__":
    main()
