"""Which parts of a Düz or Eşli table's page a move changed (games.variants.parts): the seats (or
only their live parts), piles and centre that the move's public event sends again, and whether a
player's own rack or moves changed."""

from games.variants.parts import board_parts_changed, own_differ

# The parts of a seat that most moves change, each its own element: the rest of it (its name and
# badges) is sent again only when that changes.
SEAT_PARTS = {
    "live": ("turn", "deadline", "rack_size", "count"),
    "pile": ("pile", "pile_size", "histories_public", "pile_history"),
}


def parts_changed(before, after) -> dict:
    return board_parts_changed(before, after, SEAT_PARTS)


def own_changed(old, view) -> tuple[bool, bool]:
    return own_differ(old, view, ("hand_id", "tiles", "drawn"), ("can", "phase", "away"))


def own_seats(before, after, seat: int) -> frozenset[int]:
    """The mover's own part, and that of whoever is on turn after the move: a player's moves are
    offered only on their turn, and a move changes no other player's tiles."""
    return frozenset({seat, after.turn})
