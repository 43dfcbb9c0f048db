"""What one seat, or a spectator, may see of a hand: the only way hand state leaves the engine
for players.

``hand_view(state, viewer)`` is JSON-safe, with tiles in notation ("R7", "F") so that templates
can show them directly. Keys:

- ``viewer`` (seat or None for a spectator), ``mode``, ``n``, ``first_seat``, ``seq``, ``turn``,
  ``phase`` ("draw" | "discard" | "over"), ``indicator``, ``okey``, ``indicator_taken_by``.
- ``rack``: the viewer's own tiles (None for a spectator); ``rack_sizes``: every seat's count.
- ``drawn``, ``taken_from_left``: the tile the viewer drew or took this turn (own turn only).
- ``stock_size``: the stock is never shown, only its size.
- ``discards``: per seat, the top tile only (``[]`` or ``["R7"]``), or the whole pile, oldest
  first, once anyone has declared pairs (``histories_public``); ``discard_sizes`` per seat.
- ``discard_histories``: once histories are public, per seat every tile it has thrown this hand,
  oldest first, as ``[tile, taken]`` (``taken``: the next player took it); else None.
- ``takeable``: the tile the player to move may take from their left, if any.
- ``pairs_declared`` (seats), ``shown_by`` (seat or None).
- ``can``: the kinds of move the viewer may make now ("draw", "take", "discard", "finish",
  "show", "pairs", "take_indicator"), empty when it is not their turn.
- ``result``: None while the hand runs; then ``void``, ``finisher``, ``kind``, ``value``,
  ``shower``, ``deltas``, ``groups`` (the finisher's 14 tiles split), ``tile``.
- ``racks``: every seat's rack, only once the hand is over (else None).
"""

from __future__ import annotations

from typing import Any

from .hand import legal_kinds
from .state import HandState, discard_history, result_to_dict
from .tiles import format_tile

_KIND_ORDER = ("show", "pairs", "draw", "take", "take_indicator", "discard", "finish")


def _tiles(faces) -> list[str]:
    return [format_tile(f) for f in faces]


def _can(state: HandState, viewer: int | None) -> list[str]:
    if viewer is None:
        return []
    kinds = legal_kinds(state, viewer)
    return [k for k in _KIND_ORDER if k in kinds]


def hand_view(state: HandState, viewer: int | None) -> dict[str, Any]:
    if viewer is not None and (
        isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < state.n
    ):
        raise ValueError(f"there is no seat {viewer!r} at this table")
    own_turn = viewer is not None and viewer == state.turn and state.phase != "over"
    return {
        **_public(state),
        "viewer": viewer,
        "rack": None if viewer is None else _tiles(state.racks[viewer]),
        "drawn": format_tile(state.drawn) if own_turn and state.drawn is not None else None,
        "taken_from_left": (
            format_tile(state.drawn_from_left)
            if own_turn and state.drawn_from_left is not None
            else None
        ),
        "can": _can(state, viewer),
    }


# The last state's public part, and the state it is of: after a move every seat's view is made
# of the same state, one after another, and this part is the same in all of them. Its lists are
# shared by those views, which only read them.
_last_public: tuple = (None, None)


def _public(state: HandState) -> dict[str, Any]:
    """What every seat and a spectator see alike of ``state``."""
    global _last_public
    last_state, public = _last_public  # one read: another thread may replace it meanwhile
    if last_state is state:
        return public
    over = state.phase == "over"
    shown = bool(state.pairs_declared)
    left = (state.turn - 1) % state.n
    takeable = None
    if state.phase == "draw" and state.last_discarder == left and state.discards[left]:
        takeable = format_tile(state.discards[left][-1])
    public = {
        "mode": state.options.mode,
        "n": state.n,
        "first_seat": state.first_seat,
        "seq": state.seq,
        "turn": state.turn,
        "phase": state.phase,
        "indicator": format_tile(state.indicator),
        "okey": format_tile(state.okey),
        "indicator_taken_by": state.indicator_taken_by,
        "rack_sizes": [len(r) for r in state.racks],
        "stock_size": len(state.stock),
        "discards": [_tiles(p if shown else p[-1:]) for p in state.discards],
        "discard_sizes": [len(p) for p in state.discards],
        "histories_public": shown,
        "discard_histories": (
            [
                [[format_tile(t), taken] for t, taken in discard_history(state, seat)]
                for seat in range(state.n)
            ]
            if shown
            else None
        ),
        "takeable": takeable,
        "pairs_declared": list(state.pairs_declared),
        "shown_by": state.shown_by,
        "result": None if state.result is None else result_to_dict(state.result),
        "racks": [_tiles(r) for r in state.racks] if over else None,
    }
    _last_public = (state, public)
    return public
