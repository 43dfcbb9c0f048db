"""Guests (accounts.guests): a visitor plays without an account, nothing rated, nothing kept
past the session, a limit per address; signing up afterwards is one step."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client, override_settings

from accounts.guests import guests_cleanup
from accounts.models import Guest, guest_is
from games.errors import ServiceError
from games.invites.services import invite_create
from games.models import ChatMessage, Invite, Seat, Table
from games.table.chat import chat_post
from games.table.create import table_create
from games.table.seats import seat_take

pytestmark = pytest.mark.django_db
PASSWORD = "kirmizi-okey-13"


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


def guest_play(client, mode="duz"):
    """A visitor's tap on "Play as a guest" in the lobby."""
    return client.post("/play/quick/", {"mode": mode})


def the_guest(client):
    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def test_a_visitor_plays_a_practice_game_as_a_guest(client):
    response = guest_play(client)
    assert response.status_code == 302
    table = Table.objects.get()
    assert response["Location"] == f"/table/{table.pk}/"
    user = the_guest(client)
    assert guest_is(user) and not user.has_usable_password()
    assert re.fullmatch(r"Misafir \d{4}", user.profile.display_name)
    # alone with bots at a practice table (not rated), dealt at once: nobody to wait for, and a
    # relaxed pace between the first hand's and quick play's
    assert table.policy.practice and not table.policy.private
    assert table.manager == user and table.status == Table.Status.PLAYING
    assert table.game.hands.count() == 1 and table.rules.turn_seconds == 60
    seats = list(table.seats.order_by("index"))
    assert seats[0].user == user and all(s.is_bot for s in seats[1:])
    # the guest's session ends with the browser's day, not in two weeks
    assert client.session.get_expiry_age() <= 3 * 3600


@pytest.mark.parametrize(("asked", "pace"), [("120", 120), ("30", 30), ("7", 60), ("x", 60)])
def test_a_guest_chooses_the_practice_pace(client, asked, pace):
    client.post("/play/quick/", {"mode": "duz", "turn_seconds": asked})
    assert Table.objects.get().rules.turn_seconds == pace


def test_a_guest_may_not_chat_invite_sit_elsewhere_or_make_rated_or_private_tables(
    client, django_user_model
):
    guest_play(client)
    guest = the_guest(client)
    own = Table.objects.get(manager=guest)
    other_manager = django_user_model.objects.create_user("ali", "ali@example.com", PASSWORD)
    rated = table_create(manager=other_manager, options={"mode": "duz"})
    refusals = [
        lambda: chat_post(table_id=own.pk, user=guest, text="merhaba"),
        lambda: seat_take(table_id=rated.pk, user=guest, index=1),
        lambda: table_create(manager=guest, options={"mode": "duz"}),
        lambda: table_create(
            manager=guest, options={"mode": "duz", "practice": True, "private": True}
        ),
    ]
    for refused in refusals:
        with pytest.raises(ServiceError) as e:
            refused()
        assert e.value.code == "guest_not_allowed"
    with pytest.raises(ServiceError) as e:
        invite_create(table_id=own.pk, inviter=guest, email="x@example.com", seat_index=1)
    assert e.value.code == "guest_not_allowed" and not Invite.objects.exists()
    assert not ChatMessage.objects.exists()
    assert not Seat.objects.filter(table=rated, user=guest).exists()
    # the lobby offers a guest no form for a custom (rated) table, and the way to sign up
    page = client.get("/").content.decode()
    assert 'action="/table/new/"' not in page and 'href="/guest/signup/"' in page


