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

# The first hand (games.learn, a table with ``policy.lesson``): a friendly deal, the same for
# every newcomer, chosen so that one who follows the coach finishes on their third turn
# (indicator Y4, the okey Y5 in the rack; tests/games/learn/test_first_hand.py plays it). It
# is not secret: the lesson is a practice game against bots, and its commitment still holds.
FIRST_HAND_SEED = bytes.fromhex("e8270b2ef193812bbcc1380b85a8caf324078293cd057b3ce84650935c47ce92")


def test_seed() -> bytes | None:
    text = getattr(settings, "OKEY_TEST_SEED_HEX", "")
    if not text or not (settings.DEBUG or "PYTEST_CURRENT_TEST" in os.environ):
        return None
    seed = bytes.fromhex(text)
    if len(seed) != 32:
        raise ValueError("OKEY_TEST_SEED_HEX must be 64 hex digits (32 bytes)")
    return seed


def hand_seed(number: int, *, lesson: bool = False) -> bytes:
    fixed = FIRST_HAND_SEED if lesson else test_seed()
    if fixed is None:
        return secrets.token_bytes(32)
    if number == 1:
        return fixed
    return hashlib.sha256(fixed + number.to_bytes(4, "big")).digest()


def first_seat(n: int, *, lesson: bool = False) -> int:
    """Seat 0 (the newcomer's, in a lesson) when the deal is fixed, else a random seat."""
    return 0 if lesson or test_seed() is not None else secrets.randbelow(n)
