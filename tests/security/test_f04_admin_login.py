"""Finding 4: the admin's log-in was a side door: a password form of its own. It has none now
(accounts/admin.py): its page sends to the site's log-in, which has the failed log-in limits
(allauth's login_failed: 5 failures per address, 20 per client IP, in 5 minutes) and asks enrolled
staff for their second factor after the password (tests/accounts/test_staff.py)."""

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


def test_the_admin_log_in_sends_to_the_site_log_in(client, staff):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=%2Fadmin%2F"
    response = client.get("/en/admin/")
    assert response.status_code == 302 and response["Location"].startswith("/en/admin/login/")


def test_the_right_password_at_the_admins_page_logs_no_one_in(client, staff):
    response = admin_login(client, "mod@example.com", PASSWORD)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert "_auth_user_id" not in client.session


def test_failures_at_the_site_log_in_lock_the_staff_account_too(client, staff):
    for _ in range(5):
        client.post("/en/accounts/login/", {"login": "mod@example.com", "password": "wrong"})
    response = client.post(
        "/en/accounts/login/", {"login": "mod@example.com", "password": PASSWORD}
    )
    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session
