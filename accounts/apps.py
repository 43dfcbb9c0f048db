from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self):
        # Django's documented place to connect signal receivers: the module imports the models,
        # which are not loaded yet when this one is
        from . import signals  # noqa: F401, PLC0415
