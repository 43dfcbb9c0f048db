"""Leaving a game as a player finds it (issue 42): the way out is there the moment the deal
arrives, without a reload; leaving a rated game costs the worst that playing it out could, and
the table says so, and what happens next, before the player confirms (docs/rules.md, "Leaving a
rated game"); a practice game says it costs nothing."""

import pytest
from playwright.sync_api import expect

from .play_support import in_a_thread, players_make, sign_in, table_ready
from .test_play import SEED_HEX

pytestmark = pytest.mark.browser


def test_the_way_out_arrives_with_the_deal_without_a_reload(
    asgi_live_server, browser, settings, django_user_model
):
    """Bug 1: with the page left open through the countdown, "Leave the game" was missing until
    the page was reloaded, and the timer played the seat meanwhile."""
    from games.models import Game
    from games.table.create import table_create
    from games.table.lifecycle import game_start

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    (user,) = players_make(django_user_model, 1)
    table = table_create(manager=user, options={"bots_fill": True})
    page = sign_in(browser, asgi_live_server, user)
    try:
        page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
        expect(page.locator("#table-page.is-live")).to_have_count(1)
        page.locator("[data-start]").click()
        expect(page.locator("#centre .start-countdown")).to_be_visible()
        expect(page.get_by_text("Oyundan ayrıl", exact=True)).to_have_count(0)
        # the countdown's end: the deal reaches the open page over its socket
        version = Game.objects.get(table=table).version
        assert in_a_thread(game_start, table_id=table.pk, expected_version=version)
        table_ready(page, 15)
        leave = page.locator("#game-leave")
        expect(leave.get_by_text("Oyundan ayrıl", exact=True)).to_be_visible()
        leave.get_by_text("Oyundan ayrıl", exact=True).click()
        expect(leave.locator("[data-leave-game]")).to_be_visible()
    finally:
        page.context.close()


def test_leaving_a_rated_game_in_its_first_hand_costs_the_worst_result_and_says_so(
    asgi_live_server, browser, settings, django_user_model
):
    """Bug 4: leaving a rated game against bots in its first hand ended it unrated, and the
    warning promised that a bot would play on when the game in fact ended."""
    from games.table.create import table_create
    from tests.games.conftest import game_started

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    (user,) = players_make(django_user_model, 1)
    table = game_started(table_create(manager=user, options={"bots_fill": True}))
    page = sign_in(browser, asgi_live_server, user)
    try:
        page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
        # the socket's first frame swaps the table in, leave control included: opening it before
        # that frame would race the swap (tests/browser/play_support.py table_ready)
        expect(page.locator("#table-page.is-live")).to_have_count(1)
        page.get_by_text("Oyundan ayrıl", exact=True).click()
        leave = page.locator("#game-leave")
        # 4 players, 8 hands: the last place over the whole game, -2 x 8
        expect(leave.locator("[data-leave-cost]")).to_contain_text("16 puan kaybedersiniz")
        expect(leave.locator("[data-leave-then]")).to_have_text(
            "Masada başka kimse kalmadı: oyun şimdi biter."
        )
        leave.get_by_role("button", name="Ayrıl ve 16 puan kaybet").click()
        page.wait_for_url(f"{asgi_live_server.url}/")
        page.goto(f"{asgi_live_server.url}/profile/")
        okey = page.get_by_role("region", name="Okey puanı")  # a Düz game's rating
        expect(okey.locator(".stat", has_text="Puan").locator("dd")).to_have_text("−16")
        page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
        expect(page.locator("#table-board .result")).not_to_contain_text("Puanlı değil")
    finally:
        page.context.close()


def practice_page(server, browser, settings, django_user_model):
    """A practice game with bots, started, and its player's page showing it live."""
    from games.table.create import table_create
    from tests.games.conftest import game_started

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    (user,) = players_make(django_user_model, 1)
    options = {"bots_fill": True, "practice": True}
    table = game_started(table_create(manager=user, options=options))
    page = sign_in(browser, server, user)
    page.goto(f"{server.url}/table/{table.pk}/")
    # the socket's first frame swaps the table in, leave control included: opening it before
    # that frame would race the swap (tests/browser/play_support.py table_ready)
    expect(page.locator("#table-page.is-live")).to_have_count(1)
    return table, page


def test_leaving_a_practice_game_says_it_costs_nothing(
    asgi_live_server, browser, settings, django_user_model
):
    """Leaving a practice game warned of rated games and said "leave and lose this game"."""
    _, page = practice_page(asgi_live_server, browser, settings, django_user_model)
    try:
        leave = page.locator("#game-leave")
        leave.locator("summary").click()
        expect(leave.locator("[data-leave-cost]")).to_have_text(
            "Bu bir alıştırma oyunu: hiçbir şey puana sayılmaz, ayrılmak size bir şey kaybettirmez."
        )
        expect(leave).not_to_contain_text("kaybetmiş sayılır")
        expect(leave.locator("[data-leave-game]")).to_have_text("Oyundan ayrıl")
    finally:
        page.context.close()


def test_the_leave_control_stays_open_when_the_whole_table_comes_again(
    asgi_live_server, browser, settings, django_user_model
):
    """Bug: "Leave the game" shut under the player reading it whenever a full frame (a
    reconnection, a new hand, a change of seats) swapped the table in."""
    from django.db.models import F

    from games.models import Game
    from games.table.publish import table_changed_publish
    from tests.games.helpers import version_of

    table, page = practice_page(asgi_live_server, browser, settings, django_user_model)
    try:
        leave = page.locator("#game-leave")
        leave.locator("summary").click()
        expect(leave.locator("[data-leave-game]")).to_be_visible()
        page.evaluate("() => { document.getElementById('game-leave').dataset.before = '1'; }")
        # the table moves on as a change of its life does (a seat, a new hand): a version up,
        # and each page is sent its whole table (a socket sends no frame it already showed)
        Game.objects.filter(table=table).update(version=F("version") + 1)
        in_a_thread(table_changed_publish, table.pk, version_of(table))
        # the element was swapped for the frame's own (closed in the HTML), and is open
        expect(page.locator("#game-leave:not([data-before])")).to_have_count(1)
        expect(leave).to_have_attribute("open", "")
        expect(leave.locator("[data-leave-game]")).to_be_visible()
    finally:
        page.context.close()
