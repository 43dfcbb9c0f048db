"""Which parts of a Düz or Eşli table's page a move changed: the seats (or only their live
parts), piles and centre that the move's public event sends again, and whether a player's own
rack or moves changed."""

from dataclasses import fields
from functools import cache

# The parts of the centre and of a seat that most moves change, each its own element: the rest
# of it (the centre's indicator, okey, teams and commitment; a seat's name and badges) is sent
# again only when that changes.
CENTRE_PARTS = {
    "stock": ("stock_size",),
    "turn": ("turn", "turn_name", "turn_bot", "over", "hand_of"),
}


SEAT_PARTS = {
    "live": ("turn", "deadline", "rack_size", "count"),
    "pile": ("pile", "pile_size", "histories_public", "pile_history"),
}


def parts_changed(before, after) -> dict:
    """The event template's context: the seats sent whole, the seats whose live part changed,
    the piles, and the centre ("whole" or the names of its parts that changed)."""
    changed = [
        (s, _parts_changed(old, s, SEAT_PARTS))
        for s, old in zip(after.seats, before.seats, strict=True)
    ]
    return {
        "seats": [s for s, parts in changed if parts == "whole"],
        "lives": [s for s, parts in changed if parts != "whole" and "live" in parts],
        # once histories open, every pile shows more: all of them are sent again
        "piles": [
            s
            for s, old in zip(after.seats, before.seats, strict=True)
            if _differ(old, s, SEAT_PARTS["pile"])
        ],
        "centre": _parts_changed(before.centre, after.centre, CENTRE_PARTS),
    }


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


def own_changed(old, view) -> tuple[bool, bool]:
    """(the tiles changed, the moves changed) between a player's rack views; ``old`` None: the
    player was not seated before."""
    tiles = old is None or (old.hand_id, old.tiles, old.drawn) != (
        view.hand_id,
        view.tiles,
        view.drawn,
    )
    moves = old is None or (old.can, old.phase, old.away) != (view.can, view.phase, view.away)
    return tiles, moves


def own_seats(before, after, seat: int) -> frozenset[int]:
    """The mover's own part, and that of whoever is on turn after the move: a player's moves are
    offered only on their turn, and a move changes no other player's tiles."""
    return frozenset({seat, after.turn})
