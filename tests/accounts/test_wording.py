"""The site's voice on allauth's and Django's pages a player sees (accounts/wording.py, issue 42):
"şifre" throughout, never "parola"; sentence case; "e-mail" in English; the recovery codes'
count in plain words."""

import pytest
from allauth.account.models import EmailAddress

pytestmark = pytest.mark.django_db

PASSWORD = "kirmizi-okey-13"


@pytest.fixture
def player(client, django_user_model):
    user = django_user_model.objects.create_user("ece", "ece@example.com", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    client.force_login(user)
    return user


def test_the_login_and_a_too_short_password_say_sifre_in_sentence_case(client):
    login = client.get("/accounts/login/").content.decode()
    assert "Beni hatırla" in login and "Beni Hatırla" not in login
    short = client.post(
        "/accounts/signup/",
        {"email": "a@example.com", "display_name": "Ayşe", "password1": "k1", "password2": "k1"},
    ).content.decode()
    assert "Bu şifre çok kısa" in short and "arola" not in short


def test_the_email_and_password_pages_speak_the_sites_words(client, player):
    tr = client.get("/accounts/email/").content.decode()
    assert "E-posta adresleri" in tr and "E-posta Adresleri" not in tr
    en = client.get("/en/accounts/email/").content.decode()
    assert "E-mail addresses" in en and "Email Addresses" not in en
    change = client.get("/accounts/password/change/").content.decode()
    assert "Şifre Değiştir" not in change and "arola" not in change


def test_the_recovery_codes_count_reads_plainly():
    from django.utils import translation
    from django.utils.translation import ngettext

    singular = "There is %(unused_count)s out of %(total_count)s recovery codes available."
    plural = "There are %(unused_count)s out of %(total_count)s recovery codes available."
    values = {"unused_count": 10, "total_count": 10}
    with translation.override("tr"):
        text = ngettext(singular, plural, 10) % values
    assert text == "10 kurtarma kodundan 10 tanesi kullanılabilir."
    with translation.override("en"):
        assert ngettext(singular, plural, 10) % values == "10 of your 10 recovery codes are left."
