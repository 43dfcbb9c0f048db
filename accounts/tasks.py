"""E-mail is sent by a Celery task once the transaction that asked for it has committed.

A request never waits for the mail server, a failed send is retried by the worker, and no mail
goes out for a change that was rolled back (a sign-up that failed after rendering its mail).
``email_send_on_commit`` takes a rendered message (allauth's verification and password mails,
invitations): only its plain fields travel through the broker.
"""

import smtplib
from functools import partial

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.contrib.sessions.backends.db import SessionStore
from django.core.mail import EmailMessage
from django.db import transaction

from accounts.guests import guests_cleanup
from okeysite.mail import email_from_dict, email_to_dict


@shared_task(
    # a relay that does not answer within EMAIL_TIMEOUT is an OSError (socket.timeout); one
    # that answers too slowly for the whole exchange meets the task's soft time limit
    autoretry_for=(OSError, smtplib.SMTPException, SoftTimeLimitExceeded),
    retry_backoff=True,
    retry_backoff_max=600,
    max_retries=8,
)
def email_send_task(data: dict) -> int:
    """Runs in the `mail` queue's worker (CELERY_TASK_ROUTES), never beside live play's tasks."""
    return email_from_dict(data).send()


def email_send_on_commit(message: EmailMessage) -> None:
    """Send ``message`` by the task, after the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(email_send_task.delay, email_to_dict(message)))


@shared_task(name="accounts.tasks.sessions_clear_task")
def sessions_clear_task() -> None:
    """Delete the log-in sessions that have expired (Django keeps them until asked)."""
    SessionStore.clear_expired()


@shared_task(name="accounts.tasks.guests_cleanup_task")
def guests_cleanup_task() -> int:
    """Beat's: delete the guests whose session is over, and their tables (accounts.guests)."""
    return guests_cleanup()
