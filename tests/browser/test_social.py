"""Players between themselves, in browsers: a friend comes online and is invited to a seat in
one click; a blocked player's chat never reaches the blocker and quick play keeps them apart; a
report reaches the admin with its chat lines and a suspension stops the open socket at once;
four players finish and rematch, one declines and a bot takes the seat. axe on the pages these
add."""

import re

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.totp.internal.auth import (
    TOTP,
    format_hotp_value,
    generate_totp_secret,
    hotp_value,
    yield_hotp_counters_from_time,
)
from django.contrib.auth.models import Permission
from django.db import transaction
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Follow, Rematch, Report, Sanction, Table
from games.table.changes import table_bump, table_lock
from games.table.create import table_create
from games.table.lifecycle import game_stop
from tests.games.conftest import SEED_HEX, game_started, table_full

from .play_support import PASSWORD, players_make, sign_in, wait_db
from .test_axe import NO_CSP, violations

pytestmark = pytest.mark.browser


def befriend(a, b):
    Follow.objects.create(follower=a, followed=b)
    Follow.objects.create(follower=b, followed=a)


def chat_say(page, text):
    page.locator("#chat-text").fill(text)
    page.locator("#chat-form button[type=submit]").click()


def test_a_friend_comes_online_and_sits_from_a_one_click_invitation(
    asgi_live_server, browser, django_user_model
):
    server = asgi_live_server
    ayse, can = players_make(django_user_model, 2)
    befriend(ayse, can)
    table = table_create(manager=ayse, options={"private": True})
    host = sign_in(browser, server, ayse, viewport=(390, 844))
    host.goto(server.url + "/friends/")
    line = host.locator(f"#friend-{can.pk}")
    expect(line.locator(".presence")).to_have_text("çevrimdışı")
    # Can opens the site on his phone: Ayşe sees him come online, without reloading
    guest = sign_in(browser, server, can, viewport=(390, 844))
    guest.goto(server.url + "/")
    expect(line.locator(".presence")).to_have_text("çevrimiçi", timeout=5_000)
    expect(host.locator("#notices-said")).to_contain_text("Oyuncu 2 çevrimiçi")
    # one click invites him to a seat; it shows on the page he has open, and is announced
    line.get_by_role("button", name=re.compile("Davet et")).click()
    expect(host.locator(".message--success")).to_contain_text("Oyuncu 2")
    notice = guest.locator(".notice--invitation")
    expect(notice).to_contain_text(f"{table.pk} numaralı masada")
    expect(guest.locator("#notices-said")).to_contain_text("Oyuncu 1 sizi")
    notice.get_by_role("button", name="Otur").click()
    guest.wait_for_url(re.compile(rf"/table/{table.pk}/$"))
    assert wait_db(lambda: table.seats.filter(user=can).exists())
    expect(host.locator(".message--success")).to_be_visible()
    host.context.close()
    guest.context.close()


