"""A phone's rack for a finger (issue 38, item 9). Upright (390×844) every rack tile is at least
44 px on its short side; on its side (844×390) the discard and finish buttons stay at the rack's
right, above the fold, with every other button of the turn: a practice game's hint button, or
the draw phase's moves. Measured from the element boxes.
"""

import pytest
from playwright.sync_api import expect

from tests.games.helpers import discard_first

from .play_support import in_a_thread, players_make, sign_in, table_ready
from .test_phone import boxes, four
from .test_play import SEED_HEX

__all__ = ["four"]  # a fixture of test_phone

pytestmark = pytest.mark.browser

FINGER = 44  # px: about a fingertip
BUTTONS = '#my-moves button, .rack-tools button, [data-act="discard"], [data-act="finish"]'


@pytest.fixture
def practice(settings, django_user_model):
    from games.table.create import table_create
    from tests.games.conftest import game_started

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    (user,) = players_make(django_user_model, 1)
    return user, game_started(table_create(manager=user, options={"practice": True}))


def at_table(browser, server, user, table, size, tiles):
    page = sign_in(browser, server, user, viewport=size, has_touch=True, is_mobile=True)
    page.goto(f"{server.url}/table/{table.pk}/")
    table_ready(page, tiles)
    return page


def on_screen(b, width, height):
    return b["x"] >= 0 and b["y"] >= 0 and b["right"] <= width and b["bottom"] <= height


def test_upright_every_rack_tile_is_big_enough_for_a_finger(asgi_live_server, browser, four):
    users, table = four
    page = at_table(browser, asgi_live_server, users[0], table, (390, 844), 15)
    try:
        tiles = boxes(page, "#rack .tile")
        assert len(tiles) == 15
        small = [t for t in tiles if min(t["width"], t["height"]) < FINGER]
        assert small == [], small
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.evaluate("window.scrollY") == 0
        for b in tiles + boxes(page, "#rack .slot") + boxes(page, BUTTONS):
            assert on_screen(b, 390, 844), b
    finally:
        page.context.close()


def test_on_its_side_a_practice_games_buttons_stay_beside_the_rack(
    asgi_live_server, browser, practice
):
    user, table = practice
    page = at_table(browser, asgi_live_server, user, table, (844, 390), 15)
    try:
        expect(page.locator("[data-hint-ask]")).to_be_visible()
        assert page.evaluate("window.scrollY") == 0
        rack = boxes(page, "#rack")[0]
        found = boxes(page, BUTTONS)
        assert len(found) >= 5
        for b in found:
            assert on_screen(b, 844, 390), b
            assert b["x"] >= rack["right"], b
        assert min(t["width"] for t in boxes(page, "#rack .tile")) >= 40
    finally:
        page.context.close()


def test_on_its_side_the_draw_phases_moves_stay_beside_the_rack(asgi_live_server, browser, four):
    users, table = four
    in_a_thread(discard_first, table, users[0])
    page = at_table(browser, asgi_live_server, users[1], table, (844, 390), 14)
    try:
        expect(page.locator('#my-moves [data-move="take"]')).to_be_visible()
        rack = boxes(page, "#rack")[0]
        for b in boxes(page, BUTTONS):
            assert on_screen(b, 844, 390), b
            assert b["x"] >= rack["right"], b
    finally:
        page.context.close()
