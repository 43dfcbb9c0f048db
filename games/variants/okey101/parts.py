"""Which parts of a 101 table's page a move changed: the seats sent whole (with the melds in
front of them), the seats whose live part alone changed, the piles, and the centre whole or its
stock and turn line, as every family's (games.variants.parts); and whether a player's own rack or
moves changed."""

from games.variants.parts import board_parts_changed, own_differ

# The parts of a 101 seat that most moves change, each its own element: a draw or a discard
# sends the seat's live part (tiles in the rack, total, the turn's clock) and its pile, and the
# whole seat, melds and all, only when what it laid, its badges or its name change. Sent whole
# at every move, the seats made a viewer's bytes per 101 move 5.2 KB at the median
# (bench/load.py --game 101, 2026-12-06), against 1.6 KB for Düz.
SEAT_PARTS = {
    "live": ("turn", "deadline", "rack_size", "count"),
    "pile": ("pile", "pile_size"),
}


def parts_changed(before, after) -> dict:
    return {
        **board_parts_changed(before, after, SEAT_PARTS),
        "thresholds": before.thresholds != after.thresholds,
    }


def own_changed(old, view) -> tuple[bool, bool]:
    return own_differ(
        old,
        view,
        ("hand_id", "tiles", "drawn", "taken"),
        ("can", "phase", "away", "opened", "thresholds", "islek"),
    )


def own_seats(before, after, seat: int) -> frozenset[int]:
    """The mover's and the next player's own parts, as in Düz (games.variants.okey.parts); an
    opening may also raise what every other player's opening needs (katlamalı), which their
    own parts show."""
    if before.opened != after.opened:
        return frozenset(range(after.n))
    return frozenset({seat, after.turn})
