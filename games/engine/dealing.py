"""The deal: a deterministic shuffle of the 106 tiles from a 32-byte seed, and its check.

Anyone holding the revealed seed can rebuild a hand's deal with the steps below and compare it
with the commitment published before the hand (docs/rules.md, Fairness). The steps are the
whole algorithm; nothing else goes into the deal.

Commitment
    ``commitment(seed) = lowercase hex of SHA-256(seed)``.

Random stream
    Block ``k`` (k = 0, 1, 2, ...) is ``HMAC-SHA256(key=seed, message=k as 8 bytes, big-endian)``.
    The blocks are read in order, each as eight unsigned 32-bit big-endian integers.

Shuffle (``shuffle(seed)``, the wall)
    Start from the 106 tiles in face order, two of each: ``[0, 0, 1, 1, ..., 51, 51, 52, 52]``
    (face = colour * 13 + number - 1 with colours R, Y, B, K; 52 is the fake joker).
    For ``i`` from 105 down to 1: let ``bound = i + 1`` and ``limit = 2**32 - (2**32 % bound)``;
    take integers from the stream, skipping every ``x >= limit`` (rejection, so that no index is
    more likely than another), and with the first ``x < limit`` swap positions ``i`` and
    ``x % bound``. The result, position 0 first, is the wall.

Deal (``deal(seed, options, first_seat)``)
    1. The indicator is the tile at the lowest position of the wall that is not a fake joker
       (position 0 unless that is a fake joker); it is taken out of the wall.
    2. From the remaining 105 tiles, in wall order, ``first_seat`` gets the first 15 and then
       each next seat in turn order (``first_seat + 1``, ``+ 2``, ... modulo the number of
       seats) gets the next 14, in that order within each rack.
    3. The rest, in wall order, is the stock; its LAST element is the top, drawn first.

Example: the seed ``bytes(range(32))`` gives the wall beginning
``B2 B3 B9 K9 K7 R4 R1 R2`` (see tests/engine/test_deal.py).
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Callable, Iterator
from typing import Any

from .options import RuleOptions
from .state import HandState
from .tiles import FAKE, TILE_COUNT, full_set, okey_of

SEED_BYTES = 32
FIRST_RACK = 15
RACK = 14
_TWO32 = 1 << 32
_WORDS = struct.Struct(">8I")  # a block as eight unsigned 32-bit big-endian integers


class SeedError(ValueError):
    """A seed that is not 32 bytes."""


def _check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes | bytearray) or len(seed) != SEED_BYTES:
        raise SeedError("a hand's seed must be exactly 32 bytes")


def _stream(seed: bytes) -> Iterator[int]:
    key = bytes(seed)
    counter = 0
    while True:
        yield from _WORDS.unpack(hmac.digest(key, counter.to_bytes(8, "big"), "sha256"))
        counter += 1


def shuffle(seed: bytes) -> tuple[int, ...]:
    """The 106 faces in wall order for this seed (see the module docstring)."""
    _check_seed(seed)
    tiles = list(full_set())
    numbers = _stream(seed)
    for i in range(TILE_COUNT - 1, 0, -1):
        bound = i + 1
        limit = _TWO32 - (_TWO32 % bound)
        x = next(numbers)
        while x >= limit:
            x = next(numbers)
        j = x % bound
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tuple(tiles)


def commitment(seed: bytes) -> str:
    _check_seed(seed)
    return hashlib.sha256(bytes(seed)).hexdigest()


def turn_indicator(seed: bytes) -> tuple[int, list[int]]:
    """The indicator (the wall's first tile that is not a fake joker) and the wall without it:
    every variant deals from there."""
    wall = list(shuffle(seed))
    k = next(i for i, f in enumerate(wall) if f != FAKE)
    return wall.pop(k), wall


def deal_racks(
    wall: list[int], n: int, first_seat: int, first: int, size: int
) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Consecutive blocks of the wall: ``first`` tiles to ``first_seat``, ``size`` to each next
    seat; and where the stock begins."""
    if isinstance(first_seat, bool) or not isinstance(first_seat, int) or not 0 <= first_seat < n:
        raise ValueError(f"first_seat must be a seat from 0 to {n - 1}")
    racks: list[tuple[int, ...]] = [()] * n
    pos = 0
    for step in range(n):
        take = first if step == 0 else size
        racks[(first_seat + step) % n] = tuple(wall[pos : pos + take])
        pos += take
    return tuple(racks), pos


def deal(seed: bytes, options: RuleOptions, first_seat: int) -> HandState:
    n = options.seats
    indicator, wall = turn_indicator(seed)
    racks, pos = deal_racks(wall, n, first_seat, FIRST_RACK, RACK)
    return HandState(
        options=options,
        n=n,
        first_seat=first_seat,
        indicator=indicator,
        okey=okey_of(indicator),
        stock=tuple(wall[pos:]),
        racks=racks,
        discards=((),) * n,
        turn=first_seat,
        # the first player does not draw on the first turn
        phase="discard",
        played=(False,) * n,
    )


def deal_verified(
    deal_of: Callable[[bytes, Any, int], Any],
    replay: Callable[..., Any],
    seed: bytes,
    commitment_hex: str,
    state: Any,
    moves: object | None = None,
) -> bool:
    """Does the seed match the commitment and deal this hand, for any variant (``deal_of`` its
    deal, ``replay`` its replay from a seed)? A fresh state is compared whole; a later one with
    the replay of ``moves`` when given, else by what cannot have changed since the deal: seats,
    indicator, and the stock (which only ever loses its top)."""
    try:
        if not hmac.compare_digest(commitment(seed), str(commitment_hex).lower()):
            return False
        fresh = deal_of(seed, state.options, state.first_seat)
    except ValueError:
        return False
    if moves is not None:
        try:
            return replay(seed, state.options, state.first_seat, moves) == state
        except ValueError:
            return False
    if state.seq == 0:
        return fresh == state
    return (
        fresh.n == state.n
        and fresh.indicator == state.indicator
        and fresh.stock[: len(state.stock)] == state.stock
    )
