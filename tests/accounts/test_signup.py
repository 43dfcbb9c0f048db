import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail

pytestmark = pytest.mark.django_db

PASSWORD = "kirmizi-okey-13"


def signup(client, email="ayse@example.com", name="Ayşe", prefix=""):
    return client.post(
        f"{prefix}/accounts/signup/",
        {"email": email, "display_name": name, "password1": PASSWORD, "password2": PASSWORD},
    )


def link_in(message) -> str:
    return re.search(r"https?://\S+", message.body).group(0)


def test_signup_sends_verification_and_login_waits_for_it(client):
    response = signup(client)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"

    user = get_user_model().objects.get(email="ayse@example.com")
    assert user.profile.display_name == "Ayşe"
    assert user.profile.language == "tr"
    assert not EmailAddress.objects.get(user=user).verified
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ayse@example.com"]
    assert "/accounts/confirm-email/" in link_in(mail.outbox[0])

    # Not verified yet: logging in sends the person back to the verification page.
    client.logout()
    response = client.post("/accounts/login/", {"login": "ayse@example.com", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"
    assert "_auth_user_id" not in client.session


def test_signup_verify_login_logout(client):
    signup(client)
    client.logout()
    confirm_path = link_in(mail.outbox[0]).split("testserver", 1)[1]

    page = client.get(confirm_path)
    assert page.status_code == 200
    assert "ayse@example.com" in page.content.decode()
    response = client.post(confirm_path)
    assert response.status_code == 302
    assert EmailAddress.objects.get(email="ayse@example.com").verified

    client.logout()
    response = client.post("/accounts/login/", {"login": "ayse@example.com", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/"
    user = get_user_model().objects.get(email="ayse@example.com")
    assert client.session["_auth_user_id"] == str(user.pk)
    page = client.get("/profile/")
    assert page.status_code == 200
    assert "Ayşe" in page.content.decode()

    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    assert client.get("/profile/").status_code == 302


def test_signup_in_english_sends_english_mail_and_sets_profile_language(client):
    response = signup(client, prefix="/en")
    assert response.status_code == 302
    assert response["Location"] == "/en/accounts/confirm-email/"
    user = get_user_model().objects.get(email="ayse@example.com")
    assert user.profile.language == "en"
    assert "/en/accounts/confirm-email/" in link_in(mail.outbox[0])
    assert "Hello from Okey" in mail.outbox[0].body


def test_signup_mail_in_turkish_by_default(client):
    signup(client)
    assert "Okey'den merhaba" in mail.outbox[0].body


def test_display_name_must_be_free_whatever_the_case(client):
    signup(client, email="first@example.com", name="Mehmet")
    client.logout()
    response = signup(client, email="second@example.com", name="  mehmet ")
    assert response.status_code == 200
    assert "Başka bir oyuncu bu adı kullanıyor." in response.content.decode()
    assert not get_user_model().objects.filter(email="second@example.com").exists()


def test_signup_with_bad_input_creates_nothing(client):
    response = client.post(
        "/accounts/signup/",
        {"email": "not-an-email", "display_name": "x", "password1": "a", "password2": "b"},
    )
    assert response.status_code == 200
    assert get_user_model().objects.count() == 0
    assert len(mail.outbox) == 0
