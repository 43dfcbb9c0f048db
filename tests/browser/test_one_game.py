"""One game at a time, as a player meets it (issue 42): a seat at another table, quick play and
the first hand are refused while a game of theirs runs, each with the card a table's Start
shows (which tables, a link to each, a way to leave); and "My tables" names a table's mode as
the lobby's card beside it does."""

import re

import pytest
from playwright.sync_api import expect

from .play_support import players_make, sign_in
from .test_play import SEED_HEX

pytestmark = pytest.mark.browser


def test_a_player_in_a_game_is_refused_a_seat_at_another_table_with_the_card(
    asgi_live_server, browser, settings, django_user_model
):
    """Bug 2: a player in a game under way could sit at another open table and, once its
    manager started it, play both."""
    from games.models import Seat
    from games.table.create import table_create
    from tests.games.conftest import game_started, table_full

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    users = players_make(django_user_model, 3)
    running = game_started(table_full(users[:2], seats=2))
    other = table_create(manager=users[2], options={"seats": 2})
    page = sign_in(browser, asgi_live_server, users[1])
    try:
        page.goto(f"{asgi_live_server.url}/table/{other.pk}/")
        page.locator("#seat-1").get_by_role("button", name="Buraya otur").click()
        card = page.locator("#game-running")
        expect(card).to_be_visible()
        expect(card).to_contain_text(f"{running.pk} numaralı masadaki oyununuz sürüyor")
        expect(card.get_by_role("link", name=f"{running.pk} numaralı masaya git")).to_be_visible()
        expect(
            card.get_by_role("button", name=f"{running.pk} numaralı masadaki oyundan ayrıl")
        ).to_be_visible()
        assert not Seat.objects.filter(table=other, user=users[1]).exists()

        # the lobby's "Sit" is refused the same way
        page.goto(f"{asgi_live_server.url}/")
        lobby_sit = page.locator(f'.table-item[data-table="{other.pk}"] form button')
        lobby_sit.first.click()
        card = page.locator("#game-running")
        expect(card).to_be_visible()
        expect(card).to_contain_text(f"{running.pk} numaralı masadaki oyununuz sürüyor")
        assert not Seat.objects.filter(table=other, user=users[1]).exists()
    finally:
        page.context.close()


def test_quick_play_in_a_game_shows_the_card_naming_every_running_game(
    asgi_live_server, browser, settings, django_user_model
):
    """Bug 6: Quick play while in a game redirected without a word; the refusal named one
    running game where there were more; the first hand could be started beside a game."""
    from games.table.bots import bot_table_create
    from tests.games.conftest import game_started, table_full

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    users = players_make(django_user_model, 2)
    # two games at once, as an account with a higher allowance, or from before the rule, has
    running = game_started(table_full(users, seats=2))
    watched = bot_table_create(manager=users[0], options={"seats": 2})
    page = sign_in(browser, asgi_live_server, users[0])
    try:
        page.goto(f"{asgi_live_server.url}/")
        page.get_by_role("button", name="Hızlı oyun · Düz Okey").click()
        card = page.locator("#game-running")
        expect(card).to_be_visible()
        expect(page).to_have_url(f"{asgi_live_server.url}/play/quick/")
        expect(card).to_contain_text(
            f"{watched.pk}, {running.pk} numaralı masalardaki oyunlarınız sürüyor"
        )
        for pk in (running.pk, watched.pk):
            link = card.get_by_role("link", name=f"{pk} numaralı masaya git")
            expect(link).to_have_attribute("href", f"/table/{pk}/")
        # only the game they sit at can be left; the bots' table they watch has nothing to leave
        leave = card.get_by_role("button", name=re.compile("numaralı masadaki oyundan ayrıl"))
        expect(leave).to_have_count(1)
        expect(leave).to_have_text(f"{running.pk} numaralı masadaki oyundan ayrıl")

        # the first hand is refused the same way
        page.goto(f"{asgi_live_server.url}/rules/")
        page.get_by_role("button", name="İlk elinizi bir koçla oynayın").first.click()
        card = page.locator("#game-running")
        expect(card).to_be_visible()
        expect(card).to_contain_text(f"{running.pk} numaralı masalardaki oyunlarınız sürüyor")

        # leaving the game from the card: back to the rules, and one game still runs
        card.get_by_role("button", name=f"{running.pk} numaralı masadaki oyundan ayrıl").click()
        expect(page).to_have_url(f"{asgi_live_server.url}/rules/")
    finally:
        page.context.close()


def test_my_tables_names_an_esli_table_esli(asgi_live_server, browser, django_user_model):
    """Bug 5: "My tables" called an Eşli table "Düz Okey" beside the lobby's card saying Eşli."""
    from games.table.create import table_create

    (user,) = players_make(django_user_model, 1)
    table = table_create(manager=user, options={"mode": "esli"})
    page = sign_in(browser, asgi_live_server, user)
    try:
        page.goto(f"{asgi_live_server.url}/")
        mine = page.locator(f'#my-tables .table-item[data-table="{table.pk}"]')
        expect(mine).to_contain_text("Eşli Okey")
        expect(mine).not_to_contain_text("Düz Okey")
    finally:
        page.context.close()
