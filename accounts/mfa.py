"""The second factor's secrets encrypted at rest (allauth.mfa's documented encrypt/decrypt hook).

allauth keeps each authenticator app's TOTP secret and the recovery codes' seed in the database,
in clear by default: whoever read a backup could make the staff's codes and pass their second
factor. Each is stored here as ``enc1:`` and a Fernet token (AES and an HMAC, cryptography's
recipe) under a key that lives in the environment, never in the database:

- ``MFA_ENCRYPTION_KEYS``: comma-separated Fernet keys (``python -c "from cryptography.fernet
  import Fernet; print(Fernet.generate_key().decode())"``); the first encrypts, every one
  decrypts, so a new key goes first and the old one stays after it until ``manage.py mfa_rekey``
  has encrypted every secret again under the new one (README, "Keys").
- Unset, the keys are derived from SECRET_KEY and SECRET_KEY_FALLBACKS (the same rotation: the
  new SECRET_KEY, the old one in the fallbacks, then ``mfa_rekey``).

A secret stored before this (no ``enc1:``) is read as it is; migration 0006 encrypts them.
"""

import base64
import hashlib

from allauth.mfa.adapter import DefaultMFAAdapter
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

PREFIX = "enc1:"


def _derived(secret_key: str) -> bytes:
    digest = hashlib.sha256(b"okey.mfa.encryption:" + secret_key.encode()).digest()
    return base64.urlsafe_b64encode(digest)


def mfa_keys() -> MultiFernet:
    keys = settings.OKEY_MFA_ENCRYPTION_KEYS or [
        _derived(key) for key in [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    ]
    try:
        return MultiFernet([Fernet(key) for key in keys])
    except (ValueError, TypeError) as e:
        raise ImproperlyConfigured(
            "MFA_ENCRYPTION_KEYS: each key is 32 url-safe base64-encoded bytes (Fernet)"
        ) from e


def secret_encrypt(text: str) -> str:
    return PREFIX + mfa_keys().encrypt(text.encode()).decode()


def secret_decrypt(stored: str) -> str:
    if not stored.startswith(PREFIX):
        return stored  # stored before encryption (migration 0006 encrypts those)
    try:
        return mfa_keys().decrypt(stored[len(PREFIX) :].encode()).decode()
    except InvalidToken:
        raise ImproperlyConfigured(
            "a second factor's secret is encrypted under a key that MFA_ENCRYPTION_KEYS (or "
            "SECRET_KEY and SECRET_KEY_FALLBACKS) no longer holds: put the old key back after "
            "the new one"
        ) from None


def secret_rekey(stored: str) -> str:
    """The secret encrypted under the first key (whatever key, or none, it was under)."""
    return secret_encrypt(secret_decrypt(stored))


class MFAAdapter(DefaultMFAAdapter):
    def encrypt(self, text: str) -> str:
        return secret_encrypt(text)

    def decrypt(self, encrypted_text: str) -> str:
        return secret_decrypt(encrypted_text)


# Where each kind of authenticator keeps its secrets in Authenticator.data
SECRET_FIELDS = {"totp": ["secret"], "recovery_codes": ["seed"]}


def authenticator_data_rekey(kind: str, data: dict, convert=secret_rekey) -> dict:
    data = dict(data)
    for field in SECRET_FIELDS.get(kind, []):
        if data.get(field):
            data[field] = convert(data[field])
    if kind == "recovery_codes" and data.get("migrated_codes"):
        data["migrated_codes"] = [convert(code) for code in data["migrated_codes"]]
    return data
