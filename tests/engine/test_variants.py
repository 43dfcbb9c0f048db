"""The variant seam: one interface for Düz, Eşli, 101 and Eşli 101, with Düz and Eşli the
engine's own functions, unchanged."""

from __future__ import annotations

import json

import pytest

import games.engine as e
from games.engine.okey101.options import Options101
from games.engine.okey101.state import Result101
from games.engine.options import OptionError
from tests.engine.test_pure import run_pure

SEED = bytes(range(32))


def test_every_variant_by_name():
    assert sorted(e.VARIANTS) == ["101", "duz", "esli", "esli101"]
    with pytest.raises(ValueError):
        e.variant("okey")


def test_duz_and_esli_are_the_engines_own_functions():
    for name in ("duz", "esli"):
        v = e.variant(name)
        assert v.deal is e.deal and v.apply is e.hand_apply and v.view is e.hand_view
        assert v.hand_to_dict is e.hand_to_dict and v.bot_moves is e.bot_moves
        assert v.make_options().mode == name


@pytest.mark.parametrize("name", sorted(e.VARIANTS))
def test_a_hand_through_the_interface(name):
    v = e.variant(name)
    opts = v.make_options()
    s = v.deal(SEED, opts, 1)
    assert e.variant_of(s) is v
    for _ in range(12):
        for move in v.auto_moves(s, s.turn):
            s = v.apply(s, v.move_from_dict(v.move_to_dict(move)))
        assert v.hand_from_dict(json.loads(json.dumps(v.hand_to_dict(s)))) == s
        json.dumps(v.view(s, 0))
    assert v.options_from_dict(opts.to_dict()) == opts


def test_101_options_are_checked():
    with pytest.raises(OptionError):
        Options101(esli=True, seats=3)
    with pytest.raises(OptionError):
        Options101.from_dict({"game": "101", "colour_doubling": True})
    assert e.variant("esli101").make_options().esli


SCRIPT = r"""
import sys
sys.modules["django"] = None
import games.engine as e
v = e.variant("101")
s = v.deal(bytes(range(32)), v.make_options(), 0)
while not s.over:
    for m in v.bot_moves(s, s.turn, "normal"):
        s = v.apply(s, m)
assert not any(n == "django" or n.startswith("django.") for n in sys.modules if sys.modules[n])
print("pure ok")
"""


def test_101_plays_with_django_unimportable():
    run_pure(SCRIPT)


def test_a_101_game_counts_hands_and_rates_by_place():
    v = e.variant("101")
    game = v.game_new(v.make_options(hand_limit=2), 3)
    void = Result101(True, scores=(0, 0, 0, 0))
    game = v.game_apply_hand(game, void)
    assert game.hands_played == 0 and game.next_first_seat == 3
    game = v.game_apply_hand(game, Result101(False, 3, None, 1, (14, 202, 26, -101)))
    game = v.game_apply_hand(game, Result101(False, 0, None, 1, (-101, 202, 26, 14)))
    assert game.over and game.totals == (-87, 404, 52, -87)
    assert v.game_places(game) == (1, 4, 3, 1)
    assert v.game_rating_whole(game) == (3, -4, -2, 3)  # H = 2: +4 and +2 shared, -2, -4
    esli = e.variant("esli101")
    g = esli.game_apply_hand(esli.game_new(esli.make_options(hand_limit=1), 0), game.history[1])
    # teams 14 + 26 against 202 - 101: seats 0 and 2 win
    assert esli.game_places(g) == (1, 2, 1, 2) and esli.game_rating_whole(g) == (1, -1, 1, -1)


@pytest.mark.parametrize("name", sorted(e.VARIANTS))
def test_a_hand_replays_and_verifies_from_its_seed(name):
    v = e.variant(name)
    opts = v.make_options()
    s = v.deal(SEED, opts, 0)
    assert v.verify_deal(SEED, e.commitment(SEED), s)
    played = []
    for _ in range(10):
        for move in v.auto_moves(s, s.turn):
            played.append(v.move_to_dict(move))
            s = v.apply(s, move)
    assert v.replay(SEED, opts, 0, played) == s
    assert v.verify_deal(SEED, e.commitment(SEED), s, played)
    assert v.verify_deal(SEED, e.commitment(SEED), s)
    # another seed, or a move left out, is caught
    assert not v.verify_deal(bytes(32), e.commitment(bytes(32)), s, played)
    assert not v.verify_deal(SEED, e.commitment(SEED), s, played[:-1])
    assert not v.verify_deal(SEED, "00" * 32, s)


@pytest.mark.parametrize("name", sorted(e.VARIANTS))
def test_a_void_hand_scores_nothing_and_its_game_round_trips(name):
    v = e.variant(name)
    opts = v.make_options()
    s = v.deal(SEED, opts, 2)
    for move in v.auto_moves(s, s.turn):
        s = v.apply(s, move)
    void = v.hand_void(s)
    assert void.phase == "over" and void.result.void and void.seq == s.seq
    assert void.racks == s.racks and void.stock == s.stock
    with pytest.raises(e.IllegalMove):
        v.hand_void(void)
    assert v.result_from_dict(json.loads(json.dumps(v.result_to_dict(void.result)))) == void.result
    g = v.game_apply_hand(v.game_new(opts, 2), void.result)
    assert g.hands_played == 0 and g.next_first_seat == 2  # a void hand does not count
    assert v.game_from_dict(json.loads(json.dumps(v.game_to_dict(g)))) == g
    assert (v.team_totals is not None) == name.startswith("esli")
