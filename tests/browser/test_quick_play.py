"""Quick play: from a fresh account to a dealt hand in one tap; a second player who taps during
the countdown sits at the same table; the seats nobody took go to bots at the deal."""

import re
import time

import pytest
from playwright.sync_api import expect

from games.table.create import table_create

from .play_support import PASSWORD, players_make, sign_in, table_ready

pytestmark = pytest.mark.browser


def test_quick_play_from_a_fresh_account_to_a_dealt_hand(
    asgi_live_server, browser, page, celery_worker, settings, django_user_model
):
    settings.OKEY_BOT_PAUSE = (0.05, 0.1)
    server = asgi_live_server
    page.goto(server.url + "/accounts/signup/")
    page.get_by_label("E-posta").fill("deniz@example.com")
    page.get_by_label("Görünen ad").fill("Deniz")
    page.get_by_label("Şifre", exact=True).fill(PASSWORD)
    page.get_by_label("Şifre (tekrar)").fill(PASSWORD)
    page.get_by_role("button", name="Kaydol").click()
    deadline = time.monotonic() + 10
    while not server.links("/accounts/confirm-email/") and time.monotonic() < deadline:
        time.sleep(0.1)
    page.goto(server.links("/accounts/confirm-email/")[0])
    page.get_by_role("button", name="Doğrula").click()
    expect(page).to_have_url(server.url + "/")

    page.get_by_role("button", name="Hızlı oyun · Düz Okey").click()
    expect(page).to_have_url(re.compile(r"/table/\d+/$"))
    table_url = page.url
    expect(page.locator(".start-countdown")).to_be_visible()
    expect(page.locator(".seat.is-you .seat-name")).to_have_text("Deniz")

    # another player taps Quick play during the countdown: the same table
    (other,) = players_make(django_user_model, 1)
    second = sign_in(browser, server, other)
    try:
        second.goto(server.url + "/")
        second.get_by_role("button", name="Hızlı oyun · Düz Okey").click()
        expect(second).to_have_url(table_url)
        expect(second.locator(".seat.is-you .seat-name")).to_have_text("Oyuncu 1")
    finally:
        second.context.close()

    # the deal: bots in the two seats nobody took, and a rack for the player
    expect(page.locator("#rack-data[data-hand]")).not_to_have_attribute(
        "data-hand", "", timeout=25_000
    )
    tiles = page.locator("#rack-data .tile").count()
    assert tiles in (14, 15)
    table_ready(page, tiles)
    names = page.locator(".seat .seat-name")
    expect(names).to_have_count(4)
    assert sorted(names.all_inner_texts())[:2] == ["Bot 3", "Bot 4"]


def test_a_shared_table_link_seats_a_visitor_in_one_step(
    asgi_live_server, browser, page, django_user_model
):

    manager, guest = players_make(django_user_model, 2)
    table = table_create(manager=manager, options={"seats": 2})
    page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
    # not signed in: Sit here asks to log in, and the seat is taken on the way back
    page.locator("#seat-1").get_by_role("button", name="Buraya otur").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    page.locator("main form.form input[name=login]").fill(guest.email)
    page.locator("main form.form input[name=password]").fill(PASSWORD)
    page.locator("main form.form button[type=submit]").click()
    expect(page).to_have_url(f"{asgi_live_server.url}/table/{table.pk}/")
    expect(page.locator('.seat.is-you[data-seat="1"]')).to_be_visible()
    assert table.seats.get(index=1).user == guest
