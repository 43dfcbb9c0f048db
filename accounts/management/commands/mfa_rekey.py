"""Encrypt every second factor's secret again under the first of the current keys, after a new
key was put first in MFA_ENCRYPTION_KEYS (or a new SECRET_KEY, the old one in
SECRET_KEY_FALLBACKS): then the old key can go (README, "Keys")."""

from allauth.mfa.models import Authenticator
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.mfa import authenticator_data_rekey


class Command(BaseCommand):
    help = "Encrypt the second factors' secrets again under the first key."

    def handle(self, *args, **options):
        count = 0
        with transaction.atomic():
            for authenticator in Authenticator.objects.select_for_update():
                authenticator.data = authenticator_data_rekey(
                    authenticator.type, authenticator.data
                )
                authenticator.save(update_fields=["data"])
                count += 1
        self.stdout.write(f"{count} authenticators encrypted under the first key")
