import re
from datetime import UTC

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.contrib.auth import get_user_model
from django.db import IntegrityError

from accounts.models import Profile

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_every_user_gets_a_profile_with_a_free_name():
    users = get_user_model().objects
    a = users.create_user("ali", "ali@example.com", "x")
    b = users.create_user("ALI", "other@example.com", "x")
    c = users.create_user("ali@example.com", "ali@example.com", "x")
    assert a.profile.display_name == "ali"
    assert b.profile.display_name == "ALI2"
    assert c.profile.display_name == "ali3"
    assert (a.profile.rating_points, a.profile.games_played, a.profile.wins) == (0, 0, 0)
    assert a.profile.language == "tr"


def test_display_names_are_unique_ignoring_case_in_the_database(player):
    other = get_user_model().objects.create_user("o", "o@example.com", "x")
    other.profile.display_name = player.profile.display_name.upper()
    with pytest.raises(IntegrityError):
        other.profile.save()


def test_profile_page_shows_the_standings(player_client, player):
    Profile.objects.filter(user=player).update(rating_points=42, games_played=7, wins=3)
    html = player_client.get("/profile/").content.decode()
    assert "zeynep" in html
    assert "Puan" in html and ">42<" in html
    assert ">7<" in html and ">3<" in html
    assert "Profili düzenle" in html


def test_profile_page_shows_the_okey_and_the_101_ratings(client, player):
    """Issue 44: each rating with its own points, games and wins, on the player's own profile
    and on the page others see."""
    Profile.objects.filter(user=player).update(
        rating_points=42, games_played=7, wins=3, rating101_points=-15, games101_played=4, wins101=1
    )
    client.force_login(player)
    for url in ("/en/profile/", f"/en/profile/{player.pk}/"):
        html = client.get(url).content.decode()
        okey, one = (
            re.search(rf'data-rating="{name}">(.*?)</section>', html, re.S).group(1)
            for name in ("okey", "101")
        )
        assert "Okey rating" in okey and re.findall(r"<dd>([^<]+)</dd>", okey) == ["42", "7", "3"]
        assert "101 rating" in one and re.findall(r"<dd>([^<]+)</dd>", one) == ["−15", "4", "1"]
    html = client.get("/profile/").content.decode()
    assert "Okey puanı" in html and "101 puanı" in html


def test_public_profile_hides_the_email_and_edit_link(client, player):
    html = client.get(f"/profile/{player.pk}/").content.decode()
    assert "zeynep" in html
    assert "zeynep@example.com" not in html
    assert "/profile/edit/" not in html


