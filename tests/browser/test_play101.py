"""Okey 101 in the browser, as a player plays it against bots: quick play offers it, the rack
shows 22 tiles, the first turn is a discard, then the player draws, composes an opening in the
tray (its running value against 101, worked out by the server), lays it, and plays the hand to
its end (asked first before an işlek discard); the hand's penalties and the game's totals show.

The deal is fixed (OKEY_TEST_SEED_HEX): the player is seat 1 and starts; their 22 tiles hold
melds worth 142 (K12-K13-K1 is no run in 101: the search below is the engine's own).
"""

import re

import pytest
from playwright.sync_api import expect

from .play_support import players_make, sign_in, wait_db
from .test_axe import NO_CSP, violations

pytestmark = pytest.mark.browser

SEED_HEX = "01" * 32


def rack_codes(page) -> list[str]:
    return page.eval_on_selector_all("#rack-data .tile", "els => els.map(e => e.dataset.tile)")


def can(page) -> str:
    return page.locator("#my-moves").get_attribute("data-can") or ""


def choose(page, codes):
    """Tap each tile of ``codes`` in the rack (a face twice: both copies)."""
    for code in codes:
        page.locator(f'#rack101 [data-code="{code}"][aria-selected="false"]').first.click()


def opening_groups(codes, okey_code):
    """The engine's best opening of these tiles, as groups of codes (okeys where they go)."""
    from games import engine
    from games.engine.okey101.opening import best_melds

    faces = [engine.parse_tile(c) for c in codes]
    okey = engine.parse_tile(okey_code)
    value, melds = best_melds(faces, okey)
    groups = [
        [engine.format_tile(f) for f in real] + [okey_code] * jokers for real, jokers in melds
    ]
    return value, groups


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_a_player_opens_in_the_tray_and_plays_a_101_hand_against_bots(
    asgi_live_server, browser, celery_worker, settings, django_user_model, viewport
):
    from games.models import Game, Move

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    settings.OKEY_BOT_PAUSE = (0.05, 0.15)
    server = asgi_live_server
    (user,) = players_make(django_user_model, 1)
    page = sign_in(browser, server, user, viewport=viewport, **NO_CSP)  # axe's script
    asked = []  # what the page asked before a discard (an işlek tile, the okey): declined

    def answer(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", answer)
    page.goto(server.url + "/")
    page.locator("#id_mode").select_option("101")
    page.locator("#id_hand_limit").fill("1")
    page.locator(".create-form button[type=submit]").click()
    page.wait_for_url("**/table/*/")
    table_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    page.locator("[data-start]").click()

    # the deal: 22 tiles on the player's rack, the opening's threshold on the board
    expect(page.locator("#rack101 .rack101-tile")).to_have_count(22, timeout=25_000)
    expect(page.locator("#thresholds")).to_contain_text("101")
    if viewport[0] < 600:  # a phone: tiles at least 40 px wide, no sideways scroll
        width = page.locator("#rack101 .rack101-tile").first.bounding_box()["width"]
        assert width >= 40
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    okey = page.locator("#rack-data").get_attribute("data-okey")
    value, groups = opening_groups(rack_codes(page), okey)
    assert value >= 101
    loose = rack_codes(page)
    for code in (c for g in groups for c in g):
        loose.remove(code)

    # the first turn: a discard only
    expect(page.locator("#my-moves")).to_have_attribute("data-can", re.compile(r"\bdiscard\b"))
    assert "lay" not in can(page) and "draw" not in can(page)
    choose(page, [loose.pop()])
    page.locator("[data-act101=discard]").click()
    expect(page.locator("#rack101 .rack101-tile")).to_have_count(21)

    # the next turn: draw, then the opening in the tray, its value before it is laid
    expect(page.locator("#my-moves [data-move=draw]")).to_be_visible(timeout=30_000)
    page.locator("#my-moves [data-move=draw]").click()
    expect(page.locator("#rack101 .rack101-tile")).to_have_count(22)
    for g in groups:
        choose(page, g)
        page.locator("[data-tray=group]").click()
    expect(page.locator("#tray-value")).to_have_text(f"{value} / 101")
    expect(page.locator("[data-tray=lay]")).to_be_enabled()
    page.locator("[data-tray=lay]").click()
    expect(page.locator("#tray-groups li")).to_have_count(0)
    me = page.locator("#seat-0")
    expect(me.locator(".meld")).to_have_count(len(groups))
    expect(me.locator("[data-opened=melds]")).to_contain_text(str(value))
    expect(page.locator("#table-announce")).to_contain_text(str(value))
    assert Move.objects.get(hand__game__table_id=table_id, kind="lay", user=user).detail["groups"]
    assert violations(page) == []  # axe: nothing serious or critical mid-hand

    # then on to the hand's end, a turn at a time: draw, add what fits a meld on the table,
    # and discard, asked first (and declining) before a tile that would cost +101
    added = 0
    while not page.locator(".result").count():
        moves = can(page)
        islek = dict(
            pair.split(":")
            for pair in (page.locator("#my-moves").get_attribute("data-islek") or "").split()
        )
        if "draw" in moves:
            page.locator("#my-moves [data-move=draw]").click()
            page.wait_for_function(
                "() => !(document.getElementById('my-moves').dataset.can || '').includes('draw')"
            )
        elif "discard" in moves and islek and not asked:
            # the page asks before an işlek throw, says why, and a "no" throws nothing
            codes = rack_codes(page)
            choose(page, [next(iter(islek))])
            page.locator("[data-act101=discard]").click()
            expect(page.locator("#rack101 .rack101-tile")).to_have_count(len(codes))
            assert asked and "+101" in asked[0]
            page.locator('#rack101 [aria-selected="true"]').click()  # chosen no more
        elif "add" in moves and any(m != "-1" for m in islek.values()):
            code, meld = next((c, m) for c, m in islek.items() if m != "-1")
            size = page.locator(f'#table-board .meld[data-meld="{meld}"] .tile').count()
            tiles = len(rack_codes(page))
            choose(page, [code])
            page.locator(f'#table-board .meld[data-meld="{meld}"]').click()
            expect(page.locator(f'#table-board .meld[data-meld="{meld}"] .tile')).to_have_count(
                size + 1
            )
            expect(page.locator("#rack101 .rack101-tile")).to_have_count(tiles - 1)
            added += 1
        elif "discard" in moves:
            codes = rack_codes(page)
            safe = [c for c in codes if c not in islek] or codes
            choose(page, [safe[-1]])
            page.locator("[data-act101=discard]").click()
            page.wait_for_function(
                "() => !(document.getElementById('my-moves').dataset.can || '').includes('discard')"
            )
        else:
            page.wait_for_timeout(200)
    assert added and asked  # this deal lets the player add to melds on the table
    game = wait_db(lambda: Game.objects.filter(table_id=table_id, results__isnull=False).first())
    assert game.results["hands"] == 1
    result = page.locator(".result")
    expect(result.locator("#result-title")).to_be_visible(timeout=15_000)
    rows = result.locator(".result-table--101 tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first.locator(".result-score")).to_have_attribute(
        "data-score", str(next(iter(game.hands.get().result["scores"])))
    )
    # the live region says the hand's end: each player's score and total in the game
    announce = page.locator("#table-announce")
    expect(announce).to_contain_text("El bitti.")
    for name in ("Oyuncu 1", "Bot 2", "Bot 3", "Bot 4"):
        expect(announce).to_contain_text(f"{name}: ")
    expect(announce).to_contain_text("toplam")
    assert violations(page) == []  # nor on the results
