"""okeysite/settings.py reads its configuration from the environment. Each case loads the
settings in a fresh interpreter with a controlled environment, as a deployment would."""

import json
import os
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUR_VARIABLES = {
    "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL", "CACHE_URL",
    "EMAIL_URL", "CSRF_TRUSTED_ORIGINS", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
    "OKEY_VAR_DIR", "OKEY_PRIVATE_REDIS", "SITE_URL", "DJANGO_SETTINGS_MODULE", "OKEY_HOST",
    "OKEY_PORT",
}  # fmt: skip

DUMP = """
import json
from django.conf import settings
names = ["DEBUG", "ALLOWED_HOSTS", "DATABASES", "CACHES", "CHANNEL_LAYERS", "CELERY_BROKER_URL",
         "EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_USE_TLS", "SESSION_COOKIE_SECURE",
         "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS", "SECURE_SSL_REDIRECT", "LANGUAGE_CODE",
         "CELERY_TASK_ACKS_LATE", "CELERY_TASK_REJECT_ON_WORKER_LOST",
         "CELERY_BROKER_TRANSPORT_OPTIONS", "REDIS_URL", "SITE_URL", "SITE_URL_SET",
         "EMAIL_TIMEOUT", "CELERY_TASK_TIME_LIMIT", "CELERY_TASK_SOFT_TIME_LIMIT",
         "CELERY_WORKER_CONCURRENCY", "CELERY_WORKER_MAX_TASKS_PER_CHILD", "CELERY_TASK_ROUTES"]
print(json.dumps({n: getattr(settings, n, None) for n in names}, default=str))
"""


