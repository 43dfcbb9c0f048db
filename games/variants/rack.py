"""What every family's rack view holds: a seated player's own tiles and the moves they may make
now, from the engine's view of that seat's own part (which holds only that seat's tiles). A
family's RackView (games/variants/<family>/rack.py) adds its own. Only ever sent to that seat's
player."""

from dataclasses import dataclass

from games.models import Hand, Seat


@dataclass(frozen=True)
class RackCommon:
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


def rack_fields(table_id: int, version: int, seat: Seat, hand: Hand | None, view) -> dict:
    """RackCommon's fields from the engine's own view of the seat (None: no hand yet)."""
    return {
        "table_id": table_id,
        "version": version,
        "seat": seat.index,
        "hand_id": hand.pk if hand is not None else None,
        "tiles": tuple(view["rack"]) if view else (),
        "okey": view["okey"] if view else None,
        # the phase is the player's only while they may move: others' moves leave it alone
        "phase": view["phase"] if view and view["can"] else None,
        "drawn": view["drawn"] if view else None,
        "can": tuple(view["can"]) if view else (),
        "away": seat.away,
    }
