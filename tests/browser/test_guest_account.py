"""A guest who wants to keep their account (issue 42, bug 3): the account pages a guest might
reach for (set a password, add an e-mail) send them to the one-step guest sign-up, which makes
them a full account; the guests' cleanup then leaves them alone, and they log in again."""

import re
import time

import pytest
from playwright.sync_api import expect

from .play_support import PASSWORD

pytestmark = pytest.mark.browser


def test_a_guest_who_sets_a_password_keeps_an_account_that_logs_in(
    asgi_live_server, browser, celery_worker
):
    """A guest set a password at /accounts/password/set/ and confirmed an address; the cleanup
    deleted them a few minutes later, and their log-in failed as a wrong password."""
    from accounts.guests import guests_cleanup
    from accounts.models import Guest

    server = asgi_live_server
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="tr-TR")
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.get_by_role(
            "button", name="Misafir olarak oyna: botlara karşı bir alıştırma oyunu"
        ).click()
        expect(page).to_have_url(re.compile(r"/table/\d+/$"))
        table_url = page.url

        for path in ("/accounts/password/set/", "/accounts/email/"):
            page.goto(server.url + path)
            expect(page).to_have_url(server.url + "/guest/signup/")
        page.get_by_label("E-posta adresi").fill("misafir@example.com")
        page.get_by_label("Görünen ad").fill("Misafir Deniz")
        page.get_by_label("Şifre", exact=True).fill(PASSWORD)
        page.get_by_label("Şifre (tekrar)").fill(PASSWORD)
        page.get_by_role("button", name="Kaydol").click()
        # on to their game, told that a mail confirms the address
        expect(page).to_have_url(table_url)
        expect(page.locator(".message--success")).to_contain_text("e-posta gönderdik")
        assert Guest.objects.count() == 0
        deadline = time.monotonic() + 10
        while not server.links("/accounts/confirm-email/") and time.monotonic() < deadline:
            time.sleep(0.1)
        page.goto(server.links("/accounts/confirm-email/")[0])
        page.get_by_role("button", name="Doğrula").click()

        page.get_by_role("button", name="Çıkış yap").click()
        assert guests_cleanup() == 0
        page.goto(server.url + "/accounts/login/")
        page.locator("main form.form input[name=login]").fill("misafir@example.com")
        page.locator("main form.form input[name=password]").fill(PASSWORD)
        page.locator("main form.form button[type=submit]").click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        expect(page.locator(".nav-player")).to_have_text("Misafir Deniz")
    finally:
        context.close()