def run(args, env_extra, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES}
    env.update(
        {"OKEY_VAR_DIR": str(tmp_path / "var"), "DJANGO_SETTINGS_MODULE": "okeysite.settings"}
    )
    env.update(env_extra)
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def settings_in(env_extra, tmp_path) -> dict:
    proc = run(
        [sys.executable, "-c", "import django; django.setup()\n" + DUMP], env_extra, tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def production_env(**extra):
    """What production must set (the database and Redis named, not reached, by these tests)."""
    return {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "okey.example.com",
        "DATABASE_URL": f"sqlite:///{tempfile.gettempdir()}/okey-settings-test.sqlite3",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "EMAIL_URL": "consolemail://",
        **extra,
    }


def test_defaults_are_sqlite_in_wal_mode_and_a_private_redis_socket(tmp_path):
    s = settings_in({}, tmp_path)
    db = s["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == str(tmp_path / "var" / "okey.sqlite3")
    assert "journal_mode=WAL" in db["OPTIONS"]["init_command"]
    socket = tmp_path / "var" / "redis.sock"
    assert s["REDIS_URL"] == f"unix://{socket}"
    assert s["CELERY_BROKER_URL"] == f"okeyredis+socket://{socket}"  # okeysite/broker.py
    assert s["CACHES"]["default"]["LOCATION"] == f"unix://{socket}"
    assert s["CHANNEL_LAYERS"]["default"]["CONFIG"]["hosts"][0]["address"] == f"unix://{socket}"
    assert s["DEBUG"] is True
    assert s["EMAIL_BACKEND"] == "okeysite.mail.EmailBackend"  # the console, readable
    assert s["LANGUAGE_CODE"] == "tr"


def test_database_and_redis_come_from_the_environment(tmp_path):
    s = settings_in(
        {
            "DATABASE_URL": "postgres://okey:secret@db.internal:5433/okeyprod",
            "REDIS_URL": "redis://cache.internal:6380/2",
        },
        tmp_path,
    )
    db = s["DATABASES"]["default"]
    assert db["ENGINE"] == "okeysite.postgresql"  # Django's, with its idle-only health check
    assert (db["HOST"], db["PORT"], db["NAME"], db["USER"]) == (
        "db.internal",
        5433,
        "okeyprod",
        "okey",
    )
    assert db["CONN_HEALTH_CHECKS"] is True
    assert s["CELERY_BROKER_URL"] == "okeyredis://cache.internal:6380/2"
    assert s["CACHES"]["default"]["LOCATION"] == "redis://cache.internal:6380/2"
    assert (
        s["CHANNEL_LAYERS"]["default"]["CONFIG"]["hosts"][0]["address"]
        == "redis://cache.internal:6380/2"
    )


def test_celery_is_configured_for_at_least_once_delivery(tmp_path):
    s = settings_in({}, tmp_path)
    assert s["CELERY_TASK_ACKS_LATE"] is True
    assert s["CELERY_TASK_REJECT_ON_WORKER_LOST"] is True
    assert s["CELERY_BROKER_TRANSPORT_OPTIONS"]["visibility_timeout"] >= 3600


def test_smtp_from_email_url(tmp_path):
    s = settings_in(production_env(EMAIL_URL="smtp+tls://mailer:pw@smtp.example.com:587"), tmp_path)
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (s["EMAIL_HOST"], s["EMAIL_PORT"], s["EMAIL_USE_TLS"]) == ("smtp.example.com", 587, True)


def test_the_smtp_timeout_is_email_urls_timeout_and_ten_seconds_without_it(tmp_path):
    """django-environ makes ?timeout= an OPTIONS entry that Django's SMTP backend never reads: a
    relay that accepts and never answers then held its mail for ever."""
    url = "smtp+tls://mailer:pw@smtp.example.com:587"
    assert settings_in(production_env(EMAIL_URL=url + "?timeout=7"), tmp_path)["EMAIL_TIMEOUT"] == 7
    assert settings_in(production_env(EMAIL_URL=url), tmp_path)["EMAIL_TIMEOUT"] == 10
    proc = run(
        [sys.executable, "manage.py", "check"],
        production_env(EMAIL_URL=url + "?tiemout=7"),
        tmp_path,
    )
    assert proc.returncode != 0 and "EMAIL_URL: unknown option 'tiemout'" in proc.stderr


def test_mail_has_its_own_queue_and_every_task_a_time_limit(tmp_path):
    s = settings_in({}, tmp_path)
    assert s["CELERY_TASK_ROUTES"]["accounts.tasks.email_send_task"] == {"queue": "mail"}
    assert 0 < s["CELERY_TASK_SOFT_TIME_LIMIT"] < s["CELERY_TASK_TIME_LIMIT"] <= 120
    assert s["CELERY_WORKER_CONCURRENCY"] == 2 and s["CELERY_WORKER_MAX_TASKS_PER_CHILD"] > 0


def test_production_turns_on_secure_cookies_and_hsts(tmp_path):
    s = settings_in(production_env(), tmp_path)
    assert s["DEBUG"] is False
    assert s["ALLOWED_HOSTS"] == ["okey.example.com"]
    assert s["SESSION_COOKIE_SECURE"] is True
    assert s["CSRF_COOKIE_SECURE"] is True
    assert s["SECURE_HSTS_SECONDS"] >= 31536000
    assert s["SECURE_SSL_REDIRECT"] is True


@pytest.mark.parametrize(
    "missing", ["SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL", "EMAIL_URL"]
)
def test_production_refuses_to_start_without(missing, tmp_path):
    """No silent fallback with DEBUG=0: SQLite under var/, a local Redis socket, e-mails (reset
    links included) written into the logs."""
    env = production_env()
    del env[missing]
    proc = run([sys.executable, "manage.py", "check"], env, tmp_path)
    assert proc.returncode != 0
    assert f"Set the {missing} environment variable" in proc.stderr


def test_production_keeps_a_fallback_only_when_it_is_written_out(tmp_path):
    s = settings_in(
        production_env(
            DATABASE_URL=f"sqlite:///{tmp_path}/okey.sqlite3",
            REDIS_URL=f"unix://{tmp_path}/redis.sock",
            EMAIL_URL="consolemail://",
        ),
        tmp_path,
    )
    assert s["DATABASES"]["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert s["REDIS_URL"] == f"unix://{tmp_path}/redis.sock"
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"


def test_check_deploy_is_clean_in_production(tmp_path):
    proc = run([sys.executable, "manage.py", "check", "--deploy"], production_env(), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "System check identified no issues" in proc.stdout


def test_models_and_migrations_agree(tmp_path):
    proc = run(
        [sys.executable, "manage.py", "makemigrations", "--check", "--dry-run"], {}, tmp_path
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_links_outside_a_request_point_where_make_run_listens(tmp_path):
    """bin/run exports HOST and PORT as OKEY_HOST and OKEY_PORT; an explicit SITE_URL wins."""
    s = settings_in({"OKEY_HOST": "127.0.0.1", "OKEY_PORT": "8700"}, tmp_path)
    assert (s["SITE_URL"], s["SITE_URL_SET"]) == ("http://127.0.0.1:8700", False)
    s = settings_in({"OKEY_PORT": "8700", "SITE_URL": "https://okey.example.com/"}, tmp_path)
    assert (s["SITE_URL"], s["SITE_URL_SET"]) == ("https://okey.example.com", True)
