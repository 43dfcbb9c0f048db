"""Eşli Okey through the services: partners opposite, team counting over several hands, the
game's end and rating points, team names, and what the table page shows of it all."""

import pytest
from django.urls import reverse

from accounts.models import Profile
from games import engine
from games.engine.tiles import colour_of
from games.errors import ServiceError
from games.models import Game, Hand, PlayerResult, Table
from games.staff.services import game_end
from games.table.create import table_create, team_names_set
from games.table.lifecycle import hand_next
from games.table.moves import move_submit
from games.table.reads import table_rows, table_view
from games.table.results import game_results_record
from tests.games.conftest import game_started, table_full
from tests.games.helpers import current_hand, hand_state, version_of
from tests.games.plans import plan_move

pytestmark = pytest.mark.django_db


def fresh(table) -> Table:
    return Table.objects.select_related("game").get(pk=table.pk)


def expected_deltas(state: engine.HandState) -> list[int]:
    """docs/rules.md, worked out here independently of the engine: the finisher and their
    partner go down by V, the two opponents up by V; the shower down by 1 × colour factor."""
    r = state.result
    deltas = [0, 0, 0, 0]
    if r.void:
        return deltas
    opts = state.options
    colour = 2 if opts.colour_doubling and colour_of(state.indicator) in (0, 3) else 1  # R, K
    factor = {"normal": 1, "okey": 2, "pairs": 2, "pairs+okey": 4}[r.kind]
    v = 2 * colour * factor
    assert r.value == v
    for seat in range(4):
        deltas[seat] = -v if seat % 2 == r.finisher % 2 else v
    if r.shower is not None and opts.indicator_bonus:
        deltas[r.shower] -= colour
    return deltas


def play_hand(table, seat_user) -> engine.HandState:
    """Play the current hand to its end through move_submit, showing the indicator when one
    can (so that the show's count is exercised too)."""
    while True:
        state = hand_state(table)
        if state.phase == "over":
            return state
        seat = state.turn
        if "show" in engine.hand_view(state, seat)["can"]:
            move = {"kind": "show"}
        else:
            move = plan_move(state)
        move_submit(
            table_id=table.pk,
            user=seat_user[seat],
            move={k: v for k, v in move.items() if k != "seat"},
            expected_version=version_of(table),
        )


@pytest.fixture
def esli_game(users, fixed_seed, in_memory_layer):
    return game_started(table_full(users, mode="esli", hand_limit=4))


def test_partners_sit_opposite(esli_game, users):
    view = view_of(esli_game, users[0])
    teams = {s.number: s.team for s in view.board.seats}
    assert teams == {1: "A", 2: "B", 3: "A", 4: "B"}
    assert [t.numbers for t in view.board.centre.teams] == [(1, 3), (2, 4)]
    # the partner sits opposite, at the top of the viewer's screen
    assert {p.seat.index: p.position for p in view.places} == {
        0: "bottom",
        1: "right",
        2: "top",
        3: "left",
    }


def test_team_counting_over_a_whole_game(esli_game, users):
    table = esli_game
    seat_user = {s.index: s.user for s in table.seats.all()}
    counts = [20, 20, 20, 20]
    counted, shows, firsts = 0, 0, []
    while True:
        firsts.append(current_hand(table).first_seat)
        state = play_hand(table, seat_user)
        deltas = expected_deltas(state)
        counts = [c + d for c, d in zip(counts, deltas, strict=True)]
        counted += not state.result.void
        shows += state.result.shower is not None and not state.result.void
        game = Game.objects.get(table=table)
        gstate = engine.game_from_dict(game.state)
        assert list(gstate.counts) == counts
        assert engine.team_totals(gstate) == (counts[0] + counts[2], counts[1] + counts[3])
        # what a player sees at the hand's end: each team's change and total
        view = view_of(table, users[1])
        if not state.result.void:
            rows = view.result.team_rows
            assert [r["delta"] for r in rows] == [deltas[0] + deltas[2], deltas[1] + deltas[3]]
            assert [r["team"].total for r in rows] == [counts[0] + counts[2], counts[1] + counts[3]]
        if game.status == Game.Status.OVER:
            # the results and the profiles follow in the end task (games.table.results)
            assert game_results_record(table_id=table.pk, expected_version=game.version)
            break
        assert hand_next(table_id=table.pk, expected_version=version_of(table))
    # with the fixed seed: void hands, finishes and shows of the indicator all happen
    assert counted == 4 and len(firsts) > counted and shows >= 1
    # a void hand is dealt again by the same player, a counted one passes the deal on
    for (a, b), hand in zip(
        zip(firsts, firsts[1:], strict=False), Hand.objects.order_by("number"), strict=False
    ):
        assert b == (a if hand.result["void"] else (a + 1) % 4)

    # the end: the lower team total wins; each winner gains H, each loser loses H
    game = Game.objects.get(table=table)
    a, b = counts[0] + counts[2], counts[1] + counts[3]
    assert game.results["teams"] == [a, b]
    assert game.results["hands"] == 4
    if a == b:
        want = [0, 0, 0, 0]
    else:
        win = 0 if a < b else 1
        want = [4 if seat % 2 == win else -4 for seat in range(4)]
    assert game.results["points"] == want
    for seat, user in seat_user.items():
        profile = Profile.objects.get(user=user)
        assert profile.rating_points == want[seat] and profile.games_played == 1
        assert profile.wins == (1 if want[seat] > 0 else 0)
        line = PlayerResult.objects.get(user=user)
        assert (line.points, line.count, line.seat) == (want[seat], counts[seat], seat)
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED

    view = view_of(table, users[0])
    rows = view.game_result.teams["rows"]
    assert [r["total"] for r in rows] == [a, b]
    html = client_page(table, users[0])
    assert "result-teams" in html and str(a) in html and str(b) in html