def test_profile_needs_login(client):
    response = client.get("/profile/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_edit_display_name(player_client, player):
    response = player_client.post(
        "/profile/edit/", {"display_name": " Zeynep  K ", "language": "tr"}
    )
    assert response.status_code == 302
    player.profile.refresh_from_db()
    assert player.profile.display_name == "Zeynep K"


def test_edit_refuses_a_taken_name_and_changes_nothing(player_client, player):
    get_user_model().objects.create_user("Deniz", "deniz@example.com", "x")
    response = player_client.post("/profile/edit/", {"display_name": "deniz", "language": "en"})
    assert response.status_code == 200
    assert "Başka bir oyuncu bu adı kullanıyor." in response.content.decode()
    player.profile.refresh_from_db()
    assert (player.profile.display_name, player.profile.language) == ("zeynep", "tr")


def test_choosing_english_in_the_profile_switches_the_site(player_client, player):
    response = player_client.post("/profile/edit/", {"display_name": "zeynep", "language": "en"})
    assert response.status_code == 302
    assert response["Location"] == "/en/profile/"
    assert response.cookies["django_language"].value == "en"
    page = player_client.get(response["Location"])
    html = page.content.decode()
    assert '<html lang="en">' in html
    assert "Your profile was saved." in html
    assert "Edit profile" in html


def test_language_switcher_updates_the_profile(player_client, player):
    response = player_client.post("/i18n/setlang/", {"language": "en", "next": "/profile/"})
    assert response.status_code == 302
    assert response["Location"] == "/en/profile/"
    player.profile.refresh_from_db()
    assert player.profile.language == "en"


def test_login_lands_in_the_profile_language(client, player):
    Profile.objects.filter(user=player).update(language="en")
    response = client.post(
        "/accounts/login/", {"login": "zeynep@example.com", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"] == "/en/"


def test_switcher_for_anonymous_visitors_only_sets_the_cookie(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/accounts/login/"})
    assert response["Location"] == "/en/accounts/login/"
    assert response.cookies["django_language"].value == "en"


def test_admin_lists_profiles(admin_client, admin_user, player):
    TOTP.activate(admin_user, generate_totp_secret())  # the admin asks staff for a second factor
    Profile.objects.filter(user=player).update(rating101_points=-17, games101_played=3)
    html = admin_client.get("/admin/accounts/profile/").content.decode()
    assert "101 puanı" in html and ">-17<" in html  # both ratings, as staff see them
    page = admin_client.get(f"/admin/auth/user/{player.pk}/change/").content.decode()
    assert 'name="profile-0-rating101_points"' in page and 'name="profile-0-rating_points"' in page
    response = admin_client.post(
        "/admin/auth/user/add/",
        {"username": "newbie", "password1": "x-Okey-2026-long", "password2": "x-Okey-2026-long",
         "usable_password": "true"},
    )  # fmt: skip
    assert response.status_code == 302
    assert get_user_model().objects.get(username="newbie").profile.display_name == "newbie"


@pytest.mark.parametrize(
    "language, next_url, lands",
    [
        ("tr", "/en/leaderboard/", "/leaderboard/"),  # English -> Turkish: the unprefixed page
        ("tr", "/en/", "/"),
        ("en", "/table/7/?x=1", "/en/table/7/?x=1"),
        ("tr", "/en/table/7/", "/table/7/"),
        ("en", "https://evil.example.com/", "/en/"),  # another site: the lobby instead
        ("tr", "/healthz", "/healthz"),  # not a page in a language: left as it is
    ],
)
def test_the_switcher_lands_on_the_same_page_in_the_other_language(
    client, language, next_url, lands
):
    response = client.post("/i18n/setlang/", {"language": language, "next": next_url})
    assert response.status_code == 302
    assert response["Location"] == lands
    assert response.cookies["django_language"].value == language


def test_the_login_page_offers_the_password_reset_once(client):
    html = client.get("/accounts/login/").content.decode()
    assert html.count("Şifrenizi mi unuttunuz?") == 1


def test_a_player_finds_the_second_factor_on_their_profile(client, django_user_model):
    """Issue 42: players had no link to turn on a second factor for themselves."""
    user = django_user_model.objects.create_user("ece", "ece@example.com", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    client.force_login(user)
    html = client.get("/en/profile/").content.decode()
    assert 'href="/en/accounts/2fa/" data-second-factor' in html
    assert client.get("/en/accounts/2fa/").status_code == 200


def test_the_profile_writes_points_and_times_alike(client, django_user_model):
    """Issue 42: the profile showed "-12" beside the games' "−12", and "12/06/2026 1 p.m."
    beside "12:59 p.m."."""
    from datetime import datetime

    from games.models import Game, PlayerResult, Table

    user = django_user_model.objects.create_user("ece", "ece@example.com", PASSWORD)
    Profile.objects.filter(user=user).update(rating_points=-12, games_played=2)
    table = Table.objects.create(manager=user, options={})
    game = Game.objects.create(table=table)
    for minute, points in ((0, -8), (59, -4)):
        ended = datetime(2026, 12, 6, 13 - (minute == 59), minute, tzinfo=UTC)
        PlayerResult.objects.create(
            game=game if minute == 0 else Game.objects.create(table=Table.objects.create(
                manager=user, options={})),
            user=user, seat=0, place=4, points=points, count=30, ended=ended,
        )  # fmt: skip
    client.force_login(user)
    html = client.get("/en/profile/").content.decode()
    assert "<dd>−12</dd>" in html and ">−8</td>" in html and ">-12<" not in html
    assert "p.m." not in html and "a.m." not in html
    assert re.search(r"\b\d\d:00\b", html) and re.search(r"\b\d\d:59\b", html)
