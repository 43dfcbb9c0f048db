"""The second factor's secrets are encrypted at rest (accounts.mfa, allauth.mfa's encrypt hook):
the database, and so every backup of it, holds no TOTP secret or recovery seed in clear, and
the codes still work; the key turns over as README says (a new key first, mfa_rekey, the old
one gone), and a secret stored before the encryption still opens."""

import time

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.mfa.totp.internal.auth import (
    TOTP,
    format_hotp_value,
    generate_totp_secret,
    hotp_value,
)
from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from accounts.mfa import PREFIX, secret_decrypt

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(
        "staff", "staff@example.com", "pw-staff-1234", is_staff=True
    )


def totp_row(user) -> Authenticator:
    return Authenticator.objects.get(user=user, type=Authenticator.Type.TOTP)


def test_the_totp_secret_and_the_recovery_seed_are_stored_encrypted(staff):
    secret = generate_totp_secret()
    TOTP.activate(staff, secret)
    RecoveryCodes.activate(staff)
    stored = totp_row(staff).data["secret"]
    assert stored.startswith(PREFIX) and secret not in stored
    assert secret_decrypt(stored) == secret
    seed = Authenticator.objects.get(user=staff, type=Authenticator.Type.RECOVERY_CODES)
    assert seed.data["seed"].startswith(PREFIX)
    # the codes are what the app shows: allauth reads the secret back through the hook
    assert TOTP(totp_row(staff)).validate_code(_code(secret))


def _code(secret: str) -> str:
    """The code the staff member's app shows now."""
    return format_hotp_value(hotp_value(secret, int(time.time()) // 30))


def test_a_new_key_goes_first_mfa_rekey_moves_every_secret_then_the_old_key_goes(staff, settings):
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    settings.OKEY_MFA_ENCRYPTION_KEYS = [old]
    secret = generate_totp_secret()
    TOTP.activate(staff, secret)
    under_old = totp_row(staff).data["secret"]

    settings.OKEY_MFA_ENCRYPTION_KEYS = [new, old]  # both open it meanwhile
    assert secret_decrypt(totp_row(staff).data["secret"]) == secret
    call_command("mfa_rekey", stdout=open("/dev/null", "w"))  # noqa: SIM115
    under_new = totp_row(staff).data["secret"]
    assert under_new != under_old

    settings.OKEY_MFA_ENCRYPTION_KEYS = [new]
    assert secret_decrypt(under_new) == secret
    with pytest.raises(ImproperlyConfigured, match="put the old key back"):
        secret_decrypt(under_old)


def test_a_new_secret_key_with_the_old_one_in_the_fallbacks_keeps_the_secrets(staff, settings):
    settings.OKEY_MFA_ENCRYPTION_KEYS = []  # derived from SECRET_KEY
    secret = generate_totp_secret()
    TOTP.activate(staff, secret)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-" + "x" * 40
    assert secret_decrypt(totp_row(staff).data["secret"]) == secret
    call_command("mfa_rekey", stdout=open("/dev/null", "w"))  # noqa: SIM115
    settings.SECRET_KEY_FALLBACKS = []
    assert secret_decrypt(totp_row(staff).data["secret"]) == secret


def test_a_secret_stored_in_clear_before_still_opens_and_mfa_rekey_encrypts_it(staff):
    secret = generate_totp_secret()
    Authenticator.objects.create(user=staff, type=Authenticator.Type.TOTP, data={"secret": secret})
    assert TOTP(totp_row(staff)).validate_code(_code(secret))
    call_command("mfa_rekey", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert totp_row(staff).data["secret"].startswith(PREFIX)
    assert secret_decrypt(totp_row(staff).data["secret"]) == secret


def test_the_migration_encrypts_clear_secrets_and_back_for_the_code_before_it(staff):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("accounts.migrations.0006_mfa_secrets_encrypted")
    secret = generate_totp_secret()
    Authenticator.objects.create(user=staff, type=Authenticator.Type.TOTP, data={"secret": secret})
    migration.encrypt(apps, None)
    stored = totp_row(staff).data["secret"]
    assert stored.startswith(PREFIX) and secret_decrypt(stored) == secret
    migration.encrypt(apps, None)  # twice changes nothing
    assert totp_row(staff).data["secret"] == stored
    migration.decrypt(apps, None)
    assert totp_row(staff).data["secret"] == secret
