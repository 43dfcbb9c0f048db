"""Tiles, their notation, and the okey that an indicator makes.

A tile *face* is a small int, so that racks are tuples of ints and the meld checker can index
arrays with them: colour c (0 red, 1 yellow, 2 blue, 3 black) and number n (1..13) give
``c * 13 + (n - 1)`` (0..51); a fake joker is ``FAKE`` (52). Two physical tiles share each face,
so a rack may hold a face twice. Notation (``R7``, ``K13``, ``F``) is only for the edges:
fixtures, logs, the judge command, the admin.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

COLOURS = "RYBK"
COLOUR_NAMES = ("red", "yellow", "blue", "black")
FAKE = 52
FACES = 53
COPIES = 2
TILE_COUNT = 106


class TileError(ValueError):
    """Text that is not a tile or not a hand of tiles."""


def face(colour: int, number: int) -> int:
    if not (0 <= colour < 4 and 1 <= number <= 13):
        raise TileError(f"no tile of colour {colour} and number {number}")
    return colour * 13 + number - 1


def colour_of(f: int) -> int:
    return f // 13


def number_of(f: int) -> int:
    return f % 13 + 1


# Every state read from the database spells its 106 tiles the way format_tile writes them, and
# every view writes them again: looked up, not parsed (the rest of parse_tile is for people).
_NOTATION = tuple(f"{COLOURS[f // 13]}{f % 13 + 1}" for f in range(FAKE)) + ("F",)
_FACE_OF = {text: f for f, text in enumerate(_NOTATION)}


def parse_tile(text: str) -> int:
    f = _FACE_OF.get(text) if isinstance(text, str) else None
    if f is not None:
        return f
    t = text.strip().upper()
    if t == "F":
        return FAKE
    if len(t) < 2 or t[0] not in COLOURS or not t[1:].isdigit():
        raise TileError(f"unknown tile {text!r}: write a colour letter (R, Y, B, K) and 1-13, or F")
    n = int(t[1:])
    if not 1 <= n <= 13 or t[1] == "0":
        raise TileError(f"unknown tile {text!r}: the number must be 1-13")
    return face(COLOURS.index(t[0]), n)


def format_tile(f: int) -> str:
    if type(f) is int and 0 <= f <= FAKE:
        return _NOTATION[f]
    if f == FAKE:
        return "F"
    if not 0 <= f < FAKE:
        raise TileError(f"no tile with code {f!r}")
    return f"{COLOURS[colour_of(f)]}{number_of(f)}"


def parse_tiles(text: str) -> tuple[int, ...]:
    if not isinstance(text, str):
        raise TileError("tiles must be text, tiles separated by spaces")
    return tuple(parse_tile(t) for t in text.split())


def format_tiles(faces: Iterable[int]) -> str:
    return " ".join(format_tile(f) for f in faces)


def okey_of(indicator: int) -> int:
    """The okey is the indicator's colour, one number higher; after 13 comes 1."""
    if indicator == FAKE:
        raise TileError("a fake joker cannot be the indicator")
    return colour_of(indicator) * 13 + number_of(indicator) % 13


def full_set() -> tuple[int, ...]:
    """All 106 tiles, in face order: two of each of the 52 faces and the two fake jokers."""
    return tuple(f for f in range(FACES) for _ in range(COPIES))


def overused(faces: Iterable[int]) -> list[int]:
    """Faces that appear more often than the two copies the set holds."""
    return sorted(f for f, n in Counter(faces).items() if n > COPIES)
