"""A seated player's own part at a Düz or Eşli table: their tiles and the moves they may make
now (games.variants.rack), from ``engine.hand_view(state, seat)``, which holds only that seat's
tiles. Only ever sent to that seat's player."""

from dataclasses import dataclass

from games import engine
from games.models import Hand, Seat
from games.variants.rack import RackCommon, rack_fields

FAMILY = "okey"


@dataclass(frozen=True)
class RackView(RackCommon):
    family: str = FAMILY  # whose templates show it (games/table/<family>/)


def rack_view(
    table_id: int, version: int, seat: Seat, hand: Hand | None, state: engine.HandState | None
) -> RackView:
    """The seat's own tiles and moves: only ever sent to that seat's player."""
    view = engine.hand_view(state, seat.index) if state is not None else None
    return RackView(**rack_fields(table_id, version, seat, hand, view))
