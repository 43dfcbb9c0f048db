"""Bot-played hands of every variant keep the invariants (tests/engine/bot_hands.py).

The issue asks for 1,000 hands of each variant: bench/bot_hands_bench.py plays them; here a
share small enough for CI, on other seeds each time a test is added."""

from __future__ import annotations

import pytest

from games.engine.variants import variant
from tests.engine.bot_hands import play_hand

HANDS = {"duz": 150, "esli": 150, "101": 150, "esli101": 150}


@pytest.mark.parametrize("name", sorted(HANDS))
def test_bot_hands_keep_every_invariant(name):
    v = variant(name)
    for h in range(HANDS[name]):
        # views are scanned in one hand of five: they cost the most and change least
        play_hand(v, (7919 * h).to_bytes(32, "big"), h % 4, views=h % 5 == 0)
