"""Error reports that never show a function's local variables, nor a password inside a URL.

Django's debug page (DEBUG on) and its error e-mails list every frame's locals: in a move those
are the stock order and every rack. No page or report may carry game state, so no locals at all.

Django masks settings whose names look secret (KEY, PASS, TOKEN, ...), but the URLs of Redis,
the database or Sentry carry their credentials inside values named REDIS_URL, LOCATION or
address, which it would print whole in the report's settings: the user and password part of any
URL is masked too, and so is a posted field named like a secret, whatever the view.
"""

import re

from django.utils.regex_helper import _lazy_re_compile
from django.views.debug import SafeExceptionReporterFilter

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
