"""`make run` prints each e-mail as a person reads it: recipient, the subject decoded, the text
with its links whole (the stock console backend prints encoded MIME)."""

import io

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
