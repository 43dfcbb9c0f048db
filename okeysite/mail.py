"""E-mail: the console backend of `make run`, written for the person reading the log, and a
message as the plain fields that travel through the broker to the `mail` queue's task
(accounts.tasks.email_send_task)."""

from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.core.mail.backends import console


class EmailBackend(console.EmailBackend):
    """Each e-mail as who it goes to, its subject and its text as they read, links whole; the
    stock backend prints the raw MIME message, where the subject is encoded and quoted-printable
    breaks long links across lines."""

    def write_message(self, message):
        to = ", ".join(message.recipients())
        text = message.body.rstrip()
        self.stream.write(f"---- e-mail to {to}: {message.subject}\n{text}\n---- end of e-mail\n")


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
