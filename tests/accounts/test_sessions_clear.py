"""Expired log-in sessions are deleted once a day (beat), as the privacy notice says."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts.tasks import sessions_clear_task

pytestmark = pytest.mark.django_db


def test_expired_sessions_are_deleted_and_live_ones_kept():
    now = timezone.now()
    Session.objects.create(
        session_key="old" * 8, session_data="", expire_date=now - timedelta(seconds=1)
    )
    Session.objects.create(
        session_key="new" * 8, session_data="", expire_date=now + timedelta(days=1)
    )
    sessions_clear_task()
    assert list(Session.objects.values_list("session_key", flat=True)) == ["new" * 8]
    schedule = settings.CELERY_BEAT_SCHEDULE["sessions-clear"]
    assert schedule["task"] == sessions_clear_task.name and schedule["schedule"] == 86400
