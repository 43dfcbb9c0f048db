"""Okey 101 at the table, a turn of a player going for pairs: they take the left player's
discard, see it cannot open for them and give it back with one button (the tile goes back on
the pile, one comes from the stock instead), then put five pairs in the tray, see it is enough
and open with them. The live region says the give-back and the opening.

The hand is set up after the deal: the player's turn to draw, not opened, five pairs and eleven
tiles that pair with nothing in the rack, one tile on the left player's pile.
"""

import pytest
from playwright.sync_api import expect

from .play101_support import choose, hand_set, page_again, table_101, tiles_pool
from .play_support import players_make, sign_in

pytestmark = pytest.mark.browser


def hand_pairs(table_id) -> dict:
    from collections import Counter
    from dataclasses import replace

    from games.engine import format_tile
    from games.engine.tiles import FAKE

    tiles = {}

    def change(s):
        pool = tiles_pool(s)
        twice = [f for f, k in sorted(Counter(pool).items()) if k == 2 and f not in (s.okey, FAKE)]
        pairs, singles, left = twice[:5], twice[5:16], twice[16]
        for f in (*pairs, *pairs, *singles, left):
            pool.remove(f)
        tiles.update(pairs=[format_tile(f) for f in pairs], left=format_tile(left))
        rack = (*pairs, *pairs, *singles)
        others = [tuple(pool[21 * i : 21 * i + 21]) for i in range(s.n - 1)]
        discards = (*s.discards[: s.n - 1], (left,))
        return replace(
            s,
            racks=(rack, *others),
            stock=tuple(pool[21 * (s.n - 1) :]),
            discards=discards,
            turn=0,
            phase="draw",
            first_turn=False,
            drawn=None,
        )

    hand_set(table_id, change)
    return tiles


@pytest.mark.parametrize("viewport", [(1280, 800), (844, 390)], ids=["desktop", "phone-side"])
def test_a_player_gives_back_the_left_tile_and_opens_with_five_pairs(
    asgi_live_server, browser, celery_worker, settings, django_user_model, viewport
):
    from games.models import Move

    (user,) = players_make(django_user_model, 1)
    phone = viewport[0] < 1000
    page = sign_in(browser, asgi_live_server, user, viewport=viewport, has_touch=phone)
    table_id = table_101(page, asgi_live_server, settings)
    t = hand_pairs(table_id)
    page_again(page, 21)
    left_pile = page.locator("#table-board .pile").filter(
        has=page.locator(f'[data-tile="{t["left"]}"]')
    )

    # the left tile taken: it must open or go on the table this turn, or go back
    page.locator("#my-moves [data-move=take]").click()
    expect(page.locator("#rack101 .rack101-tile")).to_have_count(22)
    expect(page.locator("#my-moves")).to_contain_text(t["left"])
    give_back = page.locator("#my-moves [data-move=give_back]")
    expect(give_back).to_be_visible()
    give_back.click()  # one button: back on the pile, a tile from the stock instead
    expect(give_back).to_have_count(0)
    expect(page.locator(f'#rack101 [data-code="{t["left"]}"]')).to_have_count(0)
    expect(page.locator("#rack101 .rack101-tile")).to_have_count(22)
    expect(left_pile).to_have_count(1)
    expect(page.locator("#table-announce")).to_contain_text("soldan aldığı taşı geri bıraktı")
    assert Move.objects.filter(hand__game__table_id=table_id, kind="give_back").count() == 1

    # five pairs in the tray: enough to open with, and laid
    for code in t["pairs"]:
        choose(page, [code, code])
        page.locator("[data-tray=pair]").click()
    expect(page.locator("#tray-groups li")).to_have_count(5)
    expect(page.locator("#tray-value")).to_have_text("5 / 5 ⚇")
    expect(page.locator("[data-tray=lay]")).to_be_enabled()
    page.locator("[data-tray=lay]").click()
    me = page.locator("#seat-0")
    expect(me.locator(".meld--pair")).to_have_count(5)
    expect(me.locator("[data-opened=pairs]")).to_contain_text("5")
    expect(page.locator("#rack101 .rack101-tile")).to_have_count(12)
    expect(page.locator("#table-announce")).to_contain_text("5 çiftle açtı")
    lay = Move.objects.get(hand__game__table_id=table_id, kind="lay")
    assert lay.detail["pairs"] is True and len(lay.detail["groups"]) == 5