def test_a_blocked_players_chat_never_reaches_the_blocker_and_quick_play_keeps_them_apart(
    asgi_live_server, browser, django_user_model, settings
):
    server = asgi_live_server
    ali, bora, cem, _ = players_make(django_user_model, 4)
    ali_page = sign_in(browser, server, ali)
    # Ali blocks Bora from Bora's profile
    ali_page.goto(f"{server.url}/profile/{bora.pk}/")
    ali_page.get_by_role("button", name=re.compile("^Engelle")).click()
    expect(ali_page.locator(".message--success")).to_contain_text("engellediniz")
    expect(ali_page.get_by_role("button", name=re.compile("Engeli kaldır"))).to_be_visible()
    # at one table, Bora's words reach Cem but never Ali
    table = table_full([ali, bora, cem])
    bora_page = sign_in(browser, server, bora)
    cem_page = sign_in(browser, server, cem)
    for page in (ali_page, bora_page, cem_page):
        page.goto(f"{server.url}/table/{table.pk}/")
        expect(page.locator("#table-board")).to_be_visible()
    chat_say(bora_page, "sen bir hiçsin")
    expect(cem_page.locator("#chat-log")).to_contain_text("sen bir hiçsin")
    chat_say(cem_page, "sakin ol")
    expect(ali_page.locator("#chat-log")).to_contain_text("sakin ol")
    expect(ali_page.locator("#chat-log")).not_to_contain_text("hiçsin")
    ali_page.reload()  # nor on the page drawn again
    expect(ali_page.locator("#chat-log")).to_contain_text("sakin ol")
    expect(ali_page.locator("#chat-log")).not_to_contain_text("hiçsin")
    # a table's chat muted for oneself: Cem mutes it, and it stays muted on reload
    cem_page.get_by_role("button", name="Sohbeti sustur").click()
    expect(cem_page.locator("#chat-log")).to_be_hidden()
    cem_page.reload()
    expect(cem_page.locator("#chat-log")).to_be_hidden()
    for page in (bora_page, cem_page):
        page.context.close()
    # quick play never seats the two together
    Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED)
    ali_page.goto(server.url + "/")
    ali_page.locator("form[action$='/play/quick/'] button").first.click()
    ali_page.wait_for_url(re.compile(r"/table/\d+/$"))
    bora_page = sign_in(browser, server, bora)
    bora_page.goto(server.url + "/")
    bora_page.locator("form[action$='/play/quick/'] button").first.click()
    bora_page.wait_for_url(re.compile(r"/table/\d+/$"))
    assert ali_page.url != bora_page.url
    ali_page.context.close()
    bora_page.context.close()


def staff_page(browser, server, django_user_model):
    staff = django_user_model.objects.create_user(
        "moderator", "mod@example.com", PASSWORD, is_staff=True
    )
    codenames = ["view_report", "view_sanction", "add_sanction", "view_staffaction"]
    staff.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    EmailAddress.objects.create(user=staff, email=staff.email, verified=True, primary=True)
    secret = generate_totp_secret()
    TOTP.activate(staff, secret)
    page = sign_in(browser, server, staff, **NO_CSP)
    expect(page).to_have_url(re.compile(r"/accounts/2fa/authenticate/"))
    code = format_hotp_value(hotp_value(secret, next(yield_hotp_counters_from_time())))
    page.locator("input[name=code]").fill(code)
    page.get_by_role("button", name=re.compile("^Giriş yap$", re.I)).click()
    page.wait_for_url(lambda url: "/2fa/" not in url)
    return page


def test_a_report_reaches_the_admin_with_its_chat_and_a_suspension_stops_the_socket_at_once(
    asgi_live_server, browser, django_user_model, settings
):
    server = asgi_live_server
    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    users = players_make(django_user_model, 4)
    table = game_started(table_full(users, bots_fill=True))
    victim = sign_in(browser, server, users[0], viewport=(390, 844))
    rude = sign_in(browser, server, users[1])
    for page in (victim, rude):
        page.goto(f"{server.url}/table/{table.pk}/")
        expect(page.locator("#table-board")).to_be_visible()
    chat_say(rude, "kaybeden sensin aptal")
    expect(victim.locator("#chat-log")).to_contain_text("aptal")
    # the victim reports from the player's profile opened from the table: the report names it
    victim.goto(f"{server.url}/profile/{users[1].pk}/?table={table.pk}")
    victim.get_by_role("link", name=re.compile("Şikâyet et")).click()
    expect(victim.locator("main")).to_contain_text(f"{table.pk} numaralı masa")
    victim.get_by_label(re.compile("hakaret")).check()
    victim.get_by_label("Ne oldu (isteğe bağlı)").fill("sohbette hakaret")
    victim.get_by_role("button", name="Şikâyeti gönder").click()
    victim.wait_for_url(re.compile(rf"/table/{table.pk}/$"))
    report = Report.objects.get()

    staff = staff_page(browser, server, django_user_model)
    staff.goto(f"{server.url}/admin/games/report/{report.pk}/change/")
    expect(staff.locator(".report-chat")).to_contain_text("kaybeden sensin aptal")
    assert violations(staff) == [], "the admin's report page"
    staff.goto(f"{server.url}/admin/games/report/")
    staff.locator(f"input[name=_selected_action][value='{report.pk}']").check()
    staff.locator("select[name=action]").select_option("sanction_suspend")
    staff.locator("button[name=index], #changelist-form button[type=submit]").first.click()
    staff.locator("#staff-reason").fill("hakaret")
    staff.locator("#staff-hours").fill("48")
    staff.locator("form input[type=submit]").click()
    assert wait_db(lambda: Sanction.objects.filter(kind="suspend").exists())
    # at once: the suspended player's open page is told why and until when, and its socket
    # can no longer chat (nor move: its seat went to a bot)
    expect(rude.locator(".notice--suspend")).to_contain_text("hakaret")
    chat_say(rude, "hala buradayim")
    expect(rude.locator("#table-message")).to_contain_text("askıya alındı")
    expect(victim.locator("#chat-log")).not_to_contain_text("hala buradayim")
    assert wait_db(lambda: table.seats.get(index=1).is_bot)
    for page in (victim, rude, staff):
        page.context.close()


