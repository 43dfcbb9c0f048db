"""Your data, as a player sees it: deleting one's account (no log-in afterwards, and no trace of
the name on the leaderboard or in an old game's results), downloading one's data, the privacy
page under axe, and the site's own 404 page in each language with DEBUG off."""

import json
import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Move
from games.staff.services import game_end
from tests.games.conftest import game_started, table_full

from .conftest import live_server_run
from .play_support import PASSWORD, plan_play, players_make, sign_in
from .test_axe import NO_CSP, violations
from .test_play import SEED_HEX, hand_seed

pytestmark = pytest.mark.browser


@pytest.fixture
def finished(settings, django_user_model):
    """Four players (Oyuncu 1-4) after a rated game: its first hand played out (seat 1
    finishes it), then ended by staff. (users, table)"""
    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    users = players_make(django_user_model, 4)
    table = game_started(table_full(users))
    plan_play(users, table, hand_seed(1))
    staff = django_user_model.objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    game_end(table_id=table.pk, staff=staff)
    assert Game.objects.get(table=table).results["hands"] == 1
    return users, table


def test_a_player_deletes_their_account_and_leaves_no_trace(finished, asgi_live_server, browser):
    users, table = finished
    server = asgi_live_server
    page = sign_in(browser, server, users[0])
    try:
        main = page.locator("main")
        page.goto(server.url + "/leaderboard/")
        expect(main.get_by_role("link", name="Oyuncu 1", exact=True)).to_be_visible()

        page.goto(server.url + "/profile/")
        page.get_by_role("link", name="Hesabımı sil").click()
        expect(page.get_by_role("heading", name="Hesabınızı silin")).to_be_visible()
        page.get_by_label("Şifreniz").fill("not my password")
        page.get_by_role("button", name="Hesabımı kalıcı olarak sil").click()
        expect(page.get_by_role("alert")).to_contain_text("Bu sizin şifreniz değil.")
        page.get_by_label("Şifreniz").fill(PASSWORD)
        page.get_by_role("button", name="Hesabımı kalıcı olarak sil").click()
        expect(page).to_have_url(server.url + "/")
        expect(page.get_by_text("Hesabınız silindi. Hoşça kalın!")).to_be_visible()
        nav = page.get_by_role("navigation", name="Ana")
        expect(nav.get_by_role("link", name="Giriş yap")).to_be_visible()

        # no way back in
        page.goto(server.url + "/accounts/login/")
        page.locator("main form.form input[name=login]").fill(users[0].email)
        page.locator("main form.form input[name=password]").fill(PASSWORD)
        page.locator("main form.form button[type=submit]").click()
        expect(page.get_by_role("alert")).to_be_visible()
        expect(page).to_have_url(re.compile(r"/accounts/login/$"))

        # the leaderboard and the old game's results know them no more
        page.goto(server.url + "/leaderboard/")
        expect(main.get_by_role("link", name="Oyuncu 2", exact=True)).to_be_visible()
        expect(page.get_by_text("Oyuncu 1", exact=True)).to_have_count(0)
        page.goto(f"{server.url}/table/{table.pk}/")
        expect(page.locator("#table-board")).to_contain_text("Silinmiş oyuncu")
        assert "Oyuncu 1" not in page.content()
        page.goto(f"{server.url}/profile/{users[1].pk}/")
        expect(page.get_by_role("heading", name="Oyuncu 2")).to_be_visible()
        assert "Oyuncu 1" not in page.content()
    finally:
        page.context.close()


def test_an_export_downloads_and_holds_their_games(finished, asgi_live_server, browser):
    users, table = finished
    me = users[2]  # seat 3: did not finish the hand, so nothing of anyone's rack was shown to all
    page = sign_in(browser, asgi_live_server, me)
    try:
        page.goto(asgi_live_server.url + "/profile/")
        with page.expect_download() as download:
            page.get_by_role("button", name="Verilerimi indir").click()
        assert download.value.suggested_filename.startswith(f"okey-data-{me.pk}-")
        data = json.loads(open(download.value.path(), encoding="utf-8").read())
    finally:
        page.context.close()
    assert data["profile"]["display_name"] == "Oyuncu 3"
    assert [g["table"] for g in data["games"]] == [table.pk]
    [hand] = data["hands"]
    mine = list(Move.objects.filter(user=me).order_by("seq"))
    assert [m["number"] for m in hand["moves"]] == [m.seq for m in mine] and mine
    # a discard names its tile as the log does; a draw names the tile the player drew (theirs:
    # issue 42), which the log keeps for nobody
    stored = {x.seq: x.tile for x in mine}
    assert all(m["tile"] == stored[m["number"]] for m in hand["moves"] if stored[m["number"]])
    assert all(m["tile"] for m in hand["moves"] if m["kind"] in ("draw", "take"))
    others = Move.objects.filter(hand__game__table=table).exclude(user=me)
    assert len(hand["moves"]) < Move.objects.filter(hand__game__table=table).count()
    assert not {m.seq for m in others} & {m["number"] for m in hand["moves"]}
    assert hand["result"]["your_groups"] is None  # the finisher's groups are not theirs


def test_the_privacy_page_has_no_serious_violation(asgi_live_server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, **NO_CSP)
    try:
        page = context.new_page()
        for path in ("/privacy/", "/en/privacy/"):
            page.goto(asgi_live_server.url + path)
            assert violations(page) == [], path
    finally:
        context.close()


@pytest.fixture(scope="module")
def production_server(django_db_setup, tmp_path_factory):
    """The site with DEBUG off, as in production: Django's own error pages are not shown."""
    options = {"DEBUG": False, "WHITENOISE_USE_FINDERS": True, "WHITENOISE_AUTOREFRESH": True}
    with live_server_run(tmp_path_factory.mktemp("production"), **options) as server:
        yield server


@pytest.mark.parametrize(
    "path, heading, lobby",
    [
        ("/masa-yok/", "Sayfa bulunamadı", "Lobiye git"),
        ("/en/no-table/", "Page not found", "Go to the lobby"),
    ],
)
def test_a_missing_page_in_each_language(production_server, page, path, heading, lobby):
    response = page.goto(production_server.url + path)
    assert response.status == 404
    expect(page.get_by_role("heading", name=heading)).to_be_visible()
    expect(page.locator("header.site-header")).to_be_visible()
    assert "Traceback" not in page.content() and "urlpatterns" not in page.content()
    page.get_by_role("link", name=lobby).click()
    expect(page.get_by_role("heading", level=1)).not_to_have_text(heading)