def test_a_guest_signs_up_in_one_step_and_stays_logged_in(client, celery_eager, commit_per_request):
    guest_play(client)
    guest = the_guest(client)
    table = Table.objects.get(manager=guest)
    form = client.get("/guest/signup/").content.decode()
    assert guest.profile.display_name in form  # the name they played under, offered
    response = client.post(
        "/guest/signup/",
        {
            "email": "Deniz@Example.com",
            "display_name": "Deniz",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    # on to the game they were playing, not the profile
    assert response.status_code == 302 and response["Location"] == f"/table/{table.pk}/"
    user = get_user_model().objects.get(pk=guest.pk)
    assert not Guest.objects.filter(user=user).exists()
    assert user.email == "deniz@example.com" and user.check_password(PASSWORD)
    assert user.profile.display_name == "Deniz"
    assert client.session["_auth_user_id"] == str(user.pk)  # still logged in
    assert client.get("/profile/").status_code == 200
    # their table is theirs now; the cleanup leaves a player alone
    assert Table.objects.filter(pk=table.pk, manager=user).exists()
    # e-mail verification as at every sign-up
    assert not EmailAddress.objects.get(user=user).verified
    assert [m.to for m in mail.outbox] == [["deniz@example.com"]]
    assert "/accounts/confirm-email/" in mail.outbox[0].body
    assert guests_cleanup() == 0 and get_user_model().objects.filter(pk=user.pk).exists()


def test_guest_signup_refuses_a_taken_address_and_changes_nothing(client, django_user_model):
    django_user_model.objects.create_user("ali", "ali@example.com", PASSWORD)
    guest_play(client)
    response = client.post(
        "/guest/signup/",
        {
            "email": "ALI@example.com",
            "display_name": "Deniz",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 200
    assert "already exists" in response.content.decode() or "zaten" in response.content.decode()
    assert guest_is(the_guest(client))


def test_a_guests_data_is_gone_after_cleanup_once_the_session_is_over(client):
    guest_play(client)
    guest = the_guest(client)
    table = Table.objects.get(manager=guest)
    assert guests_cleanup() == 0  # the session is on: nothing goes
    client.post("/accounts/logout/")
    assert guests_cleanup() == 1
    assert not get_user_model().objects.filter(pk=guest.pk).exists()
    assert not Table.objects.filter(pk=table.pk).exists()
    assert not Seat.objects.filter(user_id=guest.pk).exists()


@pytest.mark.parametrize("path", ["/accounts/password/set/", "/accounts/email/"])
def test_a_guest_is_offered_the_guest_signup_not_an_account_page(client, path):
    """Issue 42, bug 3: a guest who set a password there, or added an address, had an account
    the cleanup then deleted."""
    guest_play(client)
    response = client.get(path)
    assert response.status_code == 302 and response["Location"] == "/guest/signup/"
    response = client.post(path, {"password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/guest/signup/"
    assert not the_guest(client).has_usable_password()


def test_a_guest_who_can_log_in_on_their_own_is_never_deleted(client, django_user_model):
    """However a guest came by a password or a confirmed address, the cleanup keeps them, as an
    account: deleting them would turn their next log-in into "wrong password"."""
    guest_play(client)
    with_password = the_guest(client)
    with_password.set_password(PASSWORD)
    with_password.save()
    client.post("/accounts/logout/")
    other = Client()
    guest_play(other)
    with_address = the_guest(other)
    EmailAddress.objects.create(user=with_address, email="ece@example.com", verified=True)
    other.post("/accounts/logout/")
    third = Client()
    guest_play(third)
    third.post("/accounts/logout/")
    assert guests_cleanup() == 1  # only the guest with neither
    for user in (with_password, with_address):
        user = django_user_model.objects.get(pk=user.pk)
        assert not guest_is(user)
    assert Client().login(username=with_password.username, password=PASSWORD)


def test_an_expired_guest_session_is_cleaned_up(client, settings):
    guest_play(client)
    guest = the_guest(client)
    session = client.session
    session.set_expiry(-1)  # the session ran out
    session.save()
    assert guests_cleanup() == 1
    assert not get_user_model().objects.filter(pk=guest.pk).exists()


@override_settings(OKEY_GUESTS_PER_ADDRESS=3)
def test_a_flood_of_guests_from_one_address_is_refused_with_a_clear_message():
    for _ in range(3):
        assert guest_play(Client()).status_code == 302
    refused = guest_play(Client())
    assert refused.status_code == 429
    assert "adresinizden çok fazla ziyaretçi" in refused.content.decode()
    assert Guest.objects.count() == 3 and Table.objects.count() == 3
    # another address is served
    assert guest_play(Client(REMOTE_ADDR="203.0.113.9")).status_code == 302


def test_the_leaderboard_never_lists_a_guest(client):
    guest_play(client)
    guest = the_guest(client)
    guest.profile.__class__.objects.filter(user=guest).update(games_played=1, rating_points=99)
    assert guest.profile.display_name not in Client().get("/leaderboard/").content.decode()


def test_the_cleanup_runs_by_itself(settings):
    """Beat sends the cleanup every few minutes: nothing waits for a person to run it."""
    from accounts.tasks import guests_cleanup_task

    entry = settings.CELERY_BEAT_SCHEDULE["guests-cleanup"]
    assert entry["task"] == guests_cleanup_task.name and entry["schedule"] <= 600


def test_a_guests_profile_offers_the_signup_not_an_address_or_a_password(client):
    guest_play(client)
    html = client.get("/en/profile/").content.decode()
    assert "data-guest-signup" in html and 'href="/en/guest/signup/"' in html
    assert "/accounts/password/" not in html and "/accounts/email/" not in html
