"""Finding 4: the admin's log-in has the site's log-in rate limit (allauth's login_failed:
5 failures per address, 20 per client IP, in 5 minutes), and shares its counters."""

import pytest

pytestmark = pytest.mark.django_db

PASSWORD = "pw-staff-1234"


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(
        "moderator", "mod@example.com", PASSWORD, is_staff=True, is_superuser=True
    )


def admin_login(client, login, password):
    return client.post(
        "/admin/login/?next=/admin/", {"username": login, "password": password, "next": "/admin/"}
    )


def test_the_admin_login_works_with_the_e_mail_address(client, staff):
    response = admin_login(client, "mod@example.com", PASSWORD)
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.session["_auth_user_id"] == str(staff.pk)


def test_thirty_wrong_passwords_then_the_right_one_is_refused(client, staff):
    for _ in range(30):
        admin_login(client, "mod@example.com", "wrong-password")
    response = admin_login(client, "mod@example.com", PASSWORD)
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_admin_failures_count_at_the_site_log_in_too(client, staff):
    for _ in range(5):
        admin_login(client, "mod@example.com", "wrong-password")
    response = client.post(
        "/en/accounts/login/", {"login": "mod@example.com", "password": PASSWORD}
    )
    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session
