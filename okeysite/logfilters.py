"""Filters of the site's log (settings.LOGGING)."""

import logging

# the periodic sweep's task and its beat schedule entry (okeysite/settings.py CELERY_BEAT_SCHEDULE)
SWEEP_NAMES = ("games.tasks.sweep_task", "tables-sweep")


class SweepQuiet(logging.Filter):
    """Drops Celery's lines about the sweep's every run (sent, received, succeeded): the sweep
    says itself when it acts (games.timers.sweep). Every other task keeps its lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        return not any(name in text for name in SWEEP_NAMES)
