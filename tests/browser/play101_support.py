"""Helpers for the 101 table's browser tests: a table made from the lobby's form and started
with bots, and a hand set up after the deal as a test needs it (``hand_set``)."""

from playwright.sync_api import expect

SEED_HEX = "01" * 32  # the player, seat 1, starts


def hand_set(table_id, change):
    """Replace the current hand's state by ``change(state)`` (the engine's Hand101): the page,
    reloaded, shows it. The turn's clock starts again. The deal's commitment no longer holds:
    this is for what a player does from there, not for the deal."""
    from django.utils import timezone

    from games.models import Table
    from tests.games.helpers import current_hand

    table = Table.objects.get(pk=table_id)
    rules = table.engine_variant
    hand = current_hand(table)
    hand.state = rules.hand_to_dict(change(rules.hand_from_dict(hand.state)))
    hand.turn_started = timezone.now()
    hand.save(update_fields=["state", "turn_started"])


def tiles_pool(s) -> list[int]:
    """Every tile of a freshly dealt hand but the indicator: the stock and the racks."""
    return [*s.stock, *(t for r in s.racks for t in r)]


def table_101(page, server, settings, *, turn_seconds=120, mode="101") -> int:
    """A 101 table of one hand made from the lobby's form and started with bots in the empty
    seats, the deal on the player's page; its id."""
    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    settings.OKEY_BOT_PAUSE = (0.05, 0.15)
    page.goto(server.url + "/")
    page.locator("#id_mode").select_option(mode)
    page.locator("#id_hand_limit").fill("1")
    page.locator("#id_turn_seconds").fill(str(turn_seconds))
    page.locator(".create-form button[type=submit]").click()
    page.wait_for_url("**/table/*/")
    table_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    page.locator("[data-start]").click()
    expect(page.locator("#rack101 .rack101-tile")).to_have_count(22, timeout=25_000)
    return table_id


def page_again(page, tiles):
    """The page reloaded after ``hand_set``, live, with ``tiles`` in the rack."""
    page.reload()
    expect(page.locator("#table-page.is-live")).to_have_count(1)
    expect(page.locator("#rack101 .rack101-tile")).to_have_count(tiles)


def choose(page, codes):
    """Tap each tile of ``codes`` in the rack (a face twice: both copies)."""
    for code in codes:
        page.locator(f'#rack101 [data-code="{code}"][aria-selected="false"]').first.click()
