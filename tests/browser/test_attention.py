"""What draws a player's eye and ear: the live region says each move and "your turn", the tab's
title and icon change on the player's turn, tiles slide (not with prefers-reduced-motion), the
drawn tile is marked until it is moved, and sounds play unless muted (a switch that is kept).

A duel at the fixed deal of test_play: seat 0 discards first (through the service), and the page
of seat 1 is the one watched.
"""

import re

import pytest
from playwright.sync_api import expect

from .play_support import in_a_thread, sign_in, table_ready, version_of, wait_version
from .test_play import duel, opening_discard

__all__ = ["duel"]  # the fixture of test_play

pytestmark = pytest.mark.browser

# Counts the tiles that slide (Element.animate) and the tones played (their frequencies).
WATCH = """
window.__slides = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.__slides += 1; return animate.apply(this, args); };
window.__tones = [];
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__tones.push(this.frequency.value); return start.apply(this, args);
};
"""
DISCARD_TONE, TURN_TONE = 330, 660


def watched(browser, server, user, table, tiles, **context):
    page = sign_in(browser, server, user, **context)
    page.add_init_script(WATCH)
    page.goto(f"{server.url}/table/{table.pk}/")
    table_ready(page, tiles)
    return page


def test_the_live_region_title_and_sound_tell_the_move_and_the_turn(
    asgi_live_server, browser, duel
):
    users, table = duel
    page = watched(browser, asgi_live_server, users[1], table, 14)
    try:
        expect(page).not_to_have_title(re.compile("^●"))
        version = version_of(page)
        tile = in_a_thread(opening_discard, table, users[0])
        wait_version(page, version + 1)
        live = page.locator("#table-announce")
        expect(live).to_have_attribute("aria-live", "polite")
        expect(live).to_contain_text("Oyuncu 1")
        expect(live).to_contain_text("attı")
        expect(live).to_contain_text("Sıra sizde")
        assert page.title().startswith("● Sıra sizde")
        icon = page.locator('link[rel="icon"]').get_attribute("href")
        assert icon.endswith("favicon-turn.svg")
        tones = page.evaluate("window.__tones")
        assert DISCARD_TONE in tones and TURN_TONE in tones
        assert page.evaluate("window.__slides") >= 1  # the discard slid from the seat
        expect(page.locator("#pile-0 .pile-top .tile")).to_have_attribute("data-tile", tile)

        # the player draws: the new tile slides in and is marked until it is moved
        slides = page.evaluate("window.__slides")
        page.locator(".stock.is-drawable").click()
        wait_version(page, version + 2)
        table_ready(page, 15)
        drawn = page.locator("#rack .tile.is-drawn")
        expect(drawn).to_have_count(1)
        assert page.evaluate("window.__slides") > slides
        drawn.focus()
        page.keyboard.press("Shift+ArrowDown")
        expect(page.locator("#rack .tile.is-drawn")).to_have_count(0)
    finally:
        page.context.close()


def test_reduced_motion_keeps_the_tiles_still_and_mute_is_remembered(
    asgi_live_server, browser, duel
):
    users, table = duel
    page = watched(browser, asgi_live_server, users[1], table, 14, reduced_motion="reduce")
    try:
        toggle = page.locator("#sound-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        page.reload()
        table_ready(page, 14)
        expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
        version = version_of(page)
        in_a_thread(opening_discard, table, users[0])
        wait_version(page, version + 1)
        expect(page.locator("#table-announce")).to_contain_text("Sıra sizde")
        assert page.evaluate("window.__slides") == 0
        assert page.evaluate("window.__tones") == []
    finally:
        page.context.close()
