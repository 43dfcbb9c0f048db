"""A table manager invites a partner by e-mail from the table page; the invited person, new to
the site, follows the link in another browser, signs up on the way and lands in the reserved
seat, which the manager sees happen live. The same link then fails for anyone else.

The e-mail is sent by the Celery task (a worker thread of this process) into the server's mail
directory, where the test reads it as the invited person would.
"""

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import Invite, Table

from .play_support import PASSWORD, players_make, sign_in

pytestmark = pytest.mark.browser


def invite_link(server, timeout=15.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        links = server.links("/invite/")
        if links:
            return links[-1]
        time.sleep(0.1)
    raise AssertionError(f"no invite e-mail arrived: {server.emails()}")


def new_context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="tr-TR")
    context.set_default_timeout(10_000)
    return context


def partner_invite(manager, server, mode, email) -> Table:
    """The manager's page opens a table of ``mode`` (one hand) from the lobby's form and invites
    ``email`` into seat 3, opposite; the table."""
    manager.goto(server.url + "/")
    manager.locator("select[name=mode]").select_option(mode)
    manager.locator("input[name=hand_limit]").fill("1")
    manager.locator(".create-form button[type=submit]").click()
    manager.wait_for_url(re.compile(r"/table/\d+/$"))
    panel = manager.locator("#invites")
    panel.get_by_label("E-posta adresi").fill(email)
    panel.get_by_label("Yer", exact=True).select_option(label="3. yer (eşiniz)")
    panel.get_by_role("button", name="Daveti gönder").click()
    expect(manager.locator(".message--success")).to_contain_text(email)
    return Table.objects.get()


def test_a_new_player_follows_the_invite_signs_up_and_is_seated(
    asgi_live_server, browser, celery_worker, django_user_model
):
    server = asgi_live_server
    (manager_user,) = players_make(django_user_model, 1)
    manager = sign_in(browser, server, manager_user)

    # the manager opens an Eşli table from the lobby form
    manager.goto(server.url + "/")
    manager.locator("select[name=mode]").select_option("esli")
    manager.locator(".create-form button[type=submit]").click()
    manager.wait_for_url(re.compile(r"/table/\d+/$"))
    table = Table.objects.get()

    # ... and invites a partner into seat 3, opposite
    panel = manager.locator("#invites")
    expect(panel.locator("#invites-title")).to_contain_text("Eşinizi")
    panel.get_by_label("E-posta adresi").fill("derya@example.com")
    panel.get_by_label("Yer", exact=True).select_option(label="3. yer (eşiniz)")
    panel.get_by_role("button", name="Daveti gönder").click()
    expect(manager.locator(".message--success")).to_contain_text("derya@example.com")
    expect(manager.locator("#invite-list .invite--sent")).to_contain_text("derya@example.com")
    expect(manager.locator('.seat[data-seat="2"] .seat-name')).to_have_text("davetli bekleniyor")

    link = invite_link(server)
    # the link is where this site runs (its port), not a SITE_URL left at its default
    assert link.startswith(server.url + "/invite/"), link
    message = server.emails()[-1]
    assert message["To"] == "derya@example.com"
    assert f"Oyuncu 1 sizi {table.pk} numaralı Okey masasına davet ediyor" in message["Subject"]
    assert Invite.objects.get().token_hash not in link  # the link holds the token, not its hash

    # the invited person opens the link in their own browser and signs up on the way
    guest_context = new_context(browser)
    guest = guest_context.new_page()
    guest.goto(link)
    expect(guest.get_by_role("heading", name="Oyuncu 1 sizi oyuna davet ediyor")).to_be_visible()
    expect(guest.get_by_text("3. yer size ayrıldı")).to_be_visible()
    guest.get_by_role("link", name="Kaydol ve otur").click()
    expect(guest).to_have_url(re.compile(r"/accounts/signup/\?"))
    expect(guest.get_by_label("E-posta")).to_have_value("derya@example.com")
    guest.get_by_label("Görünen ad").fill("Derya")
    guest.get_by_label("Şifre", exact=True).fill(PASSWORD)
    guest.get_by_label("Şifre (tekrar)").fill(PASSWORD)
    guest.get_by_role("button", name="Kaydol").click()

    # no second confirmation: the link proved the address; back on the invite page, one press
    # (a POST: following a link never seats anyone) and the guest sits in seat 3
    guest.get_by_role("button", name="3. yere otur").click()
    guest.wait_for_url(server.url + f"/table/{table.pk}/")
    expect(guest.locator(".messages")).to_contain_text(f"Masa {table.pk}, 3. yerde oturuyorsunuz")
    seat = guest.locator('.seat[data-seat="2"]')
    expect(seat.locator(".seat-name")).to_have_text("Derya")
    expect(seat.locator(".badge--you")).to_be_visible()
    # the team's letter on the seat, its name once in the teams bar (issue 42)
    expect(seat.locator(".badge--team")).to_have_text("Takım A")
    expect(seat.locator(".badge--team")).to_have_attribute("title", "takım: Oyuncu 1 & Derya")
    assert table.seats.get(index=2).user.email == "derya@example.com"

    # the manager's page shows it without reloading: the seat and the invite's state
    expect(manager.locator('.seat[data-seat="2"] .seat-name')).to_have_text("Derya")
    expect(manager.locator("#invite-list .invite--accepted")).to_contain_text("Derya")
    expect(manager.locator(".teams-bar")).to_contain_text("Oyuncu 1 & Derya")

    # the link is spent: someone else who opens it is told so, and nothing changes
    other_context = new_context(browser)
    other = other_context.new_page()
    response = other.goto(link)
    assert response.status == 410
    expect(other.locator(".invite-error")).to_contain_text("başka bir oyuncu")
    expect(other.get_by_role("link", name="Kaydol ve otur")).to_have_count(0)
    assert Invite.objects.get().status == "accepted"
    other_context.close()
    guest_context.close()
    manager.context.close()