def test_four_players_finish_and_rematch_one_declines_and_a_bot_takes_the_seat(
    asgi_live_server, browser, django_user_model, settings
):
    server = asgi_live_server
    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    users = players_make(django_user_model, 4)
    table = game_started(table_full(users, mode="esli", bots_fill=True))
    with transaction.atomic():  # as the last leave or staff end a game
        game, table = table_lock(table.pk)
        game_stop(game, table, timezone.now())
        table_bump(game, lobby=True)
    pages = [sign_in(browser, server, u, viewport=(390, 844)) for u in users]
    for page in pages:
        page.goto(f"{server.url}/table/{table.pk}/")
        expect(page.locator("#rematch")).to_contain_text("Yeniden oynayalım mı?")
    pages[0].get_by_role("button", name="Rövanş öner").click()
    expect(pages[1].locator("#rematch")).to_contain_text("yeniden oynuyor")
    pages[2].get_by_role("button", name="Hayır, teşekkürler").click()
    for page in (pages[1], pages[3]):
        page.get_by_role("button", name="Rövanşı kabul et").click()
    new = wait_db(lambda: Rematch.objects.get(table=table).started)
    for page in pages:  # every page follows, the decliner's too
        page.wait_for_url(re.compile(rf"/table/{new.pk}/$"))
    pages[0].get_by_role("button", name=re.compile("Başlat")).click()
    assert wait_db(lambda: new.seats.get(index=1).is_bot)  # users[2]'s seat, one on
    seated = dict(new.seats.values_list("index", "user_id"))
    assert seated == {0: users[1].pk, 1: None, 2: users[3].pk, 3: users[0].pk}
    for page in pages:
        page.context.close()


def test_the_social_pages_have_no_serious_violation(asgi_live_server, browser, django_user_model):
    server = asgi_live_server
    ayse, can = players_make(django_user_model, 2)
    befriend(ayse, can)
    table = table_create(manager=ayse, options={})
    page = sign_in(browser, server, ayse, viewport=(390, 844), **NO_CSP)
    other = sign_in(browser, server, can, **NO_CSP)
    try:
        other.goto(server.url + "/")
        page.goto(f"{server.url}/profile/{can.pk}/")
        expect(page.get_by_role("button", name=re.compile("Takip ediliyor"))).to_be_visible()
        assert violations(page) == [], "the profile with its follow and block controls"
        page.goto(server.url + "/friends/")
        expect(page.locator(f"#friend-{can.pk} .presence")).to_have_text("çevrimiçi")
        assert violations(page) == [], "the friends list"
        page.goto(f"{server.url}/player/{can.pk}/report/")
        assert violations(page) == [], "the report form"
        # the invitation, on the page the friend has open
        page.goto(server.url + "/friends/")
        page.locator(f"#friend-{can.pk}").get_by_role("button", name=re.compile("Davet et")).click()
        expect(other.locator(".notice--invitation")).to_contain_text(f"{table.pk} numaralı")
        assert violations(other) == [], "the invitation"
    finally:
        page.context.close()
        other.context.close()
