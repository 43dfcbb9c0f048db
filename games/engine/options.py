"""Rule options: the rules of docs/rules.md that the table manager (masa yöneticisi) chooses.

Only what changes how a hand or a game is played and counted lives here. The site's choices
about a table (private, bots filling seats, how well its bots play) are its ``TablePolicy``
(games/policy.py): the engine never reads them, and a bot's strength is an argument of
``bot_moves``.

A ``RuleOptions`` is checked when it is built, so one that exists is always valid;
``validated(**kw)`` and ``from_dict(d)`` also refuse unknown names. The defaults are the field
defaults below and nowhere else. The mode is stored as ASCII ("duz", "esli"); the Turkish
spellings "düz" and "eşli" are accepted on the way in.

turn_seconds is a rule: docs/rules.md lists it among the table's options with its range, and its
Timeouts section says what happens when it runs out. The engine has no clock, so the site's
deadlines are what read it, but it is part of the game everyone at the table agreed to.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

MODES = ("duz", "esli")
_MODE_ALIASES = {"duz": "duz", "düz": "duz", "esli": "esli", "eşli": "esli"}

# name -> (low, high) for the whole-number options, both ends allowed
RANGES = {
    "seats": (2, 4),
    "turn_seconds": (15, 120),
    "start_count": (5, 50),
    "hand_limit": (1, 50),
}
_FLAGS = ("colour_doubling", "indicator_bonus", "pairs_take_indicator")

# States stored before the split carry the site's policy in their options; they were never
# rules, so reading such a state drops them instead of refusing it.
FORMER_KEYS = frozenset({"bots_fill", "private", "bot_strength"})


class OptionError(ValueError):
    """A table option that is unknown or out of its range."""


@dataclass(frozen=True)
class RuleOptions:
    mode: str = "duz"
    seats: int = 4
    turn_seconds: int = 30
    start_count: int = 20
    hand_limit: int = 8
    colour_doubling: bool = True
    indicator_bonus: bool = True
    pairs_take_indicator: bool = False

    def __post_init__(self) -> None:
        mode = _MODE_ALIASES.get(self.mode) if isinstance(self.mode, str) else None
        if mode is None:
            raise OptionError(f"mode must be 'duz' (düz) or 'esli' (eşli), not {self.mode!r}")
        object.__setattr__(self, "mode", mode)
        for name, (low, high) in RANGES.items():
            value = getattr(self, name)
            # bool is an int subclass: True must not pass as 1 seat
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"{name} must be a whole number from {low} to {high}")
            if not low <= value <= high:
                raise OptionError(f"{name} must be from {low} to {high}, not {value}")
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"{name} must be true or false")
        if self.mode == "esli" and self.seats != 4:
            raise OptionError("eşli (partnership) okey needs 4 seats")

    @classmethod
    def validated(cls, **kw: Any) -> RuleOptions:
        unknown = sorted(set(kw) - NAMES)
        if unknown:
            raise OptionError(f"unknown table option(s): {', '.join(unknown)}")
        return cls(**kw)

    def to_dict(self) -> dict[str, Any]:
        # every field is a plain value: asdict's recursive copy was most of writing the
        # options into each move's hand state
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_dict(cls, d: Any) -> RuleOptions:
        """What ``to_dict`` wrote, now or before the split (see FORMER_KEYS)."""
        if not isinstance(d, dict):
            raise OptionError("table options must be a mapping of names to values")
        if not FORMER_KEYS.isdisjoint(d):
            d = {k: v for k, v in d.items() if k not in FORMER_KEYS}
        return cls.validated(**d)

    @property
    def partnership(self) -> bool:
        return self.mode == "esli"


# The name from before the site's policy moved out; states and callers that say
# TableOptions get the same class.
TableOptions = RuleOptions

_FIELD_NAMES = tuple(f.name for f in fields(RuleOptions))
NAMES = frozenset(_FIELD_NAMES)
