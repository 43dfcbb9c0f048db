"""The 101 table on a phone, upright (390×844) and on its side (844×390), and on a desktop
(1280×800): with melds on the table, everything a player needs during a turn is on one screen
(measured from the element boxes), nothing scrolls sideways, and the rack's tiles are at least
40 px wide on a phone; axe finds nothing serious or critical.
"""

import pytest
from playwright.sync_api import expect

from .play101_support import table_101
from .play_support import players_make, sign_in
from .test_axe import NO_CSP, violations
from .test_phone import boxes
from .test_play101_melds import hand_arrange

pytestmark = pytest.mark.browser

DURING_PLAY = [
    ".table-head",
    "#table-board",
    "#table-board .seat",
    "#table-board .meld",
    "#table-board .pile",
    "#stock",
    "#table-board .indicator",
    "#turn-line",
    "#thresholds",
    "#rack101",
    "#rack101 .rack101-tile",
    ".rack-tools button",
]


@pytest.mark.parametrize(
    "size", [(390, 844), (844, 390), (1280, 800)], ids=["upright", "on-its-side", "desktop"]
)
def test_the_whole_101_table_fits_the_screen(
    asgi_live_server, browser, celery_worker, settings, django_user_model, size
):
    width, height = size
    phone = width < 1000
    (user,) = players_make(django_user_model, 1)
    page = sign_in(browser, asgi_live_server, user, viewport=size, has_touch=phone, **NO_CSP)
    table_id = table_101(page, asgi_live_server, settings)
    hand_arrange(table_id)
    page.reload()
    expect(page.locator("#table-page.is-live")).to_have_count(1)
    expect(page.locator("#rack101 .rack101-tile")).to_have_count(12)
    expect(page.locator("#table-board .meld")).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    off = []
    # on its side the board is as low as it can be: what an opening needs shows in the tray
    # once tiles are in it, against their value
    during = [s for s in DURING_PLAY if not (height < 500 and s == "#thresholds")]
    for selector in during:
        found = boxes(page, selector)
        assert found, f"nothing shows {selector}"
        for b in found:
            inside = b["x"] >= 0 and b["y"] >= 0 and b["right"] <= width and b["bottom"] <= height
            if not inside:
                off.append((selector, b))
    assert off == [], off
    if phone:
        tiles = boxes(page, "#rack101 .rack101-tile")
        assert min(t["width"] for t in tiles) >= 40
    assert violations(page) == []  # axe: nothing serious or critical, melds on the table
