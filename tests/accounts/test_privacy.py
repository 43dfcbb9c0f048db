"""The privacy notice: what is kept and for how long, read from the settings the code obeys, who
the controller is, and the links that lead to it."""

from datetime import timedelta

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_notice_states_the_real_keeping_times(client, settings):
    settings.OKEY_CHAT_KEEP = timedelta(days=3)
    settings.OKEY_OPEN_TABLE_IDLE = timedelta(minutes=45)
    html = client.get("/en/privacy/").content.decode()
    assert "Table chat is deleted 3 days after it was written" in html
    assert "A table that never started is closed 45 minutes after it was made" in html
    assert f"A log-in lasts {settings.SESSION_COOKIE_AGE // 86400} days" in html
    html = client.get("/privacy/").content.decode()
    assert "Masa sohbeti, yazıldıktan 3 gün sonra silinir" in html
    assert "KVKK" in html and "GDPR" in html


def test_the_notice_names_every_cookie_the_site_sets_and_what_a_guest_leaves(client, settings):
    """Issue 42: it said the only cookies were a log-in and a language cookie; csrftoken (a
    year) is set too, and guests' data went unmentioned."""
    settings.OKEY_GUEST_SESSION = timedelta(hours=3)
    page = client.get("/en/privacy/")
    html = page.content.decode()
    for name in (settings.SESSION_COOKIE_NAME, settings.LANGUAGE_COOKIE_NAME, "csrftoken"):
        assert name in html, name
    assert f"csrftoken, kept {settings.CSRF_COOKIE_AGE // 86400} days" in html
    assert "A guest's log-in, name, tables and moves are deleted once the visit ends" in html
    assert "at most 3 hours after it began" in html


def test_the_controller_and_the_contact_are_settings(client, settings):
    html = client.get("/en/privacy/").content.decode()
    assert "The data controller is the operator of this site (testserver)." in html
    assert "mailto:" not in html
    settings.PRIVACY_CONTROLLER = "Okey Oyun Ltd. Şti., İstanbul"
    settings.PRIVACY_CONTACT = "kvkk@okey.example"
    html = client.get("/en/privacy/").content.decode()
    assert "The data controller is Okey Oyun Ltd. Şti., İstanbul." in html
    assert 'href="mailto:kvkk@okey.example"' in html


def test_the_footer_sign_up_and_profile_link_to_it(client, player, django_user_model):
    privacy = reverse("privacy")
    for url in (reverse("games:lobby"), reverse("account_signup")):
        assert f'href="{privacy}"' in client.get(url).content.decode(), url
    client.force_login(player)
    profile = client.get(reverse("accounts:profile")).content.decode()
    assert profile.count(f'href="{privacy}"') == 2  # the footer's and the profile's own
    assert f'href="{reverse("accounts:delete")}"' in profile
    other = django_user_model.objects.create_user("ali", "ali@example.com", "x")
    theirs = client.get(reverse("accounts:profile_detail", args=[other.pk])).content.decode()
    assert f'href="{reverse("accounts:delete")}"' not in theirs  # only one's own
