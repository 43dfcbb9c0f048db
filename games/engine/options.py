"""Table options: what the table manager (masa yöneticisi) chooses, each within its range.

Every option of okey-rules.md is here with the range the rules give. A ``TableOptions`` is
checked when it is built, so one that exists is always valid; ``validated(**kw)`` and
``from_dict(d)`` also refuse unknown names. The mode is stored as ASCII ("duz", "esli"); the
Turkish spellings "düz" and "eşli" are accepted on the way in.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

MODES = ("duz", "esli")
STRENGTHS = ("easy", "normal")
_MODE_ALIASES = {"duz": "duz", "düz": "duz", "esli": "esli", "eşli": "esli"}

# name -> (low, high) for the whole-number options
_RANGES = {
    "seats": (2, 4),
    "turn_seconds": (15, 120),
    "start_count": (5, 50),
    "hand_limit": (1, 50),
}
_FLAGS = (
    "colour_doubling",
    "indicator_bonus",
    "pairs_take_indicator",
    "bots_fill",
    "private",
)


class OptionError(ValueError):
    """A table option that is unknown or out of its range."""


@dataclass(frozen=True)
class TableOptions:
    mode: str = "duz"
    seats: int = 4
    turn_seconds: int = 30
    start_count: int = 20
    hand_limit: int = 8
    colour_doubling: bool = True
    indicator_bonus: bool = True
    pairs_take_indicator: bool = False
    bots_fill: bool = True
    private: bool = False
    bot_strength: str = "normal"

    def __post_init__(self) -> None:
        mode = _MODE_ALIASES.get(self.mode) if isinstance(self.mode, str) else None
        if mode is None:
            raise OptionError(f"mode must be 'duz' (düz) or 'esli' (eşli), not {self.mode!r}")
        object.__setattr__(self, "mode", mode)
        for name, (low, high) in _RANGES.items():
            value = getattr(self, name)
            # bool is an int subclass: True must not pass as 1 seat
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"{name} must be a whole number from {low} to {high}")
            if not low <= value <= high:
                raise OptionError(f"{name} must be from {low} to {high}, not {value}")
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"{name} must be true or false")
        if self.bot_strength not in STRENGTHS:
            raise OptionError(f"bot_strength must be 'easy' or 'normal', not {self.bot_strength!r}")
        if self.mode == "esli" and self.seats != 4:
            raise OptionError("eşli (partnership) okey needs 4 seats")

    @classmethod
    def validated(cls, **kw: Any) -> TableOptions:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(kw) - known)
        if unknown:
            raise OptionError(f"unknown table option(s): {', '.join(unknown)}")
        return cls(**kw)

    def to_dict(self) -> dict[str, Any]:
        # every field is a plain value: asdict's recursive copy was most of writing the
        # options into each move's hand state
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_dict(cls, d: Any) -> TableOptions:
        if not isinstance(d, dict):
            raise OptionError("table options must be a mapping of names to values")
        return cls.validated(**d)

    @property
    def partnership(self) -> bool:
        return self.mode == "esli"


_FIELD_NAMES = tuple(f.name for f in fields(TableOptions))
