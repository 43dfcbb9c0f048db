"""An arena's points from a game's stored results: by place, the Eşli pairs, the streak's
double, leavers, draws."""

from games.arena.points import game_outcomes, outcome_score


def duz(places, left=()):
    r = {"places": places, "players": [{"user": 10 + i, "bot": False} for i in range(4)]}
    if left:
        r["left"] = list(left)
    return r


def test_duz_places_score_4_2_1_0():
    out = {o.user_id: o for o in game_outcomes(duz([2, 1, 4, 3]))}
    assert [out[10 + i].base for i in range(4)] == [2, 4, 0, 1]
    assert [out[10 + i].won for i in range(4)] == [False, True, False, False]


def test_tied_players_share_the_best_of_their_places():
    out = game_outcomes(duz([1, 2, 2, 4]))
    assert [o.base for o in out] == [4, 2, 2, 0]


def test_esli_both_winners_get_the_winners_points_and_the_losers_none():
    results = {
        "places": [2, 1, 2, 1],
        "teams": [120, 40],
        "players": [{"user": 10 + i, "bot": False} for i in range(4)],
    }
    out = game_outcomes(results)
    assert [o.base for o in out] == [0, 4, 0, 4]
    assert [o.won for o in out] == [False, True, False, True]


def test_a_drawn_esli_game_gives_everyone_half_and_no_win():
    results = {
        "places": [1, 1, 1, 1],
        "teams": [80, 80],
        "players": [{"user": 10 + i, "bot": False} for i in range(4)],
    }
    out = game_outcomes(results)
    assert [o.base for o in out] == [2, 2, 2, 2]
    assert not any(o.won for o in out)


def test_bots_have_no_outcome():
    results = duz([1, 2, 3, 4])
    results["players"][1] = {"user": None, "bot": True, "name": ""}
    assert [o.user_id for o in game_outcomes(results)] == [10, 12, 13]


def test_a_leaver_gets_nothing_and_loses_the_streak():
    out = {o.user_id: o for o in game_outcomes(duz([4, 1, 2, 3], left=[0]))}
    assert out[10].left and out[10].base == 0
    assert outcome_score(out[10], streak=5).points == 0
    assert outcome_score(out[10], streak=5).streak == 0


def test_points_double_from_the_third_win_in_a_row_until_a_game_is_not_won():
    win = {o.user_id: o for o in game_outcomes(duz([1, 2, 3, 4]))}[10]
    second = {o.user_id: o for o in game_outcomes(duz([2, 1, 3, 4]))}[10]
    streak, total, lines = 0, 0, []
    for outcome in (win, win, win, win, second, win):
        s = outcome_score(outcome, streak)
        streak, total = s.streak, total + s.points
        lines.append((s.points, s.doubled))
    # 4, 4, then on fire: 8, 8; the second place on fire counts double too (4) and ends it
    assert lines == [(4, False), (4, False), (8, True), (8, True), (4, True), (4, False)]
    assert total == 32
