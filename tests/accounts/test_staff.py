"""The operator's first staff account (manage.py staff_create) and the second factor staff must
enrol before the admin opens (accounts.staff_mfa, allauth.mfa's TOTP)."""

import io

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import (
    TOTP,
    format_hotp_value,
    generate_totp_secret,
    hotp_value,
    yield_hotp_counters_from_time,
)
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db

STAFF_PASSWORD = "mavi-taş-yönetici-77"


def staff_create(monkeypatch, email="yonetici@example.com", name="Yönetici", password=None):
    monkeypatch.setenv("OKEY_STAFF_PASSWORD", password or STAFF_PASSWORD)
    out = io.StringIO()
    call_command("staff_create", "--email", email, "--name", name, stdout=out)
    return get_user_model().objects.get(email=email), out.getvalue()


def totp_code(secret: str) -> str:
    return format_hotp_value(hotp_value(secret, next(yield_hotp_counters_from_time())))


def site_login(client, email="yonetici@example.com", password=STAFF_PASSWORD):
    return client.post("/accounts/login/", {"login": email, "password": password})


def test_staff_create_makes_an_account_usable_on_the_site_and_the_admin(client, monkeypatch):
    user, out = staff_create(monkeypatch)
    assert user.is_staff and user.is_superuser and user.is_active
    assert user.profile.display_name == "Yönetici"
    address = EmailAddress.objects.get(user=user)
    assert address.email == "yonetici@example.com" and address.verified and address.primary
    assert "authenticator" in out
    # the site's log-in lets it in at once: no stop at e-mail confirmation
    response = site_login(client)
    assert response.status_code == 302
    assert "confirm-email" not in response["Location"]
    assert client.session["_auth_user_id"] == str(user.pk)


def test_staff_create_asks_for_the_password_twice_without_the_variable(monkeypatch):
    monkeypatch.delenv("OKEY_STAFF_PASSWORD", raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    answers = iter([STAFF_PASSWORD, STAFF_PASSWORD])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    call_command("staff_create", "--email", "a@example.com", "--name", "Ayla", stdout=io.StringIO())
    assert get_user_model().objects.get(email="a@example.com").check_password(STAFF_PASSWORD)


@pytest.mark.parametrize(
    "email, name, password, message",
    [
        ("yonetici@example.com", "Başka", STAFF_PASSWORD, "exists already"),  # taken address
        ("b@example.com", "Yönetici", STAFF_PASSWORD, "already uses this name"),
        ("c@example.com", "Cemil", "12345678", "too common"),  # the site's password rules
        ("not-an-address", "Deniz", STAFF_PASSWORD, "valid email"),
    ],
)
def test_staff_create_refuses_bad_input_and_makes_nothing(monkeypatch, email, name, password,
                                                          message):  # fmt: skip
    staff_create(monkeypatch)
    users = get_user_model().objects.count()
    with pytest.raises(CommandError, match=message):
        staff_create(monkeypatch, email=email, name=name, password=password)
    assert get_user_model().objects.count() == users


def test_staff_without_a_second_factor_is_sent_to_enrol_it(client, monkeypatch):
    staff_create(monkeypatch)
    site_login(client)
    for path in ("/admin/", "/admin/games/table/", "/en/admin/"):
        response = client.get(path)
        assert response.status_code == 302, path
        assert response["Location"].endswith("/accounts/2fa/totp/activate/"), path
    # leaving the admin stays open
    assert client.post("/admin/logout/").status_code in (200, 302)


def test_staff_with_totp_is_asked_for_a_code_at_log_in_and_then_gets_in(client, monkeypatch):
    user, _ = staff_create(monkeypatch)
    secret = generate_totp_secret()
    TOTP.activate(user, secret)
    response = site_login(client)
    # the password alone is not a log-in: the second step asks for the app's code
    assert response.status_code == 302 and "/2fa/authenticate/" in response["Location"]
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302
    response = client.post(response["Location"], {"code": "000000"})
    assert "_auth_user_id" not in client.session
    client.post("/accounts/2fa/authenticate/", {"code": totp_code(secret)})
    assert client.session["_auth_user_id"] == str(user.pk)
    assert client.get("/admin/").status_code == 200


def test_the_admin_log_in_page_is_no_side_door_around_the_second_factor(client, monkeypatch):
    user, _ = staff_create(monkeypatch)
    TOTP.activate(user, generate_totp_secret())
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    # the admin's own password form is not served: a correct password there logs no one in
    response = client.post(
        "/admin/login/?next=/admin/",
        {"username": "yonetici@example.com", "password": STAFF_PASSWORD, "next": "/admin/"},
    )
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert "_auth_user_id" not in client.session


def test_a_player_is_not_asked_for_a_second_factor(client, monkeypatch):
    player = get_user_model().objects.create_user("oyuncu", "o@example.com", STAFF_PASSWORD)
    EmailAddress.objects.create(user=player, email=player.email, verified=True, primary=True)
    client.force_login(player)
    assert client.get("/profile/").status_code in (200, 302)
    assert not Authenticator.objects.exists()
    # the admin refuses a player as it always did, without sending them to enrol
    response = client.get("/admin/")
    assert response.status_code == 302 and "/2fa/" not in response["Location"]
