"""The Celery app. Its settings are the CELERY_* names in okeysite/settings.py: Redis broker,
late acks, reject on worker loss, and a visibility timeout far above any countdown we use."""

import os
import time

from celery import Celery
from celery.signals import before_task_publish, task_postrun, task_prerun, worker_process_init

from . import broker  # noqa: F401  (registers the okeyredis transport that the broker URL names)
from .gc_pauses import gc_settle
from .logcontext import task_id_set

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")

app = Celery("okeysite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # accounts.tasks
# the games app keeps its tasks in the rooms that own them
app.autodiscover_tasks(["games.timers", "games.review", "games.arena"])


@before_task_publish.connect
def sent_at_stamp(headers=None, **kwargs):
    """When the task was sent: /metrics reports how long the oldest queued task has waited."""
    if headers is not None:
        headers.setdefault("okey_sent_at", time.time())


@worker_process_init.connect
def worker_gc_settle(**kwargs):
    """A worker process deals hands and plays bots' turns and timeouts, changes whose pages wait
    for them: what it loaded is frozen out of the garbage collector's walks, as daphne's is."""
    gc_settle()


@task_prerun.connect
def task_log_context(task_id=None, **kwargs):
    """The task's log lines carry its id (okeysite.logcontext)."""
    task_id_set(task_id or "")


@task_postrun.connect
def task_log_context_end(**kwargs):
    task_id_set("")
