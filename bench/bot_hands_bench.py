"""The invariants of tests/engine/bot_hands.py over 1,000 bot-played hands of each of Düz,
Eşli, 101 and Eşli 101 (the test plays 150 of each to keep CI short).

Run from the repository root:  nice .venv/bin/python bench/bot_hands_bench.py [--hands 1000]

After every move: the 106 tiles are all somewhere and none twice, the dict form round-trips, and
in 101 no view (each seat's and a spectator's) shows a tile its seat may not know; at each hand's
end the scores are worked out again from the rules. A broken invariant stops the run with the
variant and the hand. Prints per variant the hands, how they ended, the moves and the CPU time.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine.variants import VARIANTS  # noqa: E402
from tests.engine.bot_hands import play_hand  # noqa: E402


def ending(s) -> str:
    r = s.result
    if r.void:
        return "void"
    return "finish" if r.finisher is not None else "stock out"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=1000)
    args = parser.parse_args()
    for name, v in VARIANTS.items():
        start = time.process_time()
        ends: Counter = Counter()
        moves = 0
        for h in range(args.hands):
            # other seeds than the test's
            s, n = play_hand(v, (1_000_003 * h + 17).to_bytes(32, "big"), h % 4)
            ends[ending(s)] += 1
            moves += n
        cpu = time.process_time() - start
        print(
            f"{name}: {args.hands} hands, {dict(ends)}, {moves} moves, invariants kept, "
            f"{cpu:.0f} s CPU"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
