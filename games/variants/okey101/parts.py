"""Which parts of a 101 table's page a move changed: the seats (with the melds in front of
them), the piles and the centre, each sent again whole when it differs; and whether a player's
own rack or moves changed."""

from games.variants.okey.parts import _differ

PILE = ("pile", "pile_size")


def parts_changed(before, after) -> dict:
    pairs = list(zip(after.seats, before.seats, strict=True))
    return {
        "seats": [s for s, old in pairs if s != old],
        "piles": [s for s, old in pairs if _differ(old, s, PILE)],
        "centre": "whole" if before.centre != after.centre else (),
        "thresholds": before.thresholds != after.thresholds,
    }


def own_changed(old, view) -> tuple[bool, bool]:
    if old is None:
        return True, True
    tiles = (old.hand_id, old.tiles, old.drawn, old.taken) != (
        view.hand_id,
        view.tiles,
        view.drawn,
        view.taken,
    )
    moves = (old.can, old.phase, old.away, old.opened, old.thresholds, old.islek) != (
        view.can,
        view.phase,
        view.away,
        view.opened,
        view.thresholds,
        view.islek,
    )
    return tiles, moves
