"""Bots and timeouts in the browser: people watch four bots play a whole game; a player who
closes the page is played for, marked away, and comes back to the table as it is.

The Celery worker (tests/browser/conftest.py: celery_worker) runs in this process: it deals,
plays the bots (with short pauses, OKEY_BOT_PAUSE) and the timeouts. The start countdown is the
live server's: 10 seconds.
"""

import pytest
from playwright.sync_api import expect

from tests.games.timing import turn_due_in

from .play_support import players_make, sign_in, table_ready, version_of, wait_db

pytestmark = pytest.mark.browser


def table_of(page) -> int:
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def test_people_watch_four_bots_play_a_whole_game(
    asgi_live_server, browser, celery_worker, settings, django_user_model
):
    from games.models import Game, Move

    settings.OKEY_BOT_PAUSE = (0.05, 0.15)
    server = asgi_live_server
    (user,) = players_make(django_user_model, 1)
    page = sign_in(browser, server, user)
    page.goto(server.url + "/")
    page.locator("#id_hand_limit").fill("1")
    page.locator("[data-bots-table]").click()
    page.wait_for_url("**/table/*/")
    table_id = table_of(page)
    # somebody who is not signed in watches too
    watcher = browser.new_context(locale="tr-TR").new_page()
    watcher.goto(page.url)

    for p in (page, watcher):
        expect(p.locator(".seat .seat-name")).to_have_text(["Bot 1", "Bot 2", "Bot 3", "Bot 4"])
        expect(p.locator(".start-countdown")).to_be_visible()
        expect(p.locator("#rack")).to_have_count(0)  # nobody's rack to show

    # the deal, then the bots move: every page follows without reloading
    expect(watcher.locator(".stock-count")).to_be_visible(timeout=20_000)
    first = version_of(watcher)
    watcher.wait_for_function(
        "v => Number(document.getElementById('table-version').dataset.version) >= v",
        arg=first + 6,
        timeout=20_000,
    )
    assert Move.objects.filter(hand__game__table_id=table_id).exists()
    game = wait_db(lambda: Game.objects.filter(table_id=table_id, results__isnull=False).first())
    assert game.results["hands"] == 1
    for p in (page, watcher):
        expect(p.locator("#result-title")).to_have_text("Oyun bitti", timeout=15_000)
        expect(p.locator(".result table").first.locator("tbody tr")).to_have_count(4)
    assert not Move.objects.filter(hand__game__table_id=table_id, auto=False).exists()
    # bots have no account: the leaderboard lists none of them after their game
    page.goto(server.url + "/leaderboard/")
    expect(page.locator("main")).not_to_contain_text("Bot")


def test_a_player_who_closes_the_page_is_played_for_and_comes_back(
    asgi_live_server, browser, celery_worker, settings, django_user_model
):
    from games.models import Hand, Move, Seat, Table

    # the player is seat 1 and plays first (the fixed seed); the bots think a little
    settings.OKEY_TEST_SEED_HEX = "5eed" * 16
    settings.OKEY_BOT_PAUSE = (0.3, 0.5)
    server = asgi_live_server
    (user,) = players_make(django_user_model, 1)
    page = sign_in(browser, server, user)
    page.goto(server.url + "/")
    page.locator(".create-form button[type=submit]").click()  # bots may fill seats: on
    page.wait_for_url("**/table/*/")
    table_url, table_id = page.url, table_of(page)
    page.locator("[data-start]").click()
    expect(page.locator(".seat.is-you .seat-name")).to_be_visible()
    hand = wait_db(lambda: Hand.objects.filter(game__table_id=table_id).first())
    table_ready(page, 15)
    table = Table.objects.get(pk=table_id)

    # the player closes the page; their turn runs out (made short here), twice in a row
    page.context.close()
    seat = Seat.objects.filter(table_id=table_id, user=user)

    def my_turn():
        """the player's turn again"""
        h = Hand.objects.get(pk=hand.pk)
        return h.state["turn"] == 0 and not h.over and h

    for timeouts in (1, 2):
        wait_db(my_turn)
        turn_due_in(table, 0.2)
        wait_db(lambda n=timeouts: seat.get().timeouts_in_row == n)
    assert seat.get().away
    auto = Move.objects.filter(hand=hand, seat=0, auto=True).count()
    assert auto >= 2
    # away: on the next turn the seat is played at once, by the worker alone
    wait_db(lambda: Move.objects.filter(hand=hand, seat=0, auto=True).count() > auto, 20)

    # coming back, the player finds the table as it is, marked away, and says so
    page = sign_in(browser, server, user)
    page.goto(table_url)
    me = page.locator(".seat.is-you")
    expect(me.locator(".badge--warn")).to_be_visible()
    rack = Hand.objects.get(pk=hand.pk).state["racks"][0]
    expect(page.locator("#rack .slot .tile")).to_have_count(len(rack))
    page.locator("#my-moves [data-back]").click()
    expect(me.locator(".badge--warn")).to_have_count(0)
    assert not seat.get().away and seat.get().timeouts_in_row == 0

    # and plays their next turn themselves, from the page
    wait_db(my_turn)
    page.locator(".stock.is-drawable").click()
    page.locator("#rack .slot .tile").first.click()
    page.locator('[data-act="discard"]').click()
    wait_db(lambda: Move.objects.filter(hand=hand, seat=0, auto=False).count() == 2)
