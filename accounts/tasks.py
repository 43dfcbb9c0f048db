"""E-mail is sent by a Celery task once the transaction that asked for it has committed.

A request never waits for the mail server, a failed send is retried by the worker, and no mail
goes out for a change that was rolled back (a sign-up that failed after rendering its mail).
``email_send_on_commit`` takes a rendered message (allauth's verification and password mails,
invitations): only its plain fields travel through the broker.
"""

import smtplib
from functools import partial

from celery import shared_task
from django.contrib.sessions.backends.db import SessionStore
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.db import transaction


def email_to_dict(message: EmailMessage) -> dict:
    if message.attachments:
        raise ValueError("attachments are not sent through the e-mail task")
    return {
        "subject": message.subject,
        "body": message.body,
        "from_email": message.from_email,
        "to": list(message.to),
        "cc": list(message.cc),
        "bcc": list(message.bcc),
        "reply_to": list(message.reply_to),
        "headers": dict(message.extra_headers),
        "content_subtype": message.content_subtype,
        "alternatives": [
            [content, mimetype] for content, mimetype in getattr(message, "alternatives", [])
        ],
    }


def email_from_dict(data: dict) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject=data["subject"],
        body=data["body"],
        from_email=data["from_email"],
        to=data["to"],
        cc=data.get("cc") or None,
        bcc=data.get("bcc") or None,
        reply_to=data.get("reply_to") or None,
        headers=data.get("headers") or None,
    )
    message.content_subtype = data.get("content_subtype", "plain")
    for content, mimetype in data.get("alternatives", []):
        message.attach_alternative(content, mimetype)
    return message


@shared_task(
    autoretry_for=(OSError, smtplib.SMTPException),
    retry_backoff=True,
    retry_backoff_max=600,
    max_retries=8,
)
def email_send_task(data: dict) -> int:
    return email_from_dict(data).send()


def email_send_on_commit(message: EmailMessage) -> None:
    """Send ``message`` by the task, after the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(email_send_task.delay, email_to_dict(message)))


@shared_task(name="accounts.tasks.sessions_clear_task")
def sessions_clear_task() -> None:
    """Delete the log-in sessions that have expired (Django keeps them until asked)."""
    SessionStore.clear_expired()
