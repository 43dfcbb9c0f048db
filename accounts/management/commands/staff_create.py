"""`manage.py staff_create --email ADDRESS --name NAME`: the first staff account (or another).

Django's createsuperuser makes an account that the site's log-in then holds at e-mail
confirmation (allauth knows no address for it) and that has no display name of its choosing.
This one makes a superuser that logs in at once on the site and on the admin: its e-mail address
verified and primary, a profile with the display name given. The password comes from
OKEY_STAFF_PASSWORD when that is set (for scripts), else it is asked for twice; the site's
password rules apply. At the first visit to the admin the account is sent to enrol an
authenticator app (accounts.staff_mfa).
"""

import getpass
import os
import sys

from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, no_translations
from django.core.validators import validate_email
from django.db import transaction

from accounts.forms import display_name_clean
from accounts.models import LANGUAGE_CHOICES

PASSWORD_VARIABLE = "OKEY_STAFF_PASSWORD"


def password_ask() -> str:
    if not sys.stdin.isatty():
        raise CommandError(f"no terminal to ask for the password: set {PASSWORD_VARIABLE}")
    first = getpass.getpass("Password: ")
    if first != getpass.getpass("Password (again): "):
        raise CommandError("the two passwords differ")
    return first


class Command(BaseCommand):
    help = (
        "Make a staff account (a superuser) usable on the site and the admin: e-mail address "
        f"verified, a display name. The password comes from {PASSWORD_VARIABLE} or is asked for."
    )

    def add_arguments(self, parser):
        parser.add_argument("--email", required=True)
        parser.add_argument("--name", required=True, help="the display name shown at tables")
        parser.add_argument(
            "--language", default="tr", choices=[code for code, _ in LANGUAGE_CHOICES]
        )

    @no_translations  # the operator reads the refusals in English, as the rest of the command
    def handle(self, *args, email, name, language, **options):
        User = get_user_model()
        email = User.objects.normalize_email(email.strip())
        try:
            validate_email(email)
            name = display_name_clean(name)
        except ValidationError as e:
            raise CommandError(" ".join(e.messages)) from e
        if (
            EmailAddress.objects.filter(email__iexact=email).exists()
            or User.objects.filter(email__iexact=email).exists()
        ):
            raise CommandError(
                f"an account with {email} exists already (manage.py changepassword changes a "
                "password; the admin makes an account staff)"
            )
        password = os.environ.get(PASSWORD_VARIABLE) or password_ask()
        username = get_adapter().generate_unique_username([name, email, "staff"])
        user = User(username=username, email=email, is_staff=True, is_superuser=True)
        try:
            validate_password(password, user)
        except ValidationError as e:
            raise CommandError(" ".join(e.messages)) from e
        user.set_password(password)
        with transaction.atomic():
            user.save()  # its profile comes from the post_save signal (accounts.models)
            EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
            user.profile.display_name = name
            user.profile.language = language
            user.profile.save(update_fields=["display_name", "language"])
        self.stdout.write(
            f"Staff account {email} ({name}) made. Log in on the site or at /admin/: the first "
            "visit to the admin asks you to set up an authenticator app (TOTP) and shows your "
            "recovery codes; from then on the log-in asks for a code after the password."
        )
