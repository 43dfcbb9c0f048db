"""Hints: only in a practice game, alone with bots, on one's own turn, refused by the server
otherwise; the hint is the engine's, from what the player can see."""

import pytest
from django.urls import reverse

from games import engine
from games.models import Table
from games.table.create import table_create
from games.table.hints import hint_view
from games.table.moves import move_submit
from games.table.seats import seat_take
from tests.games.conftest import game_started
from tests.games.helpers import hand_state

pytestmark = pytest.mark.django_db


def alone_with_bots(user, **options) -> Table:
    table = table_create(manager=user, options={"seats": 2, **options})
    return game_started(table)  # the bot takes the empty seat at the start


def test_a_player_alone_with_bots_in_a_practice_game_gets_the_engines_hint(
    client, users, fixed_seed
):
    table = alone_with_bots(users[0], practice=True)
    state = hand_state(table)
    me = table.seats.get(user=users[0]).index
    client.force_login(users[0])
    assert "data-hint-ask" in client.get(reverse("games:table", args=[table.pk])).content.decode()
    if state.turn != me:  # the bot plays first: let it
        for m in engine.bot_moves(state, state.turn):
            move_submit(
                table_id=table.pk, seat=state.turn, move=engine.move_to_dict(m),
                expected_version=None, auto=True,
            )  # fmt: skip
        state = hand_state(table)
    response = client.get(reverse("games:hint", args=[table.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    expected = engine.hint(state, me)
    if expected.discard is not None:
        assert f'data-tile="{engine.format_tile(expected.discard)}"' in html.split("hint-groups")[0]
    grouped = [t for g in expected.groups for t in g]
    assert html.count('data-tile="') >= len(grouped)


def test_a_rated_game_never_offers_a_hint_and_the_server_refuses_one(client, users, fixed_seed):
    table = alone_with_bots(users[0])
    client.force_login(users[0])
    assert (
        "data-hint-ask" not in client.get(reverse("games:table", args=[table.pk])).content.decode()
    )
    response = client.get(reverse("games:hint", args=[table.pk]))
    assert response.status_code == 403 and "data-tile" not in response.content.decode()


def test_no_hint_where_another_person_plays(client, users, fixed_seed):
    table = table_create(manager=users[0], options={"seats": 2, "practice": True})
    seat_take(table_id=table.pk, user=users[1], index=1)
    game_started(table)
    for user in users[:2]:
        client.force_login(user)
        assert client.get(reverse("games:hint", args=[table.pk])).status_code == 403


def test_no_hint_off_turn_nor_for_a_spectator(client, users, fixed_seed):
    table = alone_with_bots(users[0], practice=True)
    state = hand_state(table)
    me = table.seats.get(user=users[0]).index
    if state.turn == me:
        move_submit(
            table_id=table.pk, user=users[0], expected_version=None,
            move={"kind": "discard", "tile": engine.format_tile(state.racks[me][0])},
        )  # fmt: skip
    client.force_login(users[0])
    assert client.get(reverse("games:hint", args=[table.pk])).status_code == 403
    client.force_login(users[2])
    assert client.get(reverse("games:hint", args=[table.pk])).status_code == 403


def test_a_practice_game_changes_no_rating(users, fixed_seed):
    from games.table.results import results_write

    table = alone_with_bots(users[0], practice=True)
    game = table.game
    game.state = {**game.state, "hands_played": 1, "over": True}
    results_write(game, table)
    users[0].profile.refresh_from_db()
    assert (users[0].profile.games_played, users[0].profile.rating_points) == (0, 0)
    assert game.results["places"]


def _own_turns(deals: int):
    """Seat 0's states with a tile to throw, over ``deals`` hands of four normal bots."""
    for n in range(deals):
        state = engine.deal(bytes([n]) * 32, engine.TableOptions(), n % 4)
        while state.phase != "over":
            for m in engine.bot_moves(state, state.turn, "normal"):
                if state.turn == 0 and state.phase == "discard":
                    yield state
                state = engine.hand_apply(state, m)
                if state.phase == "over":
                    break


def test_the_panel_shows_the_rack_after_the_throw_so_never_the_thrown_tile_in_a_meld():
    """The Y4-5-6 case (issue 38): the engine arranges all 15 tiles, one of several arrangements
    as good, and its throw may be a tile that arrangement put in a meld (R11 out of R11-12-13
    where R11 Y11 B11 keeps as many). The panel shows the 14 tiles left after the throw."""
    shown_in_a_meld_before = 0
    for state in _own_turns(12):
        view = hint_view(state, 0, version=1)
        old = engine.hint(state, 0)
        thrown = view.finish or view.discard
        assert thrown and view.reason
        left = list(map(engine.format_tile, state.racks[0]))
        left.remove(thrown)
        panel = [t for g in view.groups for t in g] + list(view.leftovers)
        assert sorted(panel) == sorted(left)
        if old.discard is not None and old.discard not in old.leftovers:
            shown_in_a_meld_before += 1
    assert shown_in_a_meld_before > 0  # the deals hold the case the panel used to get wrong


def test_a_tile_is_said_to_be_in_none_of_the_melds_only_when_it_is_in_none():
    """Issue 42: "discard 1B: it is in none of your melds" with 1R 1Y 1B on the rack. The
    reason's words hold for the melds "Seri diz" shows for the rack."""
    from django.utils import translation

    said, kept_as_good = 0, 0
    with translation.override("en"):
        for state in _own_turns(12):
            view = hint_view(state, 0, version=1)
            if view.discard is None:
                continue
            _groups, leftovers = engine.arrange_runs(state.racks[0], state.okey)
            thrown = engine.parse_tile(view.discard)
            if view.reason.startswith("It is in none of your melds"):
                said += 1
                assert thrown in leftovers, (view.discard, view.reason)
            elif view.reason.startswith("Without it your other tiles make melds as good"):
                kept_as_good += 1
                assert thrown not in leftovers
    assert said and kept_as_good  # the deals hold both cases
