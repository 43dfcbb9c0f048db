"""A seated player's own part at a 101 table: their tiles, the moves they may make now, what an
opening needs, and which of their tiles would cost +101 on the pile (işlek: it could go on a
meld on the table, or it is the okey). Only ever sent to that seat's player."""

from dataclasses import dataclass

from games.engine import format_tile
from games.engine.okey101.table import islek_meld
from games.engine.okey101.views import hand101_own_view
from games.models import Hand, Seat
from games.variants.rack import RackCommon, rack_fields

FAMILY = "okey101"


@dataclass(frozen=True)
class RackView(RackCommon):
    taken: str | None  # the tile taken from the left, until it is on the table
    opened: str  # "none" | "melds" | "pairs"
    thresholds: tuple[int, int]  # what an opening needs now: (melds value, pairs)
    # each tile of the rack a discard of which costs +101, with the meld it could go on (-1:
    # it is the okey, always işlek)
    islek: tuple[tuple[str, int], ...]
    family: str = FAMILY


def islek_tiles(state, seat: int) -> tuple[tuple[str, int], ...]:
    """(tile, meld index) for each face of the seat's rack that is işlek now."""
    out = []
    for f in sorted(set(state.racks[seat])):
        i = islek_meld(f, state.table, state.okey)
        if i is not None:
            out.append((format_tile(f), i))
    return tuple(out)


def rack_view(table_id: int, version: int, seat: Seat, hand: Hand | None, state) -> RackView:
    # the engine's view of this seat's own part: the only way its rack leaves the engine
    view = hand101_own_view(state, seat.index) if state is not None else None
    return RackView(
        **rack_fields(table_id, version, seat, hand, view),
        taken=view["taken"] if view else None,
        opened=view["opened"] if view else "none",
        thresholds=(view["thresholds"]["melds"], view["thresholds"]["pairs"]) if view else (101, 5),
        islek=islek_tiles(state, seat.index) if view and view["can"] else (),
    )
