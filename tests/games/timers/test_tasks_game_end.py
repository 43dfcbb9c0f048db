"""The game's end: the task computes counts, places, totals and rating points, stores them with
the game and updates each profile once. Two games worked out by hand from docs/rules.md.

test_worker.py plays the Düz example again with a real worker.
"""

import pytest
from django.urls import reverse

from games.engine import parse_tile
from games.table.lifecycle import hand_next
from games.table.moves import move_submit
from games.table.results import game_results_record
from games.timers.sweep import table_due
from games.timers.tasks import deadline_due_task
from tests.games.conftest import game_started, table_full
from tests.games.helpers import hand_state, version_of
from tests.games.table.test_moves import state_set

pytestmark = pytest.mark.django_db

MELDS_K9 = "R1 R2 R3 R4 R5 Y1 Y2 Y3 B1 B2 B3 K1 K2 K3 K9"  # 14 in melds, K9 to finish with
MELDS_K5 = "R1 R2 R3 R4 R5 Y1 Y2 Y3 B1 B2 B3 K1 K2 K3 K5"
PAIRS_B7 = "R1 R1 R4 R4 Y7 Y7 B2 B2 B9 B9 K5 K5 K12 K12 B7"  # seven pairs, B7 to finish with


def move(table, user, kind, tile=None):
    m = {"kind": kind, **({"tile": tile} if tile else {})}
    return move_submit(table_id=table.pk, user=user, move=m, expected_version=version_of(table))


def next_hand(table):
    """The pause after a hand is over: what its task does (exactly one action)."""
    assert hand_next(table_id=table.pk, expected_version=version_of(table))
    return hand_state(table)


def duz_example(users):
    """Düz, 4 players, 2 hands, counts from 20.

    Hand 1 (seat 1 first): seat 1 finishes normally, red indicator R9: V = 2 x 2 x 1 = 4.
      counts 16 24 24 24
    Hand 2 (seat 2 first): seat 2 shows the indicator B7 (blue: 1) and finishes with seven
      pairs: V = 2 x 1 x 2 = 4. Seat 2: -4 - 1; the others +4.
      counts 20 19 28 28
    Places: seat 2 (19) first, seat 1 (20) second, seats 3 and 4 (28) share third.
    Rating points, H = 2 hands: +2H, +H, -H, -2H = +4, +2, -2, -4; seats 3 and 4 share
    (-2 - 4) / 2 = -3 each. So by seat: +2, +4, -3, -3.
    """
    table = game_started(table_full(users, hand_limit=2))
    state_set(table, rack_of=(0, MELDS_K9), indicator=parse_tile("R9"), okey=parse_tile("R10"))
    move(table, users[0], "finish", "K9")
    next_hand(table)
    state_set(table, rack_of=(1, PAIRS_B7), indicator=parse_tile("B7"), okey=parse_tile("B8"))
    move(table, users[1], "show")
    out = move(table, users[1], "finish", "B7")
    assert out.game_over
    return table, out.version


def esli_example(users):
    """Eşli, 2 hands, counts from 20; teams: seats 1 and 3, seats 2 and 4.

    Hand 1 (seat 1 first): seat 1 puts the okey on the indicator, black indicator K4 (okey K5):
      V = 2 x 2 x 2 = 8. Seat 1 and its partner seat 3: -8; seats 2 and 4: +8.
      counts 12 28 12 28
    Hand 2 (seat 2 first): seat 2 finishes normally, yellow indicator Y9: V = 2 x 1 x 1 = 2.
      Seats 2 and 4: -2; seats 1 and 3: +2.
      counts 14 26 14 26
    Team totals: 14 + 14 = 28 and 26 + 26 = 52: the team of seats 1 and 3 wins.
    Rating points, H = 2: +2 for each winner, -2 for each loser.
    """
    table = game_started(table_full(users, mode="esli", hand_limit=2))
    state_set(table, rack_of=(0, MELDS_K5), indicator=parse_tile("K4"), okey=parse_tile("K5"))
    move(table, users[0], "finish", "K5")
    next_hand(table)
    state_set(table, rack_of=(1, MELDS_K9), indicator=parse_tile("Y9"), okey=parse_tile("Y10"))
    out = move(table, users[1], "finish", "K9")
    assert out.game_over
    return table, out.version


def profiles(users):
    ps = [type(u).objects.get(pk=u.pk).profile for u in users]
    return [(p.rating_points, p.games_played, p.wins) for p in ps]


def test_duz_game_end_totals_match_the_hand_worked_example(users, fixed_seed):
    table, version = duz_example(users)
    table.game.refresh_from_db()
    assert table.game.results is None  # the move only ends the game; the task counts
    assert deadline_due_task.apply(args=("end", table.pk, version)).get() is True
    table.game.refresh_from_db()
    results = table.game.results
    assert results["counts"] == [20, 19, 28, 28]
    assert results["places"] == [2, 1, 3, 3]
    assert results["points"] == [2, 4, -3, -3]
    assert results["hands"] == 2 and "teams" not in results
    assert profiles(users) == [(2, 1, 0), (4, 1, 1), (-3, 1, 0), (-3, 1, 0)]


def test_esli_game_end_totals_match_the_hand_worked_example(users, fixed_seed):
    table, version = esli_example(users)
    assert deadline_due_task.apply(args=("end", table.pk, version)).get() is True
    table.game.refresh_from_db()
    results = table.game.results
    assert results["counts"] == [14, 26, 14, 26]
    assert results["teams"] == [28, 52]
    assert results["places"] == [1, 2, 1, 2]
    assert results["points"] == [2, -2, 2, -2]
    assert profiles(users) == [(2, 1, 1), (-2, 1, 0), (2, 1, 1), (-2, 1, 0)]


def test_the_game_end_task_counts_profiles_exactly_once(users, fixed_seed):
    table, version = duz_example(users)
    assert game_results_record(table_id=table.pk, expected_version=version)
    after = profiles(users)
    v = version_of(table)
    # a repeated task, a late one, the sweep: nothing changes any more
    assert deadline_due_task.apply(args=("end", table.pk, version)).get() is False
    assert deadline_due_task.apply(args=("end", table.pk, v)).get() is False
    assert table_due(table_id=table.pk) is None
    assert profiles(users) == after and version_of(table) == v


def test_the_results_page_shows_places_points_and_team_totals(client, users, fixed_seed):
    table, version = esli_example(users)
    client.force_login(users[3])
    url = reverse("games:table", args=[table.pk])
    assert "results-pending" in client.get(url).content.decode()
    game_results_record(table_id=table.pk, expected_version=version)
    html = client.get(url).content.decode()
    assert "results-pending" not in html and "team-totals" in html
    assert ": 28" in html and ": 52" in html
    rows = html.split('<table class="result-table">')[1].split("</table>")[0]
    assert rows.count("is-winner") == 2 and "+2" in rows and "\u22122" in rows  # a real minus
