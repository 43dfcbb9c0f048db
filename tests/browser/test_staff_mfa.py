"""The operator's first day in a browser: the staff account that manage.py staff_create made
logs in, is sent to enrol an authenticator app before the admin opens (its password asked again
first), enrols it (the code
computed from the secret the page shows, as the app would), sees its recovery codes and reaches
the admin; the next log-in asks for a second factor after the password (a recovery code here)."""

import re

import pytest
from allauth.mfa.totp.internal.auth import (
    format_hotp_value,
    hotp_value,
    yield_hotp_counters_from_time,
)
from django.core.management import call_command
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PASSWORD = "mavi-taş-yönetici-77"


def test_staff_enrol_a_second_factor_then_reach_the_admin(asgi_live_server, page, monkeypatch):
    server = asgi_live_server
    monkeypatch.setenv("OKEY_STAFF_PASSWORD", PASSWORD)
    call_command("staff_create", "--email", "yonetici@example.com", "--name", "Yönetici")

    def log_in():
        page.goto(server.url + "/admin/")
        expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
        page.get_by_label("E-posta").fill("yonetici@example.com")
        page.get_by_label("Şifre").fill(PASSWORD)
        page.get_by_role("button", name="Giriş yap").click()

    refused = []  # what the Content-Security-Policy blocked (the QR code was a data: image)
    page.on("console", lambda m: "Content Security Policy" in m.text and refused.append(m.text))
    log_in()
    # not the admin yet: the enrolment, with the reason; allauth asks for the password once more
    # before a second factor is added (a stolen session alone cannot enrol one)
    expect(page.locator(".messages[role=status]")).to_contain_text("ikinci bir doğrulama adımı")
    expect(page).to_have_url(re.compile(r"/accounts/reauthenticate/\?next="))
    page.get_by_label("Şifre").fill(PASSWORD)
    page.get_by_role("button", name="Doğrula").click()
    expect(page).to_have_url(server.url + "/accounts/2fa/totp/activate/")
    expect(page.locator(".totp-qr svg")).to_be_visible()  # the QR code, drawn inline
    assert refused == []
    # centred in the page's card (a <figure>'s default margins pushed it to the right)
    qr = page.locator(".totp-qr svg").bounding_box()
    card = page.locator(".main").bounding_box()
    assert abs((qr["x"] + qr["width"] / 2) - (card["x"] + card["width"] / 2)) <= 2, (qr, card)
    secret = page.locator("#authenticator_secret").input_value()
    code = format_hotp_value(hotp_value(secret, next(yield_hotp_counters_from_time())))
    page.locator("input[name=code]").fill(code)
    page.get_by_role("button", name="Etkinleştir").click()

    expect(page).to_have_url(re.compile(r"/accounts/2fa/recovery-codes/$"))
    recovery = page.locator("#recovery_codes").input_value().split()
    assert len(recovery) == 10
    # its two links are two buttons apart, not "Download codesGenerate new codes" on one line
    download, generate = page.locator(".recovery-codes-actions a").all()
    first, second = download.bounding_box(), generate.bounding_box()
    apart = (
        second["x"] - (first["x"] + first["width"]) >= 8
        or second["y"] >= first["y"] + first["height"]
    )
    assert apart, (first, second)
    page.get_by_role("link", name="Yönetim paneline geç").click()
    expect(page).to_have_url(server.url + "/admin/")
    expect(page.locator("#site-name")).to_have_text("Okey yönetimi")

    # log out; the password alone no longer opens the admin
    page.context.clear_cookies()
    log_in()
    expect(page).to_have_url(re.compile(r"/accounts/2fa/authenticate/"))
    page.goto(server.url + "/admin/")  # the half-done log-in is sent back to its second step
    expect(page).to_have_url(re.compile(r"/accounts/2fa/authenticate/"))
    expect(page.get_by_role("navigation").get_by_role("link", name="Giriş yap")).to_be_visible()
    page.locator("input[name=code]").fill(recovery[0])
    page.get_by_role("button", name="Giriş yap", exact=True).click()
    expect(page).to_have_url(server.url + "/admin/")
    expect(page.locator("#site-name")).to_be_visible()
