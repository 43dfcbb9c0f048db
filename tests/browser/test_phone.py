"""The table on a phone: everything a player needs during play on one screen, upright (390×844)
and on its side (844×390), measured from the element boxes; every touch target 24×24 px or more.
A desktop of 1280×800 too.

Four players at a dealt table (the fixed deal of test_play); seat 0 opens with 15 tiles and may
discard, finish or declare pairs: every button of a turn is on the page.
"""

import pytest
from playwright.sync_api import expect

from .play_support import players_make, sign_in, table_ready
from .test_play import SEED_HEX

pytestmark = pytest.mark.browser

# what a player looks at or touches while playing
DURING_PLAY = [
    ".table-head",
    "#table-board",
    "#table-board .seat",
    "#table-board .pile",
    "#stock",
    "#table-board .indicator",
    "#turn-line",
    "#rack",
    "#my-moves button",
    ".rack-tools button",
]
TOUCH_TARGETS = "#table-page button, #table-page a, #rack .tile, .stock-source .tile, .pile"


@pytest.fixture
def four(settings, django_user_model):
    from tests.games.conftest import game_started, table_full

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    users = players_make(django_user_model, 4)
    return users, game_started(table_full(users))


def boxes(page, selector):
    return page.eval_on_selector_all(
        selector,
        """els => els.filter(e => e.getClientRects().length).map(e => {
            const b = e.getBoundingClientRect();
            return {what: (e.id || e.className || e.tagName) + ' ' + e.textContent.trim()
                    .slice(0, 20), x: b.x, y: b.y, right: b.right, bottom: b.bottom,
                    width: b.width, height: b.height};
        })""",
    )


@pytest.mark.parametrize(
    "size", [(390, 844), (844, 390), (1280, 800)], ids=["portrait", "landscape", "desktop"]
)
def test_the_whole_table_fits_a_phone_screen(asgi_live_server, browser, four, size):
    users, table = four
    width, height = size
    page = sign_in(browser, asgi_live_server, users[0], viewport=size, has_touch=True)
    try:
        page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
        table_ready(page, 15)
        expect(page.locator('#my-moves [data-move="pairs"]')).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.evaluate("window.scrollY") == 0
        for selector in DURING_PLAY:
            found = boxes(page, selector)
            assert found, f"nothing shows {selector}"
            for b in found:
                inside = b["x"] >= 0 and b["y"] >= 0
                inside = inside and b["right"] <= width and b["bottom"] <= height
                assert inside, f"{selector} ({b['what']}) is off the screen: {b}"
        # the centre's tiles overlap no seat's box (issue 42: the okey by 11 px upright)
        for tile in boxes(page, "#table-board .center-tiles > *"):
            for seat in boxes(page, "#table-board .seat"):
                apart = tile["right"] <= seat["x"] or seat["right"] <= tile["x"]
                apart = apart or tile["bottom"] <= seat["y"] or seat["bottom"] <= tile["y"]
                assert apart, f"{tile['what']} overlaps {seat['what']}: {tile} {seat}"
        small = [b for b in boxes(page, TOUCH_TARGETS) if b["width"] < 24 or b["height"] < 24]
        assert small == [], small
        tiles = boxes(page, "#rack .tile")
        if width > height:
            assert min(t["width"] for t in tiles) >= 40
    finally:
        page.context.close()
