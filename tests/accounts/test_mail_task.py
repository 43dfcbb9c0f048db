"""E-mail goes out through a Celery task, and only once the transaction that asked for it has
committed (accounts/tasks.py, the allauth adapter's send_mail)."""

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.test import TestCase

from accounts import tasks

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mail_by_task():
    """Unlike the other accounts tests, the commit is held back here by the test itself."""


def test_a_sign_up_mail_waits_for_the_commit_and_goes_through_the_task(client, monkeypatch):
    sent = []
    monkeypatch.setattr(tasks.email_send_task, "delay", lambda data: sent.append(data))
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        with transaction.atomic():
            client.post(
                "/accounts/signup/",
                {
                    "email": "deniz@example.com",
                    "display_name": "Deniz",
                    "password1": "mavi-okey-2024!",
                    "password2": "mavi-okey-2024!",
                },
            )
        assert sent == [] and mail.outbox == []
    for callback in callbacks:
        callback()
    assert len(sent) == 1 and sent[0]["to"] == ["deniz@example.com"]
    assert "/accounts/confirm-email/" in sent[0]["body"]


def test_a_rolled_back_change_sends_no_mail():
    message = EmailMultiAlternatives("s", "b", "from@example.com", ["to@example.com"])
    with TestCase.captureOnCommitCallbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                tasks.email_send_on_commit(message)
                raise RuntimeError("the sign-up failed")
        except RuntimeError:
            pass
    assert callbacks == [] and mail.outbox == []


def test_the_task_sends_the_message_as_rendered():
    message = EmailMultiAlternatives(
        "Konu", "düz metin", "Okey <noreply@okey.localhost>", ["a@example.com"],
        headers={"X-Okey": "1"}, reply_to=["r@example.com"],
    )  # fmt: skip
    message.attach_alternative("<p>html</p>", "text/html")
    assert tasks.email_send_task.apply(args=(tasks.email_to_dict(message),)).get() == 1
    out = mail.outbox[-1]
    assert (out.subject, out.body, out.from_email, out.to) == (
        "Konu",
        "düz metin",
        "Okey <noreply@okey.localhost>",
        ["a@example.com"],
    )
    assert out.alternatives[0][:2] == ("<p>html</p>", "text/html")
    assert out.extra_headers == {"X-Okey": "1"} and out.reply_to == ["r@example.com"]
