"""A person signs up, confirms their e-mail, logs out and logs in again, in headless chromium."""

import re
import time

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PASSWORD = "yesil-masa-okey-42"


def test_sign_up_confirm_log_out_and_log_in(asgi_live_server, celery_worker, page):
    server = asgi_live_server
    # The lobby belongs to the play pages; every page carries the same navigation.
    page.goto(server.url + "/accounts/login/")
    page.get_by_role("navigation").get_by_role("link", name="Kaydol").click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/$"))

    page.get_by_label("E-posta").fill("elif@example.com")
    page.get_by_label("Görünen ad").fill("Elif")
    page.get_by_label("Şifre", exact=True).fill(PASSWORD)
    page.get_by_label("Şifre (tekrar)").fill(PASSWORD)
    page.get_by_role("button", name="Kaydol").click()

    expect(page.get_by_role("heading", name="E-postanızı kontrol edin")).to_be_visible()
    # the mail is sent by a Celery task once the sign-up has committed
    deadline = time.monotonic() + 10
    while not server.links("/accounts/confirm-email/") and time.monotonic() < deadline:
        time.sleep(0.1)
    links = server.links("/accounts/confirm-email/")
    assert len(links) == 1, server.emails()

    page.goto(links[0])
    expect(page.get_by_text("elif@example.com")).to_be_visible()
    page.get_by_role("button", name="Doğrula").click()

    # Confirmed in the same browser: logged in straight away, and taken to the lobby (whose
    # page belongs to the play pages, so look at the profile instead).
    expect(page).to_have_url(server.url + "/")
    page.goto(server.url + "/profile/")
    nav = page.get_by_role("navigation")
    expect(page.get_by_role("heading", name="Elif")).to_be_visible()
    expect(nav.get_by_role("link", name="Elif")).to_be_visible()
    nav.get_by_role("button", name="Çıkış yap").click()

    page.goto(server.url + "/profile/")  # now it asks to log in first
    expect(page.get_by_role("heading", name="Giriş yap")).to_be_visible()
    page.get_by_label("E-posta").fill("elif@example.com")
    page.get_by_label("Şifre").fill(PASSWORD)
    page.get_by_role("button", name="Giriş yap").click()
    expect(page).to_have_url(server.url + "/profile/")
    expect(page.get_by_role("heading", name="Elif")).to_be_visible()
    expect(page.get_by_role("region", name="Okey puanı")).to_contain_text("Puan")


def test_language_switch_in_the_navigation(asgi_live_server, page):
    page.goto(asgi_live_server.url + "/accounts/login/")
    expect(page.get_by_role("heading", name="Giriş yap")).to_be_visible()
    page.get_by_role("button", name="EN").click()
    expect(page).to_have_url(asgi_live_server.url + "/en/accounts/login/")
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    assert page.locator("html").get_attribute("lang") == "en"


def test_wrong_password_is_refused_with_a_message(asgi_live_server, page):
    page.goto(asgi_live_server.url + "/en/accounts/login/")
    page.get_by_label("Email").fill("nobody@example.com")
    page.get_by_label("Password").fill("wrong")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("not correct")
