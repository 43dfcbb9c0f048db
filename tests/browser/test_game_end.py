"""A game's end as its players see it: the hand counter stops at the last hand, a practice game
shows no rating points, and a player who leaves a rated game while it runs loses it (docs/rules.md,
"Leaving a rated game"): their profile shows the loss, not the gain the bots made for them."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from .play_support import in_a_thread, plan_play, players_make, sign_in
from .test_play import SEED_HEX, hand_seed

pytestmark = pytest.mark.browser


def game_over(table, counts, hands):
    """End the game at ``table`` now, as if its hands had left ``counts``: the running hand is
    stopped and the results written (games.table.lifecycle.game_stop)."""
    from django.db import transaction

    from games.table.changes import table_bump, table_lock
    from games.table.lifecycle import game_stop

    with transaction.atomic():
        game, table = table_lock(table.pk)
        game.state = {**game.state, "counts": counts, "hands_played": hands}
        game_stop(game, table, timezone.now())
        table_bump(game, lobby=True)


def test_the_hand_counter_stops_at_the_last_hand(
    asgi_live_server, browser, settings, django_user_model
):
    from tests.games.conftest import game_started, table_full

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    users = players_make(django_user_model, 4)
    table = game_started(table_full(users, hand_limit=1))
    page = sign_in(browser, asgi_live_server, users[0])
    try:
        page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
        expect(page.locator("#turn-line")).to_contain_text("1. el · 1 / 1")
        in_a_thread(plan_play, users, table, hand_seed(1))  # the game's only hand ends
        expect(page.locator("#table-board .result")).to_be_visible()
        expect(page.locator("#turn-line")).to_contain_text("1. el · 1 / 1")
        page.reload()
        expect(page.locator("#turn-line")).to_contain_text("1. el · 1 / 1")
    finally:
        page.context.close()


def test_a_practice_game_shows_no_rating_points(
    asgi_live_server, browser, settings, django_user_model
):
    from games.table.create import table_create
    from tests.games.conftest import game_started

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    (user,) = players_make(django_user_model, 1)
    table = game_started(table_create(manager=user, options={"seats": 2, "practice": True}))
    in_a_thread(game_over, table, [3, 18], hands=3)
    page = sign_in(browser, asgi_live_server, user)
    try:
        page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
        final = page.locator("#table-board .result")
        expect(final).to_contain_text("Oyun bitti")
        game_table = final.locator(".result-table").first
        expect(game_table.locator("thead")).not_to_contain_text("Puan")
        expect(game_table.locator("tbody tr")).to_have_count(2)
        for row in game_table.locator("tbody tr").all():  # place, name, count: no points
            assert not any(sign in row.inner_text() for sign in "+−"), row.inner_text()
        expect(final).to_contain_text("Puanlı değil")
        page.goto(f"{asgi_live_server.url}/profile/")
        okey = page.get_by_role("region", name="Okey puanı")  # a Düz game's rating
        expect(okey.locator(".stat", has_text="Puan").locator("dd")).to_have_text("0")
    finally:
        page.context.close()


def test_a_player_who_leaves_an_esli_game_loses_it(
    asgi_live_server, browser, settings, django_user_model
):
    from tests.games.conftest import game_started, table_full

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    users = players_make(django_user_model, 4)
    table = game_started(table_full(users, mode="esli"))
    leaver = users[2]  # team A with users[0]
    page = sign_in(browser, asgi_live_server, leaver)
    try:
        page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
        # the socket's first frame swaps the table in, leave control included: opening it before
        # that frame would race the swap (tests/browser/play_support.py table_ready)
        expect(page.locator("#table-page.is-live")).to_have_count(1)
        page.get_by_text("Oyundan ayrıl", exact=True).click()
        expect(page.locator(".game-leave")).to_contain_text("kaybetmiş sayılır")
        page.locator("[data-leave-game]").click()
        page.wait_for_url(f"{asgi_live_server.url}/")
        # the bot on the seat and team A's partner play the game out and win it
        in_a_thread(game_over, table, [1, 20, 1, 20], hands=8)
        page.goto(f"{asgi_live_server.url}/profile/")
        okey = page.get_by_role("region", name="Okey puanı")  # an Eşli game's rating
        expect(okey.locator(".stat", has_text="Puan").locator("dd")).to_have_text("−8")
        page.goto(f"{asgi_live_server.url}/leaderboard/")
        row = page.locator("tr", has_text="Oyuncu 3")
        expect(row).to_contain_text("−8")
        page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
        final = page.locator("#table-board .result .result-table").first
        expect(final.locator("tr", has_text="Oyuncu 3")).to_contain_text("oyundan ayrıldı")
    finally:
        page.context.close()
