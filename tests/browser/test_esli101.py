"""An Eşli 101 game with an invited partner, as the two players play it: the manager opens an
Eşli 101 table of one hand (the fewest the options allow) from the lobby, invites a partner by
e-mail into the seat opposite, the partner (signed in) takes it from the link, the manager
starts with bots in the other two seats, and each of the two plays their turns on their own page
(draw, then discard a tile that costs nothing) until the game is over: both see the game's
places with the teams, and the game is stored with its one hand.
"""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from .play101_support import SEED_HEX, choose
from .play_support import players_make, sign_in, wait_db
from .test_invites import invite_link, partner_invite

pytestmark = pytest.mark.browser


def turn_play(page) -> bool:
    """One step of this player's turn if it is theirs (draw, or a discard that is not işlek nor
    the okey); whether they moved."""
    moves = page.locator("#my-moves")
    if not moves.count():
        return False
    can = moves.get_attribute("data-can") or ""
    if "draw" in can:
        page.locator("#my-moves [data-move=draw]").click()
        page.wait_for_function(
            "() => !(document.getElementById('my-moves').dataset.can || '').includes('draw')"
        )
        return True
    if "discard" in can:
        islek = {p.split(":")[0] for p in (moves.get_attribute("data-islek") or "").split()}
        codes = page.eval_on_selector_all("#rack-data .tile", "els => els.map(e => e.dataset.tile)")
        safe = [c for c in codes if c not in islek] or codes
        choose(page, [safe[-1]])
        page.locator("[data-act101=discard]").click()
        page.wait_for_function(
            "() => !(document.getElementById('my-moves').dataset.can || '').includes('discard')"
        )
        return True
    return False


def test_an_esli_101_game_with_an_invited_partner_is_played_to_its_end(
    asgi_live_server, browser, celery_worker, settings, django_user_model
):
    from games.models import Game, Table

    server = asgi_live_server
    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    settings.OKEY_BOT_PAUSE = (0.05, 0.15)
    manager_user, partner_user = players_make(django_user_model, 2)
    manager = sign_in(browser, server, manager_user)
    manager.on("dialog", lambda d: d.dismiss())

    table = partner_invite(manager, server, "esli101", partner_user.email)
    assert table.variant == "esli101"
    expect(manager.locator('.seat[data-seat="2"] .seat-name')).to_have_text("davetli bekleniyor")

    partner = sign_in(browser, server, partner_user)
    partner.on("dialog", lambda d: d.dismiss())
    partner.goto(invite_link(server))
    partner.get_by_role("button", name="3. yere otur").click()
    partner.wait_for_url(server.url + f"/table/{table.pk}/")
    expect(partner.locator('.seat[data-seat="2"] .badge--team')).to_have_text("Takım A")
    expect(manager.locator('.seat[data-seat="2"] .seat-name')).to_have_text("Oyuncu 2")

    manager.locator("[data-start]").click()
    for page in (manager, partner):
        expect(page.locator("#table-page.is-live")).to_have_count(1)
        expect(page.locator("#rack101 .rack101-tile")).not_to_have_count(0, timeout=25_000)
    expect(manager.locator('.seat[data-seat="1"] .badge--team')).to_have_text("Takım B")

    # the two play their turns on their own pages until the game is over
    over = '#table-board .result #result-title:has-text("Oyun bitti")'
    while not manager.locator(over).count():
        moved = [turn_play(page) for page in (manager, partner)]
        if not any(moved):
            try:  # a bot's turn, or the other player's: wait for the next frame's news
                manager.wait_for_function(
                    "() => (document.getElementById('my-moves')?.dataset.can || '') !== '' || "
                    "!!document.querySelector('#table-board .result')",
                    timeout=1_000,
                )
            except PlaywrightTimeout:
                pass

    game = wait_db(lambda: Game.objects.filter(table=table, results__isnull=False).first())
    assert game.results["hands"] == 1
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    for page in (manager, partner):
        result = page.locator("#table-board .result")
        expect(result.locator("#result-title")).to_have_text("Oyun bitti")
        expect(result.locator(".result-table").first.locator("tbody tr")).to_have_count(4)
        expect(result).to_contain_text("Oyuncu 1 & Oyuncu 2")
        # and the partners are asked whether to play again, as at a Düz table's end
        expect(result.locator("#rematch")).to_contain_text("Yeniden oynayalım mı?")
    manager.context.close()
    partner.context.close()
