"""The Celery app. Its settings are the CELERY_* names in okeysite/settings.py: Redis broker,
late acks, reject on worker loss, and a visibility timeout far above any countdown we use."""

import os

from celery import Celery

from . import broker  # noqa: F401  (registers the okeyredis transport that the broker URL names)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")

app = Celery("okeysite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
