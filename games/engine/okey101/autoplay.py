"""The timeout play of docs/rules-101.md ("Timeouts"): give back a taken tile, draw, lay
nothing, discard a tile that costs no penalty if there is one.

Like Düz Okey's ``auto_moves``, it returns the moves of the rest of the turn, each legal after
the ones before; it applies them to the frozen state as it goes, so it sees the tile it draws.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tiles import colour_of, number_of
from .hand import hand101_apply
from .moves import Discard, Draw, GiveBack, Move101
from .state import Hand101
from .table import TableMeld, is_islek
from .values import plain


class Turn:
    """The state as the moves of one turn are made (shared with the bots)."""

    def __init__(self, state: Hand101, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.moves: list[Move101] = []

    def play(self, move: Move101) -> None:
        self.state = hand101_apply(self.state, move)
        self.moves.append(move)

    @property
    def rack(self) -> tuple[int, ...]:
        return self.state.racks[self.seat]


def safe_tiles(rack: Sequence[int], table: Sequence[TableMeld], okey: int) -> list[int]:
    """The discard candidates: neither a real okey nor işlek; else not a real okey; else all."""
    not_okey = [t for t in rack if t != okey]
    safe = [t for t in not_okey if not is_islek(t, table, okey)]
    return safe or not_okey or list(rack)


def highest(tiles: Sequence[int], okey: int) -> int:
    """The highest-valued tile; among equals the first in colour order R, Y, B, K."""
    return max(tiles, key=lambda t: (number_of(plain(t, okey)), -colour_of(plain(t, okey))))


def auto101_moves(state: Hand101, seat: int) -> list[Move101]:
    if state.over or seat != state.turn:
        return []
    turn = Turn(state, seat)
    if turn.state.taken is not None:
        turn.play(GiveBack(seat))
    elif turn.state.phase == "draw":
        turn.play(Draw(seat))
    s = turn.state
    candidates = safe_tiles(turn.rack, s.table, s.okey)
    drawn = s.drawn if s.drawn in candidates else None
    turn.play(Discard(seat, drawn if drawn is not None else highest(candidates, s.okey)))
    return turn.moves
