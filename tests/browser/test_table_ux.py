"""The table as a player handles it: the chosen tile across Seri diz and Çift diz, the pairs
confirmation, refusals that leave the buttons free, drags that select no text, tap to move, the
keyboard alone; the language switch on every page, the lobby's form, no invite panel among bots.

A duel (two seats, the fixed deal of test_play) unless said otherwise: seat 0 opens with 15 tiles.
"""

import pytest
from playwright.sync_api import expect

from .play_support import (
    box_of,
    drag,
    layout_changed,
    layout_of,
    players_make,
    table_ready,
    touch_drag,
    version_of,
    wait_version,
)
from .test_play import duel, opening_discard, sign_in

__all__ = ["duel", "sign_in"]  # fixtures shared with test_play

pytestmark = pytest.mark.browser


def at_table(page, server, table, tiles):
    """``page`` at the table, once its socket has shown the rack of ``tiles`` tiles."""
    page.goto(f"{server.url}/table/{table.pk}/")
    table_ready(page, tiles)
    return page


def rack_tile(page, slot):
    return page.locator("#rack .slot").nth(slot).locator(".tile")


def chosen(page) -> list[str]:
    return page.eval_on_selector_all(
        "#rack .tile.is-selected", "els => els.map(e => e.dataset.tile)"
    )


def test_the_chosen_tile_stays_chosen_through_seri_and_cift_diz(asgi_live_server, sign_in, duel):
    users, table = duel
    page = at_table(sign_in(users[0]), asgi_live_server, table, 15)
    before = layout_of(page)
    tile = before[4]
    rack_tile(page, 4).click()
    assert chosen(page) == [tile]
    for how in ("runs", "pairs"):
        shown = layout_of(page)
        page.locator(f'[data-arrange="{how}"]').click()
        layout_changed(page, shown)
        assert chosen(page) == [tile], how
        expect(page.locator('[data-act="discard"]')).to_be_enabled()
    version = version_of(page)
    page.locator('[data-act="discard"]').click()
    wait_version(page, version + 1)
    expect(page.locator("#pile-0 .pile-top .tile")).to_have_attribute("data-tile", tile)


def test_declaring_pairs_asks_first_and_can_be_called_off(asgi_live_server, sign_in, duel):
    users, table = duel
    page = at_table(sign_in(users[0]), asgi_live_server, table, 15)
    version = version_of(page)
    dialog = page.locator("#pairs-confirm")
    page.locator('#my-moves [data-move="pairs"]').click()
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Şimdi değil").click()
    expect(dialog).to_be_hidden()
    page.wait_for_timeout(500)  # a move, had one gone, would be back by now
    assert version_of(page) == version
    expect(page.locator("#seat-0")).not_to_contain_text("çifte gidiyor")

    page.locator('#my-moves [data-move="pairs"]').click()
    dialog.locator("[data-confirm-pairs]").click()
    wait_version(page, version + 1)
    expect(page.locator("#seat-0")).to_contain_text("çifte gidiyor")


