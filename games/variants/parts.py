"""Which parts of a table's page a move changed, for every family: the seats sent whole, the
seats whose live part alone changed, the piles, the centre whole or the names of its parts
(stock, turn line), and whether a player's own rack or moves changed. A family names the fields
of its views each part shows (games/variants/<family>/parts.py)."""

from dataclasses import fields
from functools import cache

# The parts of the centre that most moves change, each its own element: the rest of it (the
# centre's indicator, okey, teams and commitment) is sent again only when that changes.
CENTRE_PARTS = {
    "stock": ("stock_size",),
    "turn": ("turn", "turn_name", "turn_bot", "over", "hand_of"),
}


def board_parts_changed(before, after, seat_parts: dict) -> dict:
    """The event template's context: the seats sent whole, the seats whose live part changed,
    the piles, and the centre ("whole" or the names of its parts that changed). ``seat_parts``:
    the family's seat parts ("live", "pile") and the fields of its seat view each shows."""
    changed = [
        (s, _parts_changed(old, s, seat_parts))
        for s, old in zip(after.seats, before.seats, strict=True)
    ]
    return {
        "seats": [s for s, parts in changed if parts == "whole"],
        "lives": [s for s, parts in changed if parts != "whole" and "live" in parts],
        # a pile is sent whenever it changed, the seat whole or not (once Düz's histories open,
        # every pile shows more: all of them are sent again)
        "piles": [
            s
            for s, old in zip(after.seats, before.seats, strict=True)
            if _differ(old, s, seat_parts["pile"])
        ],
        "centre": _parts_changed(before.centre, after.centre, CENTRE_PARTS),
    }


def own_differ(old, view, tiles: tuple[str, ...], moves: tuple[str, ...]) -> tuple[bool, bool]:
    """(the tiles changed, the moves changed) between a player's rack views, ``tiles`` and
    ``moves`` the fields of the view each part shows; ``old`` None: the player was not seated
    before."""
    if old is None:
        return True, True
    return _differ(old, view, tiles), _differ(old, view, moves)


def _parts_changed(before, after, parts: dict) -> str | tuple[str, ...]:
    """ "whole", or the parts of a view (one of ``parts``) that changed."""
    if before == after:  # most seats, at most moves: one comparison of the views' fields
        return ()
    if _differ(before, after, _rest(type(after), parts)):
        return "whole"
    return tuple(part for part, fields in parts.items() if _differ(before, after, fields))


@cache
def _rest_of(cls, moving: frozenset) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls) if f.name not in moving)


def _rest(cls, parts: dict) -> tuple[str, ...]:
    """The fields of a view of ``cls`` that none of ``parts`` names."""
    return _rest_of(cls, frozenset(f for names in parts.values() for f in names))


def _differ(before, after, fields) -> bool:
    return any(getattr(before, f) != getattr(after, f) for f in fields)
