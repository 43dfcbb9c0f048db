"""The console e-mail backend of `make run`, written for the person reading the log."""

from django.core.mail.backends import console


class EmailBackend(console.EmailBackend):
    """Each e-mail as who it goes to, its subject and its text as they read, links whole; the
    stock backend prints the raw MIME message, where the subject is encoded and quoted-printable
    breaks long links across lines."""

    def write_message(self, message):
        to = ", ".join(message.recipients())
        text = message.body.rstrip()
        self.stream.write(f"---- e-mail to {to}: {message.subject}\n{text}\n---- end of e-mail\n")
