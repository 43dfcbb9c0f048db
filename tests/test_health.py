import pytest
from celery.contrib.testing.worker import start_worker
from django.test import override_settings

from okeysite.celery import app as celery_app


def health(client):
    response = client.get("/healthz")
    assert response["Content-Type"] == "application/json"
    return response.status_code, response.json()


# transaction=True: Celery's Django fix-up closes the thread's database connection when the
# worker starts, which a test wrapped in a transaction would not survive.
@pytest.mark.django_db(transaction=True)
def test_all_ok_with_a_celery_worker_running(client):
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        status, body = health(client)
    assert body == {"database": "ok", "redis": "ok", "celery": "ok", "status": "ok"}
    assert status == 200


@pytest.mark.django_db
def test_no_celery_worker_is_a_503(client):
    status, body = health(client)
    assert body == {"database": "ok", "redis": "ok", "celery": "error", "status": "error"}
    assert status == 503


@pytest.mark.django_db
def test_redis_unreachable_is_a_503(client, tmp_path):
    with override_settings(REDIS_URL=f"unix://{tmp_path}/no-redis-here.sock"):
        status, body = health(client)
    assert body["redis"] == "error"
    assert body["database"] == "ok"
    assert status == 503


def test_database_unreachable_is_a_503(client):
    # Without the django_db mark pytest-django refuses every query, as a dead database would.
    status, body = health(client)
    assert body["database"] == "error"
    assert status == 503


def test_healthz_is_not_under_the_language_prefix(client):
    assert client.get("/en/healthz").status_code == 404