def view_of(table, user):
    return table_view(table_rows(table.pk), user)


def client_page(table, user):
    from django.test import Client

    c = Client()
    c.force_login(user)
    return c.get(reverse("games:table", args=[table.pk])).content.decode()


def test_a_draw_between_the_teams_changes_no_rating_and_counts_no_win(
    esli_game, users, django_user_model
):
    staff = django_user_model.objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    game = Game.objects.get(table=esli_game)
    state = engine.game_from_dict(game.state)
    from dataclasses import replace

    # two hands played and the teams level: 18 + 22 == 21 + 19
    game.state = engine.game_to_dict(replace(state, counts=(18, 21, 22, 19), hands_played=2))
    game.save()
    game_end(table_id=esli_game.pk, staff=staff)
    game.refresh_from_db()
    assert game.results["points"] == [0, 0, 0, 0] and game.results["places"] == [1, 1, 1, 1]
    for user in users:
        p = Profile.objects.get(user=user)
        assert (p.rating_points, p.games_played, p.wins) == (0, 1, 0)
    html = client_page(esli_game, users[0])
    assert "game-teams" in html


def test_team_names_default_to_the_partners_and_the_manager_may_set_them(esli_game, users):
    for u, name in zip(users, ["Ali", "Banu", "Cem", "Deniz"], strict=True):
        u.profile.display_name = name
        u.profile.save()
    names = [t.name for t in view_of(esli_game, users[0]).board.centre.teams]
    assert names == ["Ali & Cem", "Banu & Deniz"]
    v = version_of(esli_game)
    team_names_set(table_id=esli_game.pk, user=users[0], team_a="  Kartallar ", team_b="")
    assert version_of(esli_game) == v + 1
    names = [t.name for t in view_of(esli_game, users[1]).board.centre.teams]
    assert names == ["Kartallar", "Banu & Deniz"]
    html = client_page(esli_game, users[1])
    assert "Kartallar" in html and "teams-bar" in html


def test_a_long_team_name_is_shown_once_not_in_every_seat_box(esli_game, users):
    """Issue 42: a long team name repeated in each of the four seat boxes."""
    import re

    long_name = "Kuzey Ankara Kartalları Kulübü"  # 30 characters, the most allowed
    team_names_set(table_id=esli_game.pk, user=users[0], team_a=long_name, team_b="")
    html = client_page(esli_game, users[1])
    board = re.search(r'<section id="table-board".*?</section>', html, re.S).group(0)
    assert board.count(f">{long_name}<") == 1  # the teams bar
    badges = re.findall(r'class="badge badge--team[^"]*"\s+title="([^"]*)">\s*([^<]*?)\s*<', board)
    assert len(badges) == 4 and all(len(text) <= 8 for _title, text in badges)
    assert sum(long_name in title for title, _text in badges) == 2  # its two seats say it


def test_an_empty_team_is_team_a_or_b(users, in_memory_layer):
    table = table_create(manager=users[0], options={"mode": "esli"})
    # no names of their own: the page says "Team A" and "Team B" in the viewer's language
    assert [t.name for t in view_of(table, users[0]).board.centre.teams] == ["", ""]
    html = client_page(table, users[0])
    assert ("Takım A" in html and "Takım B" in html) or ("Team A" in html and "Team B" in html)


@pytest.mark.parametrize(
    "user_i, kw, code",
    [
        (1, {"team_a": "X", "team_b": "Y"}, "not_manager"),
        (0, {"team_a": "x" * 31, "team_b": ""}, "bad_team_name"),
        (0, {"team_a": "Aslanlar", "team_b": "aslanlar"}, "same_team_names"),
    ],
)
def test_team_names_refused(esli_game, users, user_i, kw, code):
    with pytest.raises(ServiceError) as e:
        team_names_set(table_id=esli_game.pk, user=users[user_i], **kw)
    assert e.value.code == code
    assert Table.objects.get(pk=esli_game.pk).team_a_name == ""


def test_duz_tables_have_no_teams(playing, users):
    assert view_of(playing, users[0]).board.centre.teams is None
    with pytest.raises(ServiceError) as e:
        team_names_set(table_id=playing.pk, user=users[0], team_a="A", team_b="B")
    assert e.value.code == "not_esli"


def test_team_names_form_on_the_page(client, esli_game, users):
    client.force_login(users[0])
    client.post(reverse("games:team_names", args=[esli_game.pk]), {"team_a": "", "team_b": "Y"})
    assert Table.objects.get(pk=esli_game.pk).team_b_name == "Y"
    assert (
        "team-names-form"
        in client.get(reverse("games:table", args=[esli_game.pk])).content.decode()
    )


@pytest.mark.parametrize("variant, teams", [("duz", False), ("esli", True), ("esli101", True)])
def test_the_leave_warning_names_the_team_only_where_the_game_has_teams(
    users, fixed_seed, in_memory_layer, variant, teams
):
    # asked of the game's capability (its board's teams), not of a variant's name: Eşli 101's
    # partners lose together as Eşli's do
    from tests.games.conftest import game_started, table_full

    table = game_started(table_full(users, variant=variant))
    html = client_page(table, users[0])
    assert "data-leave-game" in html
    assert ("Takımınız oyunu kaybeder." in html) is teams
