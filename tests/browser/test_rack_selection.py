"""What stays chosen on the rack after a discard: nothing. The thrown tile's twin (two tiles of
each face exist) must not be chosen in its place, "discard selected" must not be lit on the next
turn, and the player's first tap on a tile chooses it (issue 38, item 2).

A duel (two seats): with this deal seat 0 opens with 15 tiles, two of one face.
"""

from collections import Counter

import pytest
from playwright.sync_api import expect

from games import engine
from games.table.moves import move_submit
from tests.games.helpers import discard_first, hand_state
from tests.games.helpers import version_of as table_version

from .play_support import (
    in_a_thread,
    layout_of,
    players_make,
    table_ready,
    version_of,
    wait_version,
)
from .test_play import sign_in

__all__ = ["sign_in"]  # a fixture of test_play

pytestmark = pytest.mark.browser

SEED_HEX = "04" * 32  # seat 0 is dealt both tiles of one face


@pytest.fixture
def duel(settings, django_user_model):
    from tests.games.conftest import game_started, table_full

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    users = players_make(django_user_model, 2)
    return users, game_started(table_full(users, seats=2))


def chosen(page) -> list[str]:
    return page.eval_on_selector_all(
        "#rack .tile.is-selected", "els => els.map(e => e.dataset.tile)"
    )


def seat_1_plays(table, user):
    """Seat 1 draws from the stock and discards its first tile, through the services."""
    move_submit(
        table_id=table.pk, user=user, move={"kind": "draw"}, expected_version=table_version(table)
    )
    discard_first(table, user)


@pytest.mark.parametrize("which", ["first", "second"])
def test_after_a_discard_nothing_stays_chosen_not_even_the_twin(
    asgi_live_server, sign_in, duel, which
):
    users, table = duel
    rack = hand_state(table).racks[0]
    twins = [engine.format_tile(t) for t, n in Counter(rack).items() if n == 2]
    assert twins, "the fixed deal gives seat 0 two tiles of one face"
    face = twins[0]
    page = sign_in(users[0])
    page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
    table_ready(page, 15)
    before = layout_of(page)
    slots = [i for i, code in enumerate(before) if code == face]
    thrown = slots[0] if which == "first" else slots[1]
    twin = slots[1] if which == "first" else slots[0]

    version = version_of(page)
    page.locator("#rack .slot").nth(thrown).locator(".tile").click()
    assert chosen(page) == [face]
    page.locator('[data-act="discard"]').click()
    wait_version(page, version + 1)
    table_ready(page, 14)
    expect(page.locator("#pile-0 .pile-top .tile")).to_have_attribute("data-tile", face)
    assert chosen(page) == []
    # the thrown tile's slot empties; its twin stays where the player put it
    after = layout_of(page)
    assert after[thrown] is None and after[twin] == face
    expect(page.locator('[data-act="discard"]')).to_be_disabled()

    # the next turn: nothing is chosen, "discard selected" is not lit until the player chooses
    in_a_thread(seat_1_plays, table, users[1])
    wait_version(page, version + 3)
    page.locator(".stock.is-drawable").click()
    table_ready(page, 15)
    expect(page.locator('#my-moves[data-can~="discard"]')).to_have_count(1)
    assert chosen(page) == []
    expect(page.locator('[data-act="discard"]')).to_be_disabled()
    # the first tap on the twin chooses it
    page.locator("#rack .slot").nth(twin).locator(".tile").click()
    assert chosen(page) == [face]
    expect(page.locator('[data-act="discard"]')).to_be_enabled()
