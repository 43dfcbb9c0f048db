"""Where each hand's seed and each game's first seat come from.

Normally a fresh 32-byte seed from ``secrets`` and a random first seat. For tests that must know
the deal, the setting ``OKEY_TEST_SEED_HEX`` (64 hex digits) fixes it, and is honoured only when
``settings.DEBUG`` is on or while pytest runs a test (``PYTEST_CURRENT_TEST``), never in
production: hand 1 uses exactly that seed, hand n > 1 uses SHA-256(seed || n as 4 bytes big
endian), and the first seat of the game is seat 0 (shown as seat 1).
"""

import hashlib
import os
import secrets

from django.conf import settings


def test_seed() -> bytes | None:
    text = getattr(settings, "OKEY_TEST_SEED_HEX", "")
    if not text or not (settings.DEBUG or "PYTEST_CURRENT_TEST" in os.environ):
        return None
    seed = bytes.fromhex(text)
    if len(seed) != 32:
        raise ValueError("OKEY_TEST_SEED_HEX must be 64 hex digits (32 bytes)")
    return seed


def hand_seed(number: int) -> bytes:
    fixed = test_seed()
    if fixed is None:
        return secrets.token_bytes(32)
    if number == 1:
        return fixed
    return hashlib.sha256(fixed + number.to_bytes(4, "big")).digest()


def first_seat(n: int) -> int:
    return 0 if test_seed() is not None else secrets.randbelow(n)
