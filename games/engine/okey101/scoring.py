"""A hand's penalty count (docs/rules-101.md, "Finishing" and "Scoring a hand"): lower is better.

The hand and the judge both score through ``hand_scores``, from what each seat ended with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .values import rack_value

PENALTY = 101  # an event penalty (işlek or okey discard), and what a finisher earns, negated
NEVER_OPENED = 202
OPENINGS = ("none", "melds", "pairs")


@dataclass(frozen=True)
class SeatEnd:
    """What one seat holds when the hand ends."""

    opened: str  # "none" | "melds" | "pairs"
    rack: tuple[int, ...] = ()
    declared_pairs: bool = False
    penalties: int = 0  # +101 events of the hand


def multiplier(finisher: SeatEnd, last: int, okey: int, elden: bool) -> int:
    """m: ×2 for an okey as the last tile, ×2 for a pairs opener, ×2 for elden bitmek."""
    m = 2 if last == okey else 1
    if finisher.opened == "pairs":
        m *= 2
    return m * 2 if elden else m


def is_elden(seats: Sequence[SeatEnd], finisher: int, same_turn_open: bool) -> bool:
    """Opened on the finishing turn while nobody else at the table had opened."""
    return same_turn_open and all(s.opened == "none" for i, s in enumerate(seats) if i != finisher)


def _rack_score(seat: SeatEnd, okey: int) -> int:
    if seat.opened == "none":
        return 2 * NEVER_OPENED if seat.declared_pairs else NEVER_OPENED
    s = rack_value(seat.rack, okey)
    return 2 * s if seat.opened == "pairs" else s


def hand_scores(
    seats: Sequence[SeatEnd],
    okey: int,
    finisher: int | None,
    last: int | None,
    same_turn_open: bool = False,
    esli: bool = False,
) -> tuple[int, tuple[int, ...]]:
    """(m, one hand score per seat). ``finisher`` None: the stock ran out (m = 1, no −101).
    In eşli the finisher's partner writes 0 for the rack; event penalties always count."""
    m = 1
    partner = None
    if finisher is not None:
        m = multiplier(seats[finisher], last, okey, is_elden(seats, finisher, same_turn_open))
        partner = (finisher + 2) % 4 if esli else None
    scores = []
    for i, seat in enumerate(seats):
        if i == finisher:
            base = -PENALTY * m
        elif i == partner:
            base = 0
        else:
            base = _rack_score(seat, okey) * m
        scores.append(base + PENALTY * seat.penalties)
    return m, tuple(scores)


def team_scores(scores: Sequence[int]) -> tuple[int, int]:
    """Eşli: seats 0 and 2 against seats 1 and 3."""
    return scores[0] + scores[2], scores[1] + scores[3]
