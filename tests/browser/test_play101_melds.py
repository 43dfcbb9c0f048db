"""Okey 101 at the table, the moves on melds laid by others: a tile dragged from the rack onto a
bot's run is added to it (mouse, and a finger on a phone), a tile dragged onto a meld holding an
okey takes the okey back, and the okey dragged onto the player's own pile is thrown once the
player says yes to its +101. The same moves work from the keyboard (a tile, then a meld). The
live region says each of them.

The hand is set up after the deal (``hand_arrange``): the player has opened and drawn, a bot has
laid a run and a meld with a real okey in it, and the player holds a tile for each.
"""

import re

import pytest
from playwright.sync_api import expect

from .play101_support import hand_set, page_again, table_101, tiles_pool
from .play_support import drag, players_make, sign_in, touch_drag

pytestmark = pytest.mark.browser

RUN, OKEY_MELD = 1, 2  # the bot's melds, in the table's laying order


def hand_arrange(table_id) -> dict:
    """Seat 0 (the player) has opened with a set and drawn: their turn, to play. Seat 1 (a bot)
    has laid a run of three and a run of two tiles and a real okey; the player holds the tile
    that extends the first (``add``) and the one the okey stands for (``take``). The other tiles
    are shared out again. Returns those tiles' codes."""
    from dataclasses import replace

    from games.engine import format_tile
    from games.engine.okey101.table import TableMeld
    from games.engine.tiles import colour_of, face, number_of

    tiles = {}

    def change(s):
        okey = s.okey
        colours = [c for c in range(4) if c != colour_of(okey)]
        run_colour, okey_colour = colours[0], colours[1]
        ten = 10 if number_of(okey) != 10 else 11
        run = tuple(face(run_colour, n) for n in (5, 6, 7))
        two = (face(okey_colour, 2), face(okey_colour, 3))
        mine = tuple(face(c, ten) for c in colours)
        add, take = face(run_colour, 8), face(okey_colour, 4)
        tiles.update(add=format_tile(add), take=format_tile(take), okey=format_tile(okey))
        melds = (
            TableMeld(0, "set", mine, mine),
            TableMeld(1, "run", run, run),
            TableMeld(1, "run", (*two, okey), (*two, take)),
        )
        pool = tiles_pool(s)
        for t in (*mine, *run, *two, okey, add, take):
            pool.remove(t)
        pool.sort(key=lambda t: t == okey)  # the other okey stays in the stock
        rack = (add, take, *pool[:10])
        racks = (rack, tuple(pool[10:24]), tuple(pool[24:38]), tuple(pool[38:52]))[: s.n]
        return replace(
            s,
            racks=racks,
            stock=tuple(pool[14 * (s.n - 1) + 10 :]),
            turn=0,
            phase="play",
            first_turn=False,
            drawn=pool[9],
            table=melds,
            opened=("melds", "melds", *s.opened[2:]),
            openings=(sum(number_of(t) for t in mine), 18 + 9, *s.openings[2:]),
        )

    hand_set(table_id, change)
    return tiles


def table_set(page, server, settings):
    table_id = table_101(page, server, settings)
    tiles = hand_arrange(table_id)
    page_again(page, 12)
    expect(page.locator("#my-moves")).to_have_attribute("data-can", re.compile(r"\btake_okey\b"))
    return table_id, tiles


def meld(page, index):
    return page.locator(f'#table-board .meld[data-meld="{index}"]')


@pytest.mark.parametrize("how", ["mouse", "finger"])
def test_a_tile_dragged_onto_a_bots_meld_is_added_and_one_onto_its_okey_takes_it_back(
    asgi_live_server, browser, celery_worker, settings, django_user_model, how
):
    from games.models import Move

    (user,) = players_make(django_user_model, 1)
    phone = how == "finger"
    viewport = (390, 844) if phone else (1280, 800)
    page = sign_in(browser, asgi_live_server, user, viewport=viewport, has_touch=phone)
    table_id, t = table_set(page, asgi_live_server, settings)
    move = touch_drag if phone else drag

    # the tile that goes on the bot's run: dragged there, it is added (the rack one tile less)
    expect(meld(page, RUN).locator(".tile")).to_have_count(3)
    move(page, page.locator(f'#rack101 [data-code="{t["add"]}"]'), meld(page, RUN))
    expect(meld(page, RUN).locator(".tile")).to_have_count(4)
    expect(page.locator("#rack101 .rack101-tile")).to_have_count(11)
    expect(page.locator("#table-announce")).to_contain_text("Bot 2")
    assert Move.objects.get(hand__game__table_id=table_id, kind="add").detail["meld"] == 1

    # the tile the okey stands for, dragged onto that meld, takes the okey into the rack
    okey_meld = meld(page, OKEY_MELD)
    expect(okey_meld.locator(f'.tile[data-tile="{t["okey"]}"]')).to_have_count(1)
    move(page, page.locator(f'#rack101 [data-code="{t["take"]}"]'), okey_meld)
    expect(okey_meld.locator(f'.tile[data-tile="{t["okey"]}"]')).to_have_count(0)
    expect(okey_meld.locator(f'.tile[data-tile="{t["take"]}"]')).to_have_count(1)
    expect(page.locator(f'#rack101 [data-code="{t["okey"]}"]')).to_have_count(1)
    expect(page.locator("#table-announce")).to_contain_text("okey")
    assert Move.objects.filter(hand__game__table_id=table_id, kind="take_okey").count() == 1

    # the okey dragged onto the player's own pile: asked first (it costs +101), then thrown
    asked = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    move(page, page.locator(f'#rack101 [data-code="{t["okey"]}"]'), page.locator("#pile-0"))
    expect(page.locator("#seat-0 [data-penalties]")).to_have_attribute("data-penalties", "1")
    assert asked and "+101" in asked[0]
    expect(page.locator(f'#rack101 [data-code="{t["okey"]}"]')).to_have_count(0)
    assert Move.objects.filter(hand__game__table_id=table_id, kind="discard").count() == 1


def test_the_moves_on_melds_are_played_from_the_keyboard(
    asgi_live_server, browser, celery_worker, settings, django_user_model
):
    (user,) = players_make(django_user_model, 1)
    page = sign_in(browser, asgi_live_server, user)
    _, t = table_set(page, asgi_live_server, settings)
    # a tile is chosen with the keyboard, then the meld: the tile goes on it
    page.locator(f'#rack101 [data-code="{t["add"]}"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator(f'#rack101 [data-code="{t["add"]}"]')).to_have_attribute(
        "aria-selected", "true"
    )
    meld(page, RUN).focus()
    page.keyboard.press("Enter")
    expect(meld(page, RUN).locator(".tile")).to_have_count(4)
    # and the okey's tile, with the space bar, takes the okey back
    page.locator(f'#rack101 [data-code="{t["take"]}"]').focus()
    page.keyboard.press(" ")
    meld(page, OKEY_MELD).focus()
    page.keyboard.press(" ")
    expect(page.locator(f'#rack101 [data-code="{t["okey"]}"]')).to_have_count(1)
    expect(page.locator("#table-announce")).to_contain_text("okey")
