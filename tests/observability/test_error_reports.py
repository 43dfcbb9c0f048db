"""Errors reach someone: an e-mail to ADMINS for each unhandled error with DEBUG off (Django's
AdminEmailHandler), without secrets, local variables or passwords; Sentry only when SENTRY_DSN
is set, its SDK not even imported otherwise."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import mail

from tests.observability.boom_urls import RACK

ROOT = Path(__file__).resolve().parents[2]
ADMIN = ("Ayşe Yılmaz", "ayse@example.com")


@pytest.fixture
def production(settings, celery_eager):
    """DEBUG off; the report's mail task (the `mail` queue's) runs here, at once."""
    settings.DEBUG = False
    settings.ADMINS = [ADMIN]
    settings.SECRET_KEY = "s3cret-key-that-must-never-travel-" + "x" * 20


@pytest.mark.django_db
@pytest.mark.urls("tests.observability.boom_urls")
def test_an_unhandled_error_sends_one_mail_to_admins_without_secrets(client, production,
                                                                      settings):  # fmt: skip
    # credentials inside URLs, at the top and deep inside a setting
    settings.REDIS_URL = "redis://:redis-pass-123@redis.internal:6379/0"
    settings.OKEY_TEST_LAYERS = {
        "default": {"CONFIG": {"hosts": [{"address": settings.REDIS_URL}]}}
    }
    client.raise_request_exception = False
    response = client.post(
        "/boom/",
        {"password": "hunter2-secret-password", "move": "discard"},
        headers={"authorization": "Bearer metrics-token-456"},
    )
    assert response.status_code == 500
    assert len(mail.outbox) == 1
    report = mail.outbox[0]
    assert report.to == ["ayse@example.com"]
    assert "/boom/" in report.subject
    body = report.body
    assert "RuntimeError at /boom/" in body and "the view failed" in body
    assert 'File "' in body and "in boom" in body  # the traceback is there
    assert "s3cret-key-that-must-never-travel" not in body
    assert "hunter2-secret-password" not in body
    assert "redis-pass-123" not in body and "redis.internal:6379" in body
    assert "metrics-token-456" not in body
    assert RACK not in body  # no frame's local variables (okeysite.reporting)
    assert not report.alternatives  # no HTML copy


@pytest.mark.django_db
@pytest.mark.urls("tests.observability.boom_urls")
def test_no_mail_with_debug_on(client, settings):
    settings.ADMINS = [ADMIN]
    settings.DEBUG = True
    client.raise_request_exception = False
    assert client.get("/boom/").status_code == 500
    assert mail.outbox == []


@pytest.mark.django_db
def test_a_failing_health_check_sends_no_mail(client, production):
    # no Celery worker here: the deep check answers 503 (tests/test_health.py), and a monitor
    # asking every few seconds must not fill ADMINS' inbox
    assert client.get("/healthz").status_code == 503
    assert mail.outbox == []


def settings_in_a_process(**env) -> dict:
    """okeysite's settings loaded in a fresh Python with ``env``: ADMINS, and whether
    sentry_sdk was imported and how it was set up."""
    code = """
import json, sys
import django
django.setup()
from django.conf import settings
out = {"admins": settings.ADMINS, "sentry_imported": "sentry_sdk" in sys.modules}
if out["sentry_imported"]:
    import sentry_sdk
    options = sentry_sdk.get_client().options
    out["sentry"] = {k: options[k] for k in
                     ("send_default_pii", "include_local_variables", "max_request_body_size")}
print(json.dumps(out))
"""
    environment = {
        key: value for key, value in os.environ.items() if key not in ("SENTRY_DSN", "ADMINS")
    }
    environment.update(DJANGO_SETTINGS_MODULE="okeysite.settings", SECRET_KEY="t" * 50, **env)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_sentry_is_not_imported_without_a_dsn():
    assert settings_in_a_process()["sentry_imported"] is False


def test_sentry_with_a_dsn_sends_no_personal_data_and_no_locals():
    found = settings_in_a_process(SENTRY_DSN="https://public@127.0.0.1:9/1")
    assert found["sentry_imported"] is True
    assert found["sentry"] == {
        "send_default_pii": False,
        "include_local_variables": False,
        "max_request_body_size": "never",
    }


def test_admins_from_the_environment():
    found = settings_in_a_process(ADMINS="Ayşe Yılmaz <ayse@example.com>,ops@example.com")
    assert found["admins"] == [["Ayşe Yılmaz", "ayse@example.com"], ["", "ops@example.com"]]
