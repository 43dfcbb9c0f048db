"""Start refused while another game of the manager's runs: the page says which table, links it,
offers to leave that game, keeps the Start button, and covers nothing of the header."""

import pytest
from playwright.sync_api import expect

from .play_support import box_of, players_make, sign_in
from .test_play import SEED_HEX

pytestmark = pytest.mark.browser


def test_a_start_refused_for_another_game_says_where_and_offers_to_leave_it(
    asgi_live_server, browser, settings, django_user_model
):
    from games.table.create import table_create
    from tests.games.conftest import game_started, table_full

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    users = players_make(django_user_model, 4)
    running = game_started(table_full(users))
    lone = table_create(manager=users[0], options={"bots_fill": True})
    page = sign_in(browser, asgi_live_server, users[0])
    try:
        page.goto(f"{asgi_live_server.url}/table/{lone.pk}/")
        start = page.locator("[data-start]")
        start.click()
        refusal = page.locator("#game-running")
        expect(refusal).to_be_visible()
        expect(refusal).to_contain_text(f"{running.pk} numaralı masadaki oyununuz sürüyor")
        link = refusal.get_by_role("link", name=f"{running.pk} numaralı masaya git")
        expect(link).to_have_attribute("href", f"/table/{running.pk}/")
        expect(start).to_be_visible()  # the button stays, for after the other game
        expect(start).to_be_enabled()
        head, note = box_of(page.locator(".table-head")), box_of(refusal)
        assert note["y"] >= head["y"] + head["height"], "the refusal covers the header"
        message = page.locator("#table-message")
        if message.is_visible():  # nothing passing over the header either
            box = box_of(message)
            assert box["y"] >= head["y"] + head["height"], "a message covers the header"

        refusal.get_by_role("button", name=f"{running.pk} numaralı masadaki oyundan ayrıl").click()
        page.wait_for_url(f"{asgi_live_server.url}/table/{lone.pk}/")
        page.locator("[data-start]").click()
        expect(page.locator("#centre .start-countdown")).to_be_visible()
    finally:
        page.context.close()
