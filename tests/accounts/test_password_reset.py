import re

import pytest
from django.core import mail

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_password_reset_by_email(client, player):
    response = client.post("/accounts/password/reset/", {"email": "zeynep@example.com"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/reset/done/"
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["zeynep@example.com"]
    link = re.search(r"http://testserver(\S+)", mail.outbox[0].body).group(1)

    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    assert "Yeni bir şifre seçin" in form_page.content.decode()
    response = client.post(
        form_page.redirect_chain[-1][0] if form_page.redirect_chain else link,
        {"password1": "yeni-sifre-okey-7", "password2": "yeni-sifre-okey-7"},
    )
    assert response.status_code == 302

    assert not client.login(username="zeynep", password=PASSWORD)
    response = client.post(
        "/accounts/login/", {"login": "zeynep@example.com", "password": "yeni-sifre-okey-7"}
    )
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


def test_reset_for_unknown_address_reveals_nothing(client, db):
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/reset/done/"
    # allauth tells the address that it has no account; it never says so on the page
    assert all("nobody@example.com" in m.to for m in mail.outbox)


def test_a_reset_link_works_once(client, player):
    client.post("/accounts/password/reset/", {"email": "zeynep@example.com"})
    link = re.search(r"http://testserver(\S+)", mail.outbox[0].body).group(1)
    first = client.get(link, follow=True)
    client.post(
        first.redirect_chain[-1][0],
        {"password1": "yeni-sifre-okey-7", "password2": "yeni-sifre-okey-7"},
    )
    client.logout()
    again = client.get(link, follow=True)
    assert "Bu bağlantı çalışmıyor" in again.content.decode()


def test_a_visitor_cannot_make_the_site_mail_one_address_again_and_again(client, player):
    """Three resets an hour for one address, ten from one client (ACCOUNT_RATE_LIMITS): every
    reset is a mail that a visitor makes the site send to someone else."""
    for _ in range(3):
        assert (
            client.post("/accounts/password/reset/", {"email": "zeynep@example.com"}).status_code
            == 302
        )
    refused = client.post("/accounts/password/reset/", {"email": "zeynep@example.com"})
    assert refused.status_code == 429
    assert len(mail.outbox) == 3
    # other addresses from the same client: refused too once ten attempts were made
    answers = [
        client.post("/accounts/password/reset/", {"email": f"someone{i}@example.com"}).status_code
        for i in range(10)
    ]
    assert 429 in answers and answers[-1] == 429
    assert len(mail.outbox) <= 10
