"""Düz and Eşli Okey's board: every seat with its discard pile, and the centre (indicator,
stock, okey, whose turn, which hand), as every viewer sees them.

The centre, and what every family's seat and board show alike, are games.variants.board's.

A table's board is public: it is built once per move (``board_view``) and rendered once for
everyone at the table. Views hold no translated words: the renderer puts those in, in each
viewer's language. Nothing here writes.
"""

from dataclasses import dataclass

from games import engine
from games.models import Game, Hand, Seat, Table
from games.variants import board as shared

FAMILY = "okey"


@dataclass(frozen=True)
class SeatView(shared.SeatCommon):
    """One seat and its discard pile, as every viewer sees them."""

    histories_public: bool
    # once histories are public: every tile the seat threw but the top of its pile, oldest first,
    # each with whether the next player took it
    pile_history: tuple[tuple[str, bool], ...]
    showed: bool
    # the person's account, for the link to their profile (follow, block, report); None for a
    # bot or an empty seat
    user_id: int | None = None


@dataclass(frozen=True)
class BoardView(shared.BoardCommon):
    """Everything public about a Düz or Eşli table at one version."""

    family: str = FAMILY  # whose templates show it (games/table/<family>/)


def board_view(
    table: Table,
    game: Game,
    seats,
    hand: Hand | None,
    state: engine.HandState | None,
    gstate: engine.GameState | None,
    reserved=frozenset(),
) -> BoardView:
    """The board every viewer shares, from rows already read (no query)."""
    public = engine.hand_view(state, None) if state is not None else None
    b = shared.board_basics(table, seats, public)
    indicator_taken = bool(public and public["indicator_taken_by"] is not None)
    return BoardView(
        **shared.board_fields(table, game),
        seats=tuple(_seat_view(table, game, s, b, gstate, reserved) for s in seats),
        centre=shared.centre_view(table, seats, hand, gstate, b, indicator_taken=indicator_taken),
    )


def _seat_view(table, game, s: Seat, b: shared.BoardBasics, gstate, reserved) -> SeatView:
    public = b.public
    return SeatView(
        **shared.seat_fields(table, game, s, b, reserved),
        count=gstate.counts[s.index] if gstate else None,
        histories_public=bool(public and public["histories_public"]),
        pile_history=_pile_history(public, s.index),
        declared_pairs=bool(public and s.index in public["pairs_declared"]),
        showed=bool(public and public["shown_by"] == s.index),
        user_id=s.user_id if not s.is_bot else None,
    )


def _pile_history(public, seat: int) -> tuple[tuple[str, bool], ...]:
    history = (public or {}).get("discard_histories")
    if not history:
        return ()
    entries = [(tile, taken) for tile, taken in history[seat]]
    top = max((i for i, (_, taken) in enumerate(entries) if not taken), default=None)
    return tuple(e for i, e in enumerate(entries) if i != top)