def test_a_refusal_leaves_the_rack_buttons_free(asgi_live_server, sign_in, duel):
    users, table = duel
    page = sign_in(users[1])  # not their turn: a discard is refused
    page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
    table_ready(page, 14)
    rack_tile(page, 0).click()
    rack_tile(page, 0).press("d")
    message = page.locator("#table-message")
    expect(message).to_contain_text("Sıra sizde değil")
    box = box_of(message)
    buttons = page.locator(".rack-tools button, #my-moves button")
    for k in range(buttons.count()):
        b = box_of(buttons.nth(k))
        apart = (
            b["x"] >= box["x"] + box["width"]
            or b["x"] + b["width"] <= box["x"]
            or b["y"] >= box["y"] + box["height"]
            or b["y"] + b["height"] <= box["y"]
        )
        assert apart, f"the message covers {buttons.nth(k).inner_text()}"
    # and what is under the message still takes a tap
    seat = page.locator("#seat-1")
    under = page.evaluate(
        "([x, y]) => !!document.elementFromPoint(x, y).closest('#table-message')",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert not under
    expect(seat).to_be_visible()


def test_a_drag_that_misses_the_tiles_selects_no_text(asgi_live_server, sign_in, duel):
    users, table = duel
    page = at_table(sign_in(users[0]), asgi_live_server, table, 15)
    drag(page, page.locator("#seat-1 .seat-name"), page.locator(".rack-tools"))
    assert page.evaluate("window.getSelection().toString()") == ""
    assert layout_of(page) == layout_of(page)  # the rack is as it was


def test_tap_a_tile_then_a_slot_or_the_pile(asgi_live_server, browser, duel):
    from .play_support import sign_in as sign_in_page

    users, table = duel
    page = sign_in_page(
        browser, asgi_live_server, users[0], viewport=(390, 844), has_touch=True, is_mobile=True
    )
    try:
        page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
        table_ready(page, 15)
        before = layout_of(page)
        free = before.index(None)
        rack_tile(page, 0).tap()
        page.locator("#rack .slot").nth(free).tap()
        after = layout_of(page)
        assert after[free] == before[0] and after[0] is None
        # the chosen tile goes with it: a tap on the own pile discards it
        version = version_of(page)
        page.locator("#pile-0").tap()
        wait_version(page, version + 1)
        expect(page.locator("#pile-0 .pile-top .tile")).to_have_attribute("data-tile", before[0])
        table_ready(page, 14)
    finally:
        page.context.close()


def test_drag_a_tile_with_a_finger(asgi_live_server, browser, duel):
    from .play_support import sign_in as sign_in_page

    users, table = duel
    page = sign_in_page(
        browser, asgi_live_server, users[0], viewport=(844, 390), has_touch=True, is_mobile=True
    )
    try:
        page = at_table(page, asgi_live_server, table, 15)
        before = layout_of(page)
        touch_drag(page, rack_tile(page, 1), page.locator("#rack .slot").nth(20))
        after = layout_of(page)
        assert after[20] == before[1] and after[1] is None
        version = version_of(page)
        touch_drag(page, rack_tile(page, 20), page.locator("#pile-0"))
        wait_version(page, version + 1)
        expect(page.locator("#pile-0 .pile-top .tile")).to_have_attribute("data-tile", before[1])
    finally:
        page.context.close()


def test_a_whole_turn_with_the_keyboard_alone(asgi_live_server, sign_in, duel):
    users, table = duel
    opening_discard(table, users[0])
    page = at_table(sign_in(users[1]), asgi_live_server, table, 14)
    version = version_of(page)

    def tab_to(selector, limit=80):
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate(f"!!document.activeElement.matches({selector!r})"):
                return
        raise AssertionError(f"Tab never reaches {selector}")

    tab_to('[data-move="draw"]')
    page.keyboard.press("Enter")
    wait_version(page, version + 1)
    table_ready(page, 15)
    tab_to("#rack .tile")
    page.keyboard.press("ArrowRight")
    tile = page.evaluate("document.activeElement.dataset.tile")
    page.keyboard.press("Enter")
    assert chosen(page) == [tile]
    page.keyboard.press("d")
    wait_version(page, version + 2)
    expect(page.locator("#pile-1 .pile-top .tile")).to_have_attribute("data-tile", tile)


@pytest.mark.parametrize("signed_in", [False, True])
def test_the_language_switches_both_ways_on_every_page(
    asgi_live_server, browser, page, duel, signed_in
):
    from .play_support import sign_in as sign_in_page

    users, table = duel
    server = asgi_live_server
    paths = ["/", "/leaderboard/", f"/table/{table.pk}/", f"/table/{table.pk}/hand/1/verify/"]
    if signed_in:
        page = sign_in_page(browser, server, users[0])
        paths += ["/profile/", "/profile/edit/"]
    else:
        paths += ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
    try:
        for path in paths:
            page.goto(server.url + path)
            switch = page.locator(".site-header .lang-switch")
            switch.locator('button[value="en"]').click()
            expect(page).to_have_url(f"{server.url}/en{path}")
            expect(page.locator("html")).to_have_attribute("lang", "en")
            switch.locator('button[value="tr"]').click()
            expect(page).to_have_url(server.url + path)
            expect(page.locator("html")).to_have_attribute("lang", "tr")
    finally:
        if signed_in:
            page.context.close()


def test_the_lobby_form_lines_its_fields_up(asgi_live_server, sign_in, duel):
    users, _table = duel
    page = sign_in(users[0])
    page.goto(asgi_live_server.url + "/")
    boxes = page.eval_on_selector_all(
        ".create-grid .field:not(.field--check)",
        """fields => fields.map(f => {
            const a = f.getBoundingClientRect();
            const i = f.querySelector('input, select').getBoundingClientRect();
            return {left: a.left, top: i.top, height: i.height};
        })""",
    )
    assert len(boxes) >= 5
    rows = {}
    for b in boxes:
        # fields of one row of the grid: their inputs start together and are as tall
        row = min(rows, key=lambda y: abs(y - b["top"]), default=None)
        if row is None or abs(row - b["top"]) > 30:
            rows[b["top"]] = [b]
        else:
            rows[row].append(b)
    assert any(len(r) > 1 for r in rows.values())
    for r in rows.values():
        assert max(b["top"] for b in r) - min(b["top"] for b in r) < 1, r
        assert max(b["height"] for b in r) - min(b["height"] for b in r) < 1, r


def test_no_invite_panel_at_a_table_of_bots(asgi_live_server, sign_in, django_user_model):
    # a player in no other game: one running game per account (tests/security/test_f06)
    (user,) = players_make(django_user_model, 1)
    page = sign_in(user)
    page.goto(asgi_live_server.url + "/")
    page.locator("[data-bots-table]").click()
    page.wait_for_url("**/table/*/")
    expect(page.locator(".seat .seat-name")).to_have_text(["Bot 1", "Bot 2", "Bot 3", "Bot 4"])
    expect(page.locator("#invites")).to_have_count(0)
