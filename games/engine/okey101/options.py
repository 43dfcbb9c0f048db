"""101's table options (docs/rules-101.md, "Table options"): the rules the table manager
chooses. Checked when built, so an ``Options101`` that exists is valid. Kept apart from Düz
Okey's ``RuleOptions`` so that Düz states are stored exactly as before.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..options import OptionError

RANGES = {"seats": (2, 4), "hand_limit": (1, 21), "turn_seconds": (15, 120)}
_FLAGS = ("esli", "katlamali")
MELDS_THRESHOLD = 101
PAIRS_NEEDED = 5


@dataclass(frozen=True)
class Options101:
    esli: bool = False
    seats: int = 4
    katlamali: bool = False
    hand_limit: int = 11
    turn_seconds: int = 30

    def __post_init__(self) -> None:
        for name, (low, high) in RANGES.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise OptionError(f"{name} must be a whole number from {low} to {high}")
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"{name} must be true or false")
        if self.esli and self.seats != 4:
            raise OptionError("eşli 101 needs 4 seats")

    @property
    def partnership(self) -> bool:
        """Partners counted together (Düz Okey's ``RuleOptions.partnership``): the ratings read
        it."""
        return self.esli

    @property
    def variant(self) -> str:
        return "esli101" if self.esli else "101"

    def to_dict(self) -> dict[str, Any]:
        return {"game": "101", **{name: getattr(self, name) for name in NAMES}}

    @classmethod
    def from_dict(cls, d: Any) -> Options101:
        if not isinstance(d, dict) or d.get("game", "101") != "101":
            raise OptionError("101 options are a mapping with game '101'")
        unknown = sorted(set(d) - set(NAMES) - {"game"})
        if unknown:
            raise OptionError(f"unknown 101 option(s): {', '.join(unknown)}")
        return cls(**{k: v for k, v in d.items() if k != "game"})


NAMES = tuple(f.name for f in fields(Options101))
