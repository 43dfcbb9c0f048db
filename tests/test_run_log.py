"""What `make run` prints: each e-mail as a person reads it (recipient, the subject decoded, the
text with its links whole; the stock console backend prints encoded MIME), and no line for each
of the sweep's runs."""

import io
import logging

from django.core.mail import EmailMultiAlternatives

from okeysite.mail import EmailBackend


def test_an_email_on_the_console_reads_as_sent():
    link = "http://127.0.0.1:8000/accounts/confirm-email/" + "Mg:1tQ" * 20 + "/"
    stream = io.StringIO()
    message = EmailMultiAlternatives(
        subject="[Okey] E-posta adresinizi doğrulayın",
        body=f"Merhaba Elif,\n\nDoğrulamak için: {link}\n",
        to=["elif@example.com"],
    )
    message.attach_alternative("<p>html</p>", "text/html")
    EmailBackend(stream=stream).send_messages([message])
    out = stream.getvalue()
    assert "---- e-mail to elif@example.com: [Okey] E-posta adresinizi doğrulayın" in out
    assert link in out.splitlines()[3]
    assert "=?utf-8?" not in out and "<p>" not in out


def test_the_sweeps_runs_leave_no_line_and_other_tasks_keep_theirs(caplog):
    caplog.set_level(logging.INFO)
    trace = logging.getLogger("celery.app.trace")
    line = "Task %s[%s] succeeded in %ss: %s"
    trace.info(line, "games.tasks.sweep_task", "a1", 0.01, 0)
    trace.info(line, "accounts.tasks.email_send_task", "b2", 0.02, None)
    logging.getLogger("celery.worker.strategy").info(
        "Task %s[%s] received", "games.tasks.sweep_task", "a3"
    )
    logging.getLogger("celery.beat").info(
        "Scheduler: Sending due task %s (%s)", "tables-sweep", "games.tasks.sweep_task"
    )
    assert [r.getMessage() for r in caplog.records] == [
        "Task accounts.tasks.email_send_task[b2] succeeded in 0.02s: None"
    ]
