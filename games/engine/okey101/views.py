"""What one seat, or a spectator, may see of a 101 hand: the only way its state leaves the
engine for players. JSON-safe, tiles in notation. Keys:

- ``viewer``, ``variant`` ("101" | "esli101"), ``n``, ``first_seat``, ``seq``, ``turn``,
  ``phase`` ("draw" | "play" | "over"), ``indicator``, ``okey``, ``katlamali``.
- ``rack``: the viewer's own tiles (None for a spectator); ``rack_sizes``: every seat's count.
- ``drawn``, ``taken``: the tile the viewer drew, or took from the left and must still lay
  (own turn only).
- ``stock_size``; ``discards`` (per seat, the top tile or nothing) and ``discard_sizes``;
  ``takeable``: the tile the player to move may take from their left.
- ``table``: every meld and pair laid, in laying order: ``owner``, ``kind``, ``tiles`` and
  ``stands`` (what each tile stands for), ``value``.
- ``opened`` ("none" | "melds" | "pairs"), ``openings`` (value or pairs), ``declared``,
  ``penalties`` (+101 events so far): per seat.
- ``thresholds``: what an opening needs now, ``{"melds": 101, "pairs": 5}`` or more (katlamalı).
- ``can``: the move kinds the viewer may make now; ``result`` (None while the hand runs);
  ``racks``: every rack, only once the hand is over.
"""

from __future__ import annotations

from typing import Any

from ..tiles import format_tile
from .hand import legal_kinds101
from .laying import threshold
from .state import Hand101, result101_to_dict

_KIND_ORDER = ("pairs", "draw", "take", "give_back", "lay", "add", "take_okey", "discard")


def _tiles(faces) -> list[str]:
    return [format_tile(f) for f in faces]


def _viewer_check(s: Hand101, viewer: int | None) -> None:
    if viewer is not None and (
        isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < s.n
    ):
        raise ValueError(f"there is no seat {viewer!r} at this table")


def hand101_view(s: Hand101, viewer: int | None) -> dict[str, Any]:
    _viewer_check(s, viewer)
    return {**_public(s), **_own(s, viewer)}


def hand101_own_view(s: Hand101, viewer: int) -> dict[str, Any]:
    """What ``hand101_view(s, viewer)`` says of the viewer's own part (``rack``, ``drawn``,
    ``taken``, ``can``), with the ``okey``, ``phase`` and ``thresholds`` beside it, and
    ``opened``: the viewer's own. A seat's own part at the table is made of this, for each seat
    at each move: the whole table's melds are not spelt out for it."""
    _viewer_check(s, viewer)
    return {
        **_own(s, viewer),
        "okey": format_tile(s.okey),
        "phase": s.phase,
        "opened": s.opened[viewer],
        "thresholds": _thresholds(s),
    }


def _own(s: Hand101, viewer: int | None) -> dict[str, Any]:
    own_turn = viewer is not None and viewer == s.turn and not s.over
    kinds = legal_kinds101(s, viewer) if viewer is not None else set()
    return {
        "viewer": viewer,
        "rack": None if viewer is None else _tiles(s.racks[viewer]),
        "drawn": format_tile(s.drawn) if own_turn and s.drawn is not None else None,
        "taken": format_tile(s.taken) if own_turn and s.taken is not None else None,
        "can": [k for k in _KIND_ORDER if k in kinds],
    }


def _thresholds(s: Hand101) -> dict[str, int]:
    return {"melds": threshold(s, False), "pairs": threshold(s, True)}


def _public(s: Hand101) -> dict[str, Any]:
    """What every seat and a spectator see alike."""
    left = (s.turn - 1) % s.n
    takeable = s.discards[left][-1] if s.phase == "draw" and s.discards[left] else None
    return {
        "variant": s.options.variant,
        "n": s.n,
        "first_seat": s.first_seat,
        "seq": s.seq,
        "turn": s.turn,
        "phase": s.phase,
        "indicator": format_tile(s.indicator),
        "okey": format_tile(s.okey),
        "katlamali": s.options.katlamali,
        "rack_sizes": [len(r) for r in s.racks],
        "stock_size": len(s.stock),
        "discards": [_tiles(p[-1:]) for p in s.discards],
        "discard_sizes": [len(p) for p in s.discards],
        "takeable": None if takeable is None else format_tile(takeable),
        "table": [
            {
                "owner": m.owner,
                "kind": m.kind,
                "tiles": _tiles(m.tiles),
                "stands": _tiles(m.stands),
                "value": m.value,
            }
            for m in s.table
        ],
        "opened": list(s.opened),
        "openings": list(s.openings),
        "declared": list(s.declared),
        "penalties": list(s.penalties),
        "thresholds": _thresholds(s),
        "result": None if s.result is None else result101_to_dict(s.result),
        "racks": [_tiles(r) for r in s.racks] if s.over else None,
    }