def test_a_private_table_is_not_in_the_lobby_and_a_stranger_cannot_open_it(
    asgi_live_server, browser, django_user_model
):
    server = asgi_live_server
    owner_user, stranger_user = players_make(django_user_model, 2)
    owner = sign_in(browser, server, owner_user)
    owner.goto(server.url + "/")
    owner.locator("input[name=private]").check()
    owner.locator(".create-form button[type=submit]").click()
    owner.wait_for_url(re.compile(r"/table/\d+/$"))
    table = Table.objects.get()
    assert table.private

    # the owner finds it under "my tables"; the public list does not show it
    owner.goto(server.url + "/")
    expect(owner.locator("#my-tables")).to_contain_text(f"Masa {table.pk}")
    expect(owner.locator(f'#lobby-tables [data-table="{table.pk}"]')).to_have_count(0)

    stranger = sign_in(browser, server, stranger_user)
    stranger.goto(server.url + "/")
    expect(stranger.locator(f'[data-table="{table.pk}"]')).to_have_count(0)
    # with the address of the table page the stranger finds nothing: a private table is for
    # its manager, its players and the invited only (neither page nor socket nor chat)
    response = stranger.goto(server.url + f"/table/{table.pk}/")
    assert response.status == 404
    assert not table.seats.filter(user=stranger_user).exists()
    owner.context.close()
    stranger.context.close()


def test_an_invitation_speaks_the_invitees_language(
    asgi_live_server, browser, celery_worker, django_user_model
):
    """A Turkish manager invites a player whose profile is English: the e-mail, its link and the
    page are English, and so is `/` for that player once logged in; a one-hand table reads
    "1 hand" (a plural through ngettext), not "1 hands"."""
    server = asgi_live_server
    manager_user, guest_user = players_make(django_user_model, 2)
    guest_user.profile.language = "en"
    guest_user.profile.save()
    manager = sign_in(browser, server, manager_user)
    table = partner_invite(manager, server, "esli", guest_user.email)
    expect(manager.locator(".table-options")).to_contain_text("1 el")

    link = invite_link(server)
    message = server.emails()[-1]
    assert f"Oyuncu 1 invites you to Okey table {table.pk}" in message["Subject"]
    body = message.get_body(preferencelist=("plain",)).get_content()
    assert "30 seconds a turn, 1 hand." in body, body
    assert link.startswith(server.url + "/en/invite/"), link

    guest = sign_in(browser, server, guest_user)  # a Turkish browser (tr-TR)
    guest.goto(server.url + "/")
    expect(guest).to_have_url(server.url + "/en/")
    expect(guest.locator("html")).to_have_attribute("lang", "en")
    guest.goto(link.replace("/en/", "/"))  # the Turkish address of the page: theirs is English
    expect(guest.get_by_role("heading", name="Oyuncu 1 invites you to play")).to_be_visible()
    expect(guest.locator(".invite-page")).to_contain_text("count from 20 · 1 hand")
    expect(guest.locator(".invite-page")).not_to_contain_text("1 hands")
    guest.get_by_role("button", name="Take seat 3").click()
    guest.wait_for_url(server.url + f"/en/table/{table.pk}/")
    expect(guest.locator(".table-options")).to_contain_text("1 hand")
    guest.context.close()
    manager.context.close()
