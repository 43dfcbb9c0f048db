from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class AccountsConfig(AppConfig):
    name = "accounts"
    # not "Accounts": allauth's account app (e-mail addresses) has that name in the admin
    verbose_name = pgettext_lazy("admin section", "Players")
