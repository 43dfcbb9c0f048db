"""The state machine of one hand: every move of docs/rules.md, checked and applied.

``hand_apply(state, move)`` returns a new ``HandState`` or raises ``IllegalMove``; the state
passed in is frozen and so never changes. Seats are 0..n-1; seat s is followed by (s + 1) % n
and takes from the pile of (s - 1) % n, its left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from .dealing import deal, deal_verified
from .finish import finish_kind, finish_value, finishes, indicator_value, meld_groups
from .moves import (
    DeclarePairs,
    Discard,
    Draw,
    Finish,
    IllegalMove,
    Move,
    ShowIndicator,
    TakeDiscard,
    TakeIndicator,
    move_from_dict,
    move_kind,
)
from .options import RuleOptions
from .state import HandResult, HandState
from .tiles import FAKE, format_tile

PAIRS_FOR_INDICATOR = 6


def _without(rack: tuple[int, ...], tile: int) -> tuple[int, ...]:
    # drop the most recent copy, so that the rest of the rack keeps its order
    i = len(rack) - 1 - rack[::-1].index(tile)
    return rack[:i] + rack[i + 1 :]


def _set(seq: tuple, i: int, value: Any) -> tuple:
    return seq[:i] + (value,) + seq[i + 1 :]


def pairs_and_singles(tiles: Iterable[int], okey: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """As many pairs as the tiles make, and the tiles left single.

    A pair is two identical tiles; a real okey pairs with anything (first with a single, then
    with another okey). A fake joker is the okey's face, so two fake jokers are a pair.
    """
    tiles = list(tiles)
    wild = [t for t in tiles if t == okey]
    counts = Counter(t for t in tiles if t != okey)
    pairs: list[tuple[int, ...]] = []
    singles: list[int] = []
    for f in sorted(counts):
        c = counts[f]
        pairs.extend((f, f) for _ in range(c // 2))
        if c % 2:
            singles.append(f)
    while wild and singles:
        pairs.append((singles.pop(0), wild.pop()))
    while len(wild) >= 2:
        pairs.append((wild.pop(), wild.pop()))
    return pairs, singles + wild


def _deltas(state: HandState, finisher: int | None, value: int) -> tuple[int, ...]:
    n = state.n
    deltas = [0] * n
    if finisher is not None:
        if state.options.partnership:
            winners = {finisher, (finisher + 2) % 4}
        else:
            winners = {finisher}
        for seat in range(n):
            deltas[seat] = -value if seat in winners else value
    # A void hand scores nothing, the show included: docs/rules.md says "nobody scores", and
    # 001_b76b96f3f773d939.txt deals the tiles again ("el bozulur ve taşlar tekrar dağıtılır"),
    # so the show belongs to a hand that does not count. Only finished hands get here with a show.
    if finisher is not None and state.shown_by is not None:
        deltas[state.shown_by] -= indicator_value(state.indicator, state.options.colour_doubling)
    return tuple(deltas)


def _check_draw_phase(state: HandState, seat: int) -> None:
    if state.phase == "discard":
        if seat == state.first_seat and not state.played[seat] and state.drawn is None:
            raise IllegalMove(
                "first_turn_no_draw", "the first player does not draw on the first turn: discard"
            )
        raise IllegalMove("already_drawn", "you have already drawn this turn: discard or finish")


def _draw(state: HandState, m: Draw) -> HandState:
    _check_draw_phase(state, m.seat)
    if not state.stock:
        raise IllegalMove("stock_empty", "the stock is empty")
    tile = state.stock[-1]
    return replace(
        state,
        stock=state.stock[:-1],
        racks=_set(state.racks, m.seat, state.racks[m.seat] + (tile,)),
        phase="discard",
        drawn=tile,
        drawn_from_left=None,
    )


def _take(state: HandState, m: TakeDiscard) -> HandState:
    _check_draw_phase(state, m.seat)
    left = (m.seat - 1) % state.n
    pile = state.discards[left]
    if not pile or state.last_discarder != left:
        raise IllegalMove(
            "nothing_to_take", "the player on your left has not just discarded a tile to take"
        )
    tile = pile[-1]
    place = len(pile) - 1 + sum(1 for s, _, _ in state.taken if s == left)
    return replace(
        state,
        discards=_set(state.discards, left, pile[:-1]),
        taken=state.taken + ((left, place, tile),),
        racks=_set(state.racks, m.seat, state.racks[m.seat] + (tile,)),
        phase="discard",
        drawn=tile,
        drawn_from_left=tile,
    )


def _check_discard_phase(state: HandState, tile: int, seat: int) -> None:
    if state.phase != "discard":
        raise IllegalMove("must_draw_first", "draw a tile first")
    if tile not in state.racks[seat]:
        raise IllegalMove("tile_not_in_rack", f"you have no {format_tile(tile)}")


def _discard(state: HandState, m: Discard) -> HandState:
    _check_discard_phase(state, m.tile, m.seat)
    # Copies of a face cannot be told apart, so throwing the other copy back counts as
    # throwing back the tile just taken.
    if state.drawn_from_left is not None and m.tile == state.drawn_from_left:
        raise IllegalMove(
            "cannot_discard_taken_tile",
            f"you took {format_tile(m.tile)} from the left: it cannot go back this turn",
        )
    state = replace(
        state,
        racks=_set(state.racks, m.seat, _without(state.racks[m.seat], m.tile)),
        discards=_set(state.discards, m.seat, state.discards[m.seat] + (m.tile,)),
        played=_set(state.played, m.seat, True),
        last_discarder=m.seat,
        drawn=None,
        drawn_from_left=None,
    )
    if not state.stock:
        return hand_void(state)
    return replace(state, turn=(m.seat + 1) % state.n, phase="draw")


def _finish(state: HandState, m: Finish) -> HandState:
    _check_discard_phase(state, m.tile, m.seat)
    rest = _without(state.racks[m.seat], m.tile)
    kind = finish_kind(rest, m.tile, state.okey)
    if kind is None:
        raise IllegalMove(
            "no_finish",
            f"without {format_tile(m.tile)} your 14 tiles are neither all melds nor seven pairs",
        )
    value = finish_value(kind, state.indicator, state.options.colour_doubling)
    if kind.startswith("pairs"):
        groups = tuple(pairs_and_singles(rest, state.okey)[0])
    else:
        groups = tuple(tuple(g) for g in meld_groups(rest, state.okey) or ())
    result = HandResult(
        void=False,
        finisher=m.seat,
        kind=kind,
        value=value,
        shower=state.shown_by,
        deltas=_deltas(state, m.seat, value),
        groups=groups,
        tile=m.tile,
    )
    return replace(
        state,
        racks=_set(state.racks, m.seat, rest),
        phase="over",
        drawn=None,
        drawn_from_left=None,
        result=result,
    )


def _show(state: HandState, m: ShowIndicator) -> HandState:
    seat = m.seat
    if not state.options.indicator_bonus:
        raise IllegalMove("show_off", "showing the indicator is off at this table")
    if state.shown_by is not None:
        raise IllegalMove("already_shown", "the indicator has already been shown this hand")
    if state.played[seat]:
        raise IllegalMove("not_first_turn", "the indicator can only be shown on your first turn")
    if seat == state.first_seat:
        if state.drawn is not None:
            raise IllegalMove("already_drawn", "show the indicator before you draw")
    elif state.phase != "draw":
        raise IllegalMove("already_drawn", "show the indicator before you draw")
    if state.indicator not in state.racks[seat]:
        raise IllegalMove(
            "no_twin", f"you have no {format_tile(state.indicator)} to show the indicator with"
        )
    return replace(state, shown_by=seat)


def _declare_pairs(state: HandState, m: DeclarePairs) -> HandState:
    if m.seat in state.pairs_declared:
        raise IllegalMove("already_declared", "you have already declared pairs")
    return replace(state, pairs_declared=state.pairs_declared + (m.seat,))


def _take_indicator(state: HandState, m: TakeIndicator) -> HandState:
    if not state.options.pairs_take_indicator:
        raise IllegalMove("take_indicator_off", "the indicator can never be taken at this table")
    if m.seat not in state.pairs_declared:
        raise IllegalMove("not_declared", "only a player who declared pairs may take the indicator")
    _check_draw_phase(state, m.seat)
    if state.indicator_taken_by is not None:
        raise IllegalMove("indicator_taken", "the indicator has already been taken")
    if len(pairs_and_singles(state.racks[m.seat], state.okey)[0]) < PAIRS_FOR_INDICATOR:
        raise IllegalMove("not_six_pairs", "you need six pairs to take the indicator")
    return replace(
        state,
        racks=_set(state.racks, m.seat, state.racks[m.seat] + (state.indicator,)),
        phase="discard",
        drawn=state.indicator,
        drawn_from_left=None,
        indicator_taken_by=m.seat,
    )


_HANDLERS = {
    Draw: _draw,
    TakeDiscard: _take,
    Discard: _discard,
    Finish: _finish,
    ShowIndicator: _show,
    DeclarePairs: _declare_pairs,
    TakeIndicator: _take_indicator,
}


def hand_void(state: HandState) -> HandState:
    """The hand over as void (docs/rules.md: nobody scores): the stock ran out after a discard,
    or the staff stopped the hand. The racks, piles and stock stay as they are, every count
    change is zero (the show included, see ``_deltas``), and the turn's drawn tile is no longer
    "drawn this turn". Not a move: ``seq`` does not change."""
    if state.phase == "over":
        raise IllegalMove("hand_over", "the hand is over")
    result = HandResult(void=True, shower=state.shown_by, deltas=(0,) * state.n)
    return replace(state, phase="over", drawn=None, drawn_from_left=None, result=result)


def hand_apply(state: HandState, move: Move) -> HandState:
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise IllegalMove("bad_move", f"not a move: {move!r}")
    seat = move.seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n:
        raise IllegalMove("bad_seat", f"there is no seat {seat!r} at this table")
    tile = getattr(move, "tile", 0)
    if isinstance(tile, bool) or not isinstance(tile, int) or not 0 <= tile <= FAKE:
        raise IllegalMove("bad_tile", f"no tile with code {tile!r}")
    if state.phase == "over":
        raise IllegalMove("hand_over", "the hand is over")
    if seat != state.turn:
        raise IllegalMove("not_your_turn", "it is not your turn")
    new = handler(state, move)
    return replace(new, seq=state.seq + 1)


def _legal(state: HandState, m: Move) -> bool:
    try:
        hand_apply(state, m)
    except IllegalMove:
        return False
    return True


def _tileless(seat: int) -> list[Move]:
    return [ShowIndicator(seat), DeclarePairs(seat), Draw(seat), TakeDiscard(seat),
            TakeIndicator(seat)]  # fmt: skip


def legal_moves(state: HandState, seat: int) -> list[Move]:
    """Every move ``seat`` may make now, tiles collapsed to distinct faces."""
    if state.phase == "over" or seat != state.turn:
        return []
    candidates = _tileless(seat) + [Discard(seat, f) for f in sorted(set(state.racks[seat]))]
    legal = [m for m in candidates if _legal(state, m)]
    if state.phase == "discard":
        # the same test as _finish, for all 15 tiles at once
        legal += [Finish(seat, f) for f in sorted(finishes(state.racks[seat], state.okey))]
    return legal


def legal_kinds(state: HandState, seat: int) -> set[str]:
    """The kinds of the moves in ``legal_moves(state, seat)``. Every view of the player to move
    names them; trying one discard that is allowed is enough to know "discard" is, where
    legal_moves tries all fifteen (and each try copies the hand)."""
    if state.phase == "over" or seat != state.turn:
        return set()
    kinds = {move_kind(m) for m in _tileless(seat) if _legal(state, m)}
    # before the draw every discard is refused (each try raising): half of the turn's views
    if state.phase == "discard" and any(
        _legal(state, Discard(seat, f)) for f in sorted(set(state.racks[seat]))
    ):
        kinds.add("discard")
    if state.phase == "discard" and finishes(state.racks[seat], state.okey):
        kinds.add("finish")
    return kinds


def hand_replay(
    seed: bytes, options: RuleOptions, first_seat: int, moves: Iterable[Move | dict]
) -> HandState:
    """The hand after ``moves`` (Move objects or their dicts) from the deal of ``seed``."""
    state = deal(seed, options, first_seat)
    for m in moves:
        state = hand_apply(state, move_from_dict(m) if isinstance(m, dict) else m)
    return state


def verify_deal(
    seed: bytes, commitment_hex: str, state: HandState, moves: object | None = None
) -> bool:
    """Does the seed match the commitment and produce this hand?

    A freshly dealt state is compared whole. A later state is compared with the replay of
    ``moves`` when they are given; without them, what cannot have changed since the deal is
    compared: seats, first seat, indicator, and the stock (which only ever loses its top).
    """
    return deal_verified(deal, hand_replay, seed, commitment_hex, state, moves)
