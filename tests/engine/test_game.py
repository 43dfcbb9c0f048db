import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    GameState,
    HandResult,
    IllegalMove,
    TableOptions,
    game_apply_hand,
    game_from_dict,
    game_new,
    game_places,
    game_rating_points,
    game_rating_whole,
    game_to_dict,
    team_totals,
)

VOID = HandResult(void=True, deltas=(0, 0, 0, 0))


def won(finisher, v=2, n=4, esli=False):
    deltas = [v] * n
    deltas[finisher] = -v
    if esli:
        deltas[(finisher + 2) % 4] = -v
    return HandResult(void=False, finisher=finisher, kind="normal", value=v, deltas=tuple(deltas))


def test_new_game():
    g = game_new(TableOptions(start_count=15), 2)
    assert g.counts == (15, 15, 15, 15) and g.next_first_seat == 2
    assert g.hands_played == 0 and not g.over
    with pytest.raises(ValueError):
        game_new(TableOptions(seats=2), 2)


def test_a_hand_adds_its_deltas_and_the_next_seat_starts():
    g = game_apply_hand(game_new(TableOptions(), 3), won(1, 4))
    assert g.counts == (24, 16, 24, 24)
    assert g.hands_played == 1 and g.next_first_seat == 0
    assert len(g.history) == 1


def test_void_hand_changes_nothing_and_the_same_player_starts_again():
    g = game_new(TableOptions(hand_limit=1), 1)
    v = game_apply_hand(g, VOID)
    assert v.counts == g.counts and v.hands_played == 0 and v.next_first_seat == 1
    assert not v.over and v.history == (VOID,)


def test_game_ends_at_the_hand_limit():
    g = game_new(TableOptions(hand_limit=3), 0)
    for k in range(3):
        assert not g.over
        g = game_apply_hand(g, won(k % 4))
        g = game_apply_hand(g, VOID) if not g.over else g
    assert g.over and g.hands_played == 3
    with pytest.raises(IllegalMove) as e:
        game_apply_hand(g, won(0))
    assert e.value.code == "game_over"


def test_game_ends_when_a_count_reaches_zero():
    g = game_new(TableOptions(start_count=5), 0)
    g = game_apply_hand(g, won(0, 4))
    assert g.counts[0] == 1 and not g.over
    g = game_apply_hand(g, won(0, 2))
    assert g.counts[0] == -1 and g.over


def test_game_ends_at_exactly_zero():
    g = game_apply_hand(game_new(TableOptions(start_count=8), 0), won(0, 8))
    assert g.counts[0] == 0 and g.over


def test_places_share_ties():
    g = GameState(TableOptions(), 4, counts=(10, 30, 10, 20), hands_played=8)
    assert game_places(g) == (1, 4, 1, 3)


@pytest.mark.parametrize(
    "counts, points",
    [
        ((10, 20, 30, 40), (16, 8, -8, -16)),
        ((40, 30, 20, 10), (-16, -8, 8, 16)),
        ((10, 10, 30, 40), (12, 12, -8, -16)),
        ((10, 20, 20, 40), (16, 0, 0, -16)),
        ((10, 10, 10, 40), (16 / 3, 16 / 3, 16 / 3, -16)),
        ((10, 10, 10, 10), (0, 0, 0, 0)),
    ],
)
def test_duz_rating_four_players(counts, points):
    g = GameState(TableOptions(), 4, counts=counts, hands_played=8, over=True)
    assert game_rating_points(g) == pytest.approx(points)


def test_duz_rating_three_and_two_players():
    g3 = GameState(TableOptions(seats=3), 3, counts=(30, 10, 20), hands_played=5)
    assert game_rating_points(g3) == (-5, 5, 0)
    g3t = GameState(TableOptions(seats=3), 3, counts=(10, 10, 20), hands_played=5)
    assert game_rating_points(g3t) == (2.5, 2.5, -5)
    g2 = GameState(TableOptions(seats=2), 2, counts=(25, 18), hands_played=3)
    assert game_rating_points(g2) == (-3, 3)
    g2t = GameState(TableOptions(seats=2), 2, counts=(25, 25), hands_played=3)
    assert game_rating_points(g2t) == (0, 0)


def test_esli_teams():
    o = TableOptions(mode="esli")
    g = game_new(o, 0)
    g = game_apply_hand(g, won(1, 4, esli=True))
    assert g.counts == (24, 16, 24, 16)
    assert team_totals(g) == (48, 32)
    assert game_places(g) == (2, 1, 2, 1)
    assert game_rating_points(g) == (-1, 1, -1, 1)
    tie = GameState(o, 4, counts=(10, 20, 20, 10), hands_played=6)
    assert game_rating_points(tie) == (0, 0, 0, 0) and game_places(tie) == (1, 1, 1, 1)
    with pytest.raises(ValueError):
        team_totals(game_new(TableOptions(), 0))


def test_rating_uses_counted_hands_only():
    g = game_new(TableOptions(mode="esli", hand_limit=2), 0)
    for r in (won(0, 2, esli=True), VOID, won(0, 2, esli=True)):
        g = game_apply_hand(g, r)
    assert g.over and g.hands_played == 2
    assert game_rating_points(g) == (2, -2, 2, -2)


def test_game_dict_round_trip():
    g = game_new(TableOptions(seats=3), 1)
    g = game_apply_hand(g, HandResult(void=True, deltas=(0, 0, 0)))
    g = game_apply_hand(g, won(2, 4, n=3))
    d = json.loads(json.dumps(game_to_dict(g)))
    assert game_from_dict(d) == g


@pytest.mark.parametrize(
    "n, counts, hands, whole",
    [
        (4, (18, 22, 22, 22), 1, (2, 0, -1, -1)),  # three-way tie: -2/3 each
        (4, (18, 22, 22, 22), 2, (4, -1, -1, -2)),  # -4/3 each
        (4, (10, 10, 10, 40), 1, (1, 1, 0, -2)),  # 2/3 each
        (3, (10, 10, 20), 5, (3, 2, -5)),  # 2.5 each
        (4, (10, 20, 30, 40), 3, (6, 3, -3, -6)),
    ],
)
def test_whole_rating_points_sum_to_zero(n, counts, hands, whole):
    g = GameState(TableOptions(seats=n), n, counts=counts, hands_played=hands, over=True)
    assert game_rating_whole(g) == whole


@given(
    n=st.sampled_from([2, 3, 4]),
    esli=st.booleans(),
    hands=st.integers(1, 50),
    # counts from a narrow range, so that two-, three- and four-way ties are common
    counts=st.lists(st.integers(-5, 3), min_size=4, max_size=4),
)
def test_whole_rating_points_always_sum_to_zero_and_stay_near_the_exact_share(
    n, esli, hands, counts
):
    options = TableOptions(mode="esli") if esli else TableOptions(seats=n)
    n = options.seats
    g = GameState(options, n, counts=tuple(counts[:n]), hands_played=hands, over=True)
    exact = game_rating_points(g)
    whole = game_rating_whole(g)
    assert sum(whole) == 0 and all(isinstance(p, int) for p in whole)
    assert all(abs(w - e) < 1 for w, e in zip(whole, exact, strict=True))
    # a better place never gets fewer points than a worse one
    places = game_places(g)
    for i in range(n):
        for j in range(n):
            if places[i] < places[j]:
                assert whole[i] >= whole[j]
    if len(set(places)) == 1:
        assert whole == (0,) * n
