"""A seated player's own part at a Düz or Eşli table: their tiles and the moves they may make
now, from ``engine.hand_view(state, seat)``, which holds only that seat's tiles. Only ever sent
to that seat's player."""

from dataclasses import dataclass

from games import engine
from games.models import Hand, Seat

FAMILY = "okey"


@dataclass(frozen=True)
class RackView:
    """One seated player's own part: their tiles and the moves they may make now."""

    table_id: int
    version: int
    seat: int
    hand_id: int | None
    tiles: tuple[str, ...]
    okey: str | None
    phase: str | None
    drawn: str | None
    can: tuple[str, ...]
    away: bool
    family: str = FAMILY  # whose templates show it (games/table/<family>/)


def rack_view(
    table_id: int, version: int, seat: Seat, hand: Hand | None, state: engine.HandState | None
) -> RackView:
    """The seat's own tiles and moves: only ever sent to that seat's player."""
    view = engine.hand_view(state, seat.index) if state is not None else None
    return RackView(
        table_id=table_id,
        version=version,
        seat=seat.index,
        hand_id=hand.pk if hand is not None else None,
        tiles=tuple(view["rack"]) if view else (),
        okey=view["okey"] if view else None,
        # the phase is the player's only while they may move: others' moves leave it alone
        phase=view["phase"] if view and view["can"] else None,
        drawn=view["drawn"] if view else None,
        can=tuple(view["can"]) if view else (),
        away=seat.away,
    )
