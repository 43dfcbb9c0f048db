"""Error reports that never show a function's local variables, nor a password inside a URL.

Django's debug page (DEBUG on) and its error e-mails list every frame's locals: in a move those
are the stock order and every rack. No page or report may carry game state, so no locals at all.

Django masks settings whose names look secret (KEY, PASS, TOKEN, ...), but the URLs of Redis,
the database or Sentry carry their credentials inside values named REDIS_URL, LOCATION or
address, which it would print whole in the report's settings: the user and password part of any
URL is masked too, and so is a posted field named like a secret, whatever the view.
"""

import re

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.utils.log import AdminEmailHandler
from django.utils.regex_helper import _lazy_re_compile
from django.views.debug import SafeExceptionReporterFilter

from .celery import app as celery_app
from .mail import email_to_dict

# the user[:password]@ of scheme://user:password@host
URL_CREDENTIALS = re.compile(r"(?<=://)[^/@\s]+@")


class NoLocalsFilter(SafeExceptionReporterFilter):
    hidden_settings = _lazy_re_compile(
        "API|AUTH|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|DSN", flags=re.I
    )

    def get_traceback_frame_variables(self, request, tb_frame):
        return []

    def get_post_parameters(self, request):
        # Django masks a form's fields only in views marked sensitive_post_parameters (allauth's
        # are): here any field named like a secret (password, token, ...) is masked wherever
        # the view that failed.
        params = super().get_post_parameters(request)
        if request is None or not any(self.hidden_settings.search(name) for name in params):
            return params
        masked = params.copy()
        for name in params:
            if self.hidden_settings.search(name):
                masked[name] = self.cleansed_substitute
        return masked

    def cleanse_setting(self, key, value):
        # dicts and lists come back through here, item by item, from Django's own cleanse_setting
        value = super().cleanse_setting(key, value)
        if isinstance(value, str):
            return URL_CREDENTIALS.sub(f"{self.cleansed_substitute}@", value)
        return value


class AdminEmailQueued(AdminEmailHandler):
    """Django's error mail to ADMINS, sent by the `mail` queue's task like every other e-mail:
    the stock handler talks to the relay inside the failing request, and a relay that hangs
    then held the web process's thread for the sync views as long as it would not answer."""

    def emit(self, record):
        try:
            super().emit(record)
        except Exception:  # the broker away: the report is lost, the request is not
            self.handleError(record)

    def send_mail(self, subject, message, *args, html_message=None, **kwargs):
        if not settings.ADMINS:
            return
        mail = EmailMultiAlternatives(
            f"{settings.EMAIL_SUBJECT_PREFIX}{subject}",
            message,
            settings.SERVER_EMAIL,
            [address for _name, address in settings.ADMINS],
        )
        if html_message:
            mail.attach_alternative(html_message, "text/html")
        # by its name in the registry: this module is loaded with the settings, before the apps
        task = celery_app.tasks["accounts.tasks.email_send_task"]
        task.apply_async(args=[email_to_dict(mail)], retry=False)
