"""axe-core (tests/vendor/, from npm) on the pages people use: no serious or critical
accessibility violation on the home page, sign-up, the lobby, a table mid-hand, a hand's result,
the profile and the leaderboard (its Okey and 101 boards), and the pages issue 42 changed."""

from pathlib import Path

import pytest

from .play_support import sign_in, table_ready
from .test_phone import four
from .test_results import hand_over

__all__ = ["four", "hand_over"]  # fixtures of test_phone and test_results

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe-core-4.14.1" / "axe.min.js"
# axe goes into the page as a script of the test's own, which the site's Content-Security-Policy
# rightly refuses (no inline script): these contexts let it in. The policy itself is checked
# with it on, in tests/security/test_f13_csp.py.
NO_CSP = {"bypass_csp": True}


def violations(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
            const r = await axe.run(document, {resultTypes: ['violations']});
            return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
                .map(v => v.id + ' (' + v.impact + '): ' + v.help + ' — '
                     + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
        }"""
    )
    return found


def test_public_pages_have_no_serious_violation(asgi_live_server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, **NO_CSP)
    try:
        page = context.new_page()
        for path in ("/", "/accounts/signup/", "/leaderboard/", "/leaderboard/?rating=101"):
            page.goto(asgi_live_server.url + path)
            assert violations(page) == [], path
    finally:
        context.close()


def test_a_players_pages_have_no_serious_violation(asgi_live_server, browser, four):
    users, table = four
    page = sign_in(browser, asgi_live_server, users[0], **NO_CSP)
    try:
        page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
        table_ready(page, 15)
        assert violations(page) == [], "a table mid-hand"
        for path in ("/", "/profile/", "/leaderboard/", "/leaderboard/?rating=101"):
            page.goto(asgi_live_server.url + path)
            assert violations(page) == [], path
    finally:
        page.context.close()


def test_a_hands_result_has_no_serious_violation(asgi_live_server, browser, hand_over):
    users, table, _final = hand_over
    page = sign_in(browser, asgi_live_server, users[1], viewport=(390, 844), **NO_CSP)
    try:
        page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
        page.locator("#table-board .result").wait_for()
        assert violations(page) == [], "a hand's result"
    finally:
        page.context.close()


def test_the_pages_of_issue_42_have_no_serious_violation(asgi_live_server, browser, four):
    """The leave control open at a table, the one-game card, the privacy notice, the e-mail and
    second-factor pages, an invitation with its "decline", and a guest's lobby (with the pace),
    profile and sign-up."""
    from games.invites.services import invite_create, token_hash
    from games.models import Invite
    from games.table.create import table_create

    users, table = four
    server = asgi_live_server
    open_table = table_create(manager=users[1], options={"seats": 2})
    invite = invite_create(
        table_id=open_table.pk, inviter=users[1], email="misafir@example.com", seat_index=1
    )
    token = "t" * 43
    Invite.objects.filter(pk=invite.pk).update(token_hash=token_hash(token))
    page = sign_in(browser, server, users[0], **NO_CSP)
    try:
        page.goto(f"{server.url}/table/{table.pk}/")
        table_ready(page, 15)
        page.locator("#game-leave summary").click()
        assert violations(page) == [], "the leave control"
        page.goto(server.url + "/")
        page.get_by_role("button", name="Hızlı oyun · Düz Okey").click()
        page.locator("#game-running").wait_for()
        assert violations(page) == [], "the one-game card"
        for path in ("/privacy/", "/accounts/email/", "/accounts/2fa/", f"/invite/{token}/"):
            page.goto(server.url + path)
            assert violations(page) == [], path
    finally:
        page.context.close()
    context = browser.new_context(viewport={"width": 390, "height": 844}, **NO_CSP)
    try:
        guest = context.new_page()
        guest.goto(server.url + "/")
        assert violations(guest) == [], "the lobby, a visitor's"
        guest.locator("[data-guest-play]").click()
        guest.wait_for_url(lambda url: "/table/" in url)
        for path in ("/", "/profile/", "/guest/signup/"):
            guest.goto(server.url + path)
            assert violations(guest) == [], f"{path}, a guest's"
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_lobbys_choice_of_game_has_no_serious_violation(
    asgi_live_server, browser, django_user_model, viewport
):
    """Quick play's four games and the custom table's form with each game chosen (its options
    change with it: katlamalı for 101, the players for Eşli)."""
    from .play_support import players_make

    (user,) = players_make(django_user_model, 1)
    page = sign_in(browser, asgi_live_server, user, viewport=viewport, **NO_CSP)
    try:
        page.goto(asgi_live_server.url + "/")
        assert page.locator("[data-quick]").count() == 4
        for mode in ("duz", "esli", "101", "esli101"):
            page.locator("#id_mode").select_option(mode)
            assert violations(page) == [], mode
    finally:
        page.context.close()
