"""Bot-played hands of every variant keep the invariants (tests/engine/bot_hands.py).

The issue asks for 1,000 hands of each variant: bench/bot_hands_bench.py plays them; here a
share small enough for CI (60 a variant, a fifth of them with every view checked too: 150 took
23 s of the suite), on other seeds each time a test is added."""

from __future__ import annotations

import pytest

from games.engine.variants import variant
from tests.engine.bot_hands import play_hand

HANDS = {"duz": 60, "esli": 60, "101": 60, "esli101": 60}


@pytest.mark.parametrize("name", sorted(HANDS))
def test_bot_hands_keep_every_invariant(name):
    v = variant(name)
    for h in range(HANDS[name]):
        # views are scanned in one hand of five: they cost the most and change least
        play_hand(v, (7919 * h).to_bytes(32, "big"), h % 4, views=h % 5 == 0)
