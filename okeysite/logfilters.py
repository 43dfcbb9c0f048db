"""Filters of the site's log (settings.LOGGING)."""

import logging
import re

# the periodic sweep's task and its beat schedule entry (okeysite/settings.py CELERY_BEAT_SCHEDULE)
SWEEP_NAMES = ("games.tasks.sweep_task", "tables-sweep")


class SweepQuiet(logging.Filter):
    """Drops Celery's lines about the sweep's every run (sent, received, succeeded): the sweep
    says itself when it acts (games.timers.sweep). Every other task keeps its lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        return not any(name in text for name in SWEEP_NAMES)


class HealthQuiet(logging.Filter):
    """Drops Django's ERROR line for a health check's 503 (okeysite/health.py): that answer is
    the report, read by whoever asked, and a monitor asking every few seconds while a worker is
    down would otherwise send ADMINS (and Sentry) a report each time. Real errors keep theirs."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        path = getattr(request, "path", "")
        return not (getattr(record, "status_code", None) == 503 and path.startswith("/healthz"))


# Celery's lines for a task that went well: received by the worker, and succeeded
TASK_WENT_WELL = re.compile(r"^Task \S+\[[^\]]+\] (received|succeeded in )")


class TaskQuiet(logging.Filter):
    """With DEBUG=0, drops Celery's "received" and "succeeded" lines (about 900 bytes a task at
    load); a retry, a failure, a time limit or a rejection keeps its line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not TASK_WENT_WELL.match(record.getMessage())
