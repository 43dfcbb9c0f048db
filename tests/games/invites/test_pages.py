"""Invites through the pages: the manager's panel, the link's page, sign-up and log-in on the way."""

import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.invites.services import SESSION_KEY
from games.models import Invite
from games.table.create import table_create

pytestmark = pytest.mark.django_db

PASSWORD = "mavi-okey-masasi-7"
PARTNER = "partner@example.com"


@pytest.fixture(autouse=True)
def _mail_by_task(celery_eager, commit_per_request):
    """Each request's on-commit work runs when it returns; the e-mail task runs at once."""


@pytest.fixture
def esli(users, in_memory_layer):
    return table_create(manager=users[0], options={"mode": "esli"})


def link_of(message) -> str:
    return re.search(r"https?://\S+/invite/\S+/", message.body).group(0)


def path_of(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def send_from_page(client, table, email=PARTNER, seat=2):
    return client.post(reverse("games:invite_new", args=[table.pk]), {"email": email, "seat": seat})


def test_the_manager_invites_from_the_table_page_and_sees_the_state(client, esli, users):
    client.force_login(users[0])
    page = client.get(reverse("games:table", args=[esli.pk])).content.decode()
    assert 'id="invites"' in page and "invite-email" in page
    response = send_from_page(client, esli)
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [PARTNER]
    page = client.get(response.url).content.decode()
    assert PARTNER in page and "invite--sent" in page
    inv = Invite.objects.get()
    client.post(reverse("games:invite_resend", args=[esli.pk, inv.pk]))
    assert len(mail.outbox) == 2
    client.post(reverse("games:invite_cancel", args=[esli.pk, inv.pk]))
    page = client.get(reverse("games:table", args=[esli.pk])).content.decode()
    assert "invite--cancelled" in page


def test_a_refused_invite_shows_a_clear_message(client, esli, users):
    client.force_login(users[0])
    response = send_from_page(client, esli, email="nope")
    page = client.get(response.url).content.decode()
    assert "e-posta adresi değil" in page or "not an e-mail address" in page
    assert not Invite.objects.exists() and not mail.outbox
    response = send_from_page(client, esli, email=users[0].email)
    page = client.get(response.url).content.decode()
    assert "Kendinizi davet edemezsiniz" in page or "cannot invite yourself" in page


def test_others_see_a_reserved_seat_but_not_the_address(client, esli, users):
    send_from_page(client.__class__(), esli)  # anonymous: refused, nothing sent
    assert not mail.outbox
    owner = client.__class__()
    owner.force_login(users[0])
    send_from_page(owner, esli)
    client.force_login(users[1])
    page = client.get(reverse("games:table", args=[esli.pk])).content.decode()
    assert PARTNER not in page and 'id="invites"' not in page
    assert page.count("Sit here") + page.count("Buraya otur") == 2  # seats 2 and 4, not 3


def test_resend_and_cancel_from_htmx_redirect_the_page(client, esli, users):
    client.force_login(users[0])
    send_from_page(client, esli)
    inv = Invite.objects.get()
    response = client.post(
        reverse("games:invite_cancel", args=[esli.pk, inv.pk]), headers={"HX-Request": "true"}
    )
    assert response.status_code == 204
    assert response["HX-Redirect"] == reverse("games:table", args=[esli.pk]) + "#invites"


def test_only_the_manager_can_cancel(client, esli, users):
    owner = client.__class__()
    owner.force_login(users[0])
    send_from_page(owner, esli)
    inv = Invite.objects.get()
    client.force_login(users[1])
    client.post(reverse("games:invite_cancel", args=[esli.pk, inv.pk]))
    assert Invite.objects.get().status == "sent"


# --- the link -----------------------------------------------------------------------------------


def invited(client, esli, users, email=PARTNER) -> str:
    owner = client.__class__()
    owner.force_login(users[0])
    send_from_page(owner, esli, email=email)
    return path_of(link_of(mail.outbox[-1]))


def test_a_visitor_sees_who_invites_them_and_is_offered_sign_up(client, esli, users):
    link = invited(client, esli, users)
    page = client.get(link)
    html = page.content.decode()
    assert page.status_code == 200
    assert users[0].profile.display_name in html
    signup = re.search(r'href="(/accounts/signup/\?[^"]+)"', html).group(1)
    assert "next=%2Finvite%2Fcontinue%2F" in signup and "email=partner%40example.com" in signup
    assert client.session[SESSION_KEY] == link.split("/")[-2]
    # opening the link seats nobody (mail scanners open links too)
    assert esli.seats.get(index=2).user is None


def test_signing_up_with_the_invited_address_leads_to_the_seat(client, esli, users):
    link = invited(client, esli, users)
    client.get(link)
    sent = len(mail.outbox)
    response = client.post(
        "/accounts/signup/?next=/invite/continue/",
        {
            "email": PARTNER,
            "display_name": "Ortak",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "/invite/continue/",
        },
        follow=True,
    )
    user = get_user_model().objects.get(email=PARTNER)
    # the link proved the address: no confirmation e-mail, logged in, back on the invite page,
    # where one press (a POST: no GET seats anyone) takes the seat
    assert EmailAddress.objects.get(user=user).verified
    assert len(mail.outbox) == sent
    assert response.redirect_chain[-1][0] == link
    assert "data-take-seat" in response.content.decode()
    assert esli.seats.get(index=2).user is None
    assert client.post(link).url == reverse("games:table", args=[esli.pk])
    assert esli.seats.get(index=2).user == user
    assert Invite.objects.get().accepted_by == user
    assert SESSION_KEY not in client.session


def test_signing_up_with_another_address_keeps_the_seat_through_confirmation(client, esli, users):
    link = invited(client, esli, users)
    client.get(link)
    response = client.post(
        "/accounts/signup/",
        {
            "email": "other@example.com",
            "display_name": "Başkası",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "/invite/continue/",
        },
    )
    user = get_user_model().objects.get(email="other@example.com")
    assert not EmailAddress.objects.get(user=user).verified
    assert not EmailAddress.objects.filter(email=PARTNER).exists()
    assert esli.seats.get(index=2).user is None
    confirm = path_of(re.search(r"https?://\S+confirm-email/\S+", mail.outbox[-1].body).group(0))
    response = client.post(confirm, follow=True)
    assert response.redirect_chain[-1][0] == link
    client.post(link)
    assert esli.seats.get(index=2).user == user


def test_an_existing_player_logs_in_and_is_seated(client, esli, users):
    EmailAddress.objects.create(user=users[2], email=users[2].email, verified=True, primary=True)
    link = invited(client, esli, users)
    client.get(link)
    response = client.post(
        "/accounts/login/",
        {"login": users[2].email, "password": "pw-okey-1234", "next": "/invite/continue/"},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == link
    client.post(link)
    assert esli.seats.get(index=2).user == users[2]


def test_a_signed_in_player_takes_the_seat_with_one_press(client, esli, users):
    link = invited(client, esli, users)
    client.force_login(users[3])
    page = client.get(link).content.decode()
    assert "data-take-seat" in page and esli.seats.get(index=2).user is None
    response = client.post(link)
    assert response.status_code == 302 and response.url == reverse("games:table", args=[esli.pk])
    assert esli.seats.get(index=2).user == users[3]


def test_a_used_link_is_refused_to_another_account(client, esli, users):
    link = invited(client, esli, users)
    client.force_login(users[2])
    client.post(link)
    other = client.__class__()
    other.force_login(users[3])
    for response in (other.get(link), other.post(link)):
        assert response.status_code == 410
        assert "başka bir oyuncu" in response.content.decode() or "another player" in (
            response.content.decode()
        )
    assert esli.seats.get(index=2).user == users[2]
    # the same player again is sent to the table they already sit at
    again = client.get(link)
    assert again.status_code == 302 and again.url == reverse("games:table", args=[esli.pk])


def test_an_expired_link_is_refused(client, esli, users):
    link = invited(client, esli, users)
    Invite.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    response = client.get(link)
    assert response.status_code == 410
    client.force_login(users[2])
    assert client.post(link).status_code == 410
    assert esli.seats.get(index=2).user is None


def test_an_unknown_link_is_not_found(client, esli, users):
    invited(client, esli, users)
    assert client.get("/invite/" + "A" * 43 + "/").status_code == 404


def test_continue_without_a_link_goes_to_the_lobby(client, users):
    client.force_login(users[1])
    response = client.get(reverse("games:invite_continue"))
    assert response.status_code == 302 and response.url == reverse("games:lobby")


def test_continue_asks_a_visitor_to_log_in(client):
    response = client.get(reverse("games:invite_continue"))
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_english_links_open_english_pages(client, esli, users):
    users[0].profile.language = "en"
    users[0].profile.save()
    link = invited(client, esli, users)
    assert link.startswith("/en/invite/")
    assert "invites you to play" in client.get(link).content.decode()


def test_no_invite_card_where_nobody_can_be_invited(client, users, in_memory_layer):
    """Quick play starts its countdown at once, a finished game takes nobody: no invite card."""
    from games.lobby.quick import table_quick_join
    from games.models import Table

    client.force_login(users[0])
    quick = table_quick_join(user=users[0], mode="duz")
    assert 'id="invites"' not in client.get(f"/table/{quick.pk}/").content.decode()
    done = table_create(manager=users[0], options={})
    assert 'id="invites"' in client.get(f"/table/{done.pk}/").content.decode()
    Table.objects.filter(pk=done.pk).update(status=Table.Status.FINISHED)
    assert 'id="invites"' not in client.get(f"/table/{done.pk}/").content.decode()


def test_an_esli_table_of_bots_offers_team_names_not_invites(client, users, in_memory_layer):
    """Issue 42: a practice table full of bots showed "invite players" where nobody can be
    invited; its teams may still be named."""
    from games.lobby.quick import practice_open

    client.force_login(users[0])
    table = practice_open(users[0], "esli")
    html = client.get(f"/en/table/{table.pk}/").content.decode()
    assert 'id="invites"' in html and "team-names-form" in html
    assert "Invite your partner and opponents" not in html and "Invite players" not in html
    assert "Every seat is taken or reserved" not in html


def test_the_invited_player_declines_and_the_seat_is_free_at_once(client, esli, users):
    """Issue 42: the invitation page had no "decline"; the seat stayed kept until it expired."""
    link = invited(client, esli, users)
    assert "data-decline" in client.get(link).content.decode()
    page = client.post(link, {"decline": "1"})
    assert page.status_code == 200 and "data-declined" in page.content.decode()
    inv = Invite.objects.get()
    assert inv.status == Invite.Status.DECLINED and inv.cancelled_at is not None
    # the seat is free, for anyone, and the manager's card says declined
    owner = client.__class__()
    owner.force_login(users[0])
    html = owner.get(reverse("games:table", args=[esli.pk])).content.decode()
    assert "invite--declined" in html
    assert esli.seats.get(index=2).user is None
    # the link works no more, for declining or taking the seat
    again = client.post(link, {"decline": "1"})
    assert again.status_code == 409 and esli.seats.get(index=2).user is None
