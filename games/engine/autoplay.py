"""Moves made for a player: the timeout play of docs/rules.md, and a bot's whole turn.

Both return the moves of one turn, in order, each legal when applied after the ones before it;
the site applies them through the same path as a player's moves. Working out the list applies
the moves to the (frozen) state here, so a bot sees the tile it draws only after drawing it.
"""

from __future__ import annotations

from .finish import FINISH_FACTOR, finishes
from .hand import hand_apply, pairs_and_singles
from .hard import hard_take, hard_throw
from .knowledge import seat_knowledge
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
)
from .rack import BOT_STRENGTHS, best_discard, rack_strength, should_take
from .state import HandState

# a bot that holds this many pairs goes for pairs openly (çifte gitmek)
_DECLARE_AT = 5


class _Turn:
    """The state as the moves of one turn are made."""

    def __init__(self, state: HandState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.moves: list[Move] = []

    def play(self, move: Move) -> None:
        self.state = hand_apply(self.state, move)
        self.moves.append(move)

    def can(self, move: Move) -> bool:
        try:
            hand_apply(self.state, move)
        except IllegalMove:
            return False
        return True

    @property
    def rack(self) -> tuple[int, ...]:
        return self.state.racks[self.seat]


def _least_useful(state: HandState, seat: int, strength: str) -> int:
    """best_discard, unless that is the tile just taken from the left, which may not go back:
    then the tile whose loss leaves the rack closest to a finish."""
    rack, okey, taken = state.racks[seat], state.okey, state.drawn_from_left
    tile = best_discard(rack, okey, strength)
    if tile != taken:
        return tile
    options = sorted({t for t in rack if t != taken})
    rest = {t: list(rack) for t in options}
    for t in options:
        rest[t].remove(t)
    # an okey goes only when nothing else can
    return max(options, key=lambda t: (t != okey, rack_strength(rest[t], okey), -t))


def _finishing_tile(state: HandState, seat: int) -> int | None:
    done = finishes(state.racks[seat], state.okey)
    if not done:
        return None
    return max(done, key=lambda t: (FINISH_FACTOR[done[t]], -t))


def auto_moves(state: HandState, seat: int) -> list[Move]:
    """The timeout play: draw from the stock if not drawn yet; finish if the rack can, with the
    highest-valued finish; else discard the tile drawn. The first player of a hand, who does not
    draw, a player who took their tile from the left or took the indicator, and a player who
    drew a real okey discard their least useful tile instead: never the okey while anything
    else can go."""
    if state.phase == "over" or state.turn != seat:
        return []
    turn = _Turn(state, seat)
    if turn.state.phase == "draw":
        turn.play(Draw(seat))
    s = turn.state
    finish = _finishing_tile(s, seat)
    if finish is not None:
        turn.play(Finish(seat, finish))
        return turn.moves
    from_stock = (
        s.drawn is not None
        and s.drawn_from_left is None
        and not (s.indicator_taken_by == seat and s.drawn == s.indicator)
    )
    tile = s.drawn if from_stock and s.drawn != s.okey else _least_useful(s, seat, "normal")
    turn.play(Discard(seat, tile))
    return turn.moves


def _check_strength(strength: str) -> None:
    if strength not in BOT_STRENGTHS:
        raise ValueError(
            f"unknown bot strength {strength!r}: choose one of {', '.join(BOT_STRENGTHS)}"
        )


def bot_discard(state: HandState, seat: int, strength: str = "hard") -> int:
    """The tile a bot of ``strength`` would put down from the rack of ``seat``, which has drawn
    (or is the first player on the first turn): the tile it finishes with when the rack can
    finish, else the tile it discards. The hard bot reads only what the seat knows."""
    _check_strength(strength)
    if state.phase != "discard" or state.turn != seat:
        raise ValueError(f"seat {seat} has no tile to put down now: it is not its turn to discard")
    if strength == "hard":
        return hard_throw(seat_knowledge(state, seat))
    tile = _finishing_tile(state, seat)
    return tile if tile is not None else _least_useful(state, seat, strength)


def _declares(turn: _Turn, strength: str) -> bool:
    """Go for pairs openly? The normal bot when its rack is made of pairs; the hard bot only to
    be allowed to take the indicator for its seventh pair, since declaring shows everyone every
    pile's history."""
    if not turn.can(DeclarePairs(turn.seat)):
        return False
    melds, pairs2 = rack_strength(turn.rack, turn.state.okey)
    if strength == "normal":
        return pairs2 >= 2 * _DECLARE_AT and pairs2 > melds
    s = turn.state
    return (
        strength == "hard"
        and s.options.pairs_take_indicator
        and s.indicator_taken_by is None
        and pairs2 >= 12
        and s.indicator in pairs_and_singles(turn.rack, s.okey)[1]
    )


def _takes(turn: _Turn, strength: str) -> bool:
    s, seat = turn.state, turn.seat
    if not turn.can(TakeDiscard(seat)):
        return False
    if strength == "hard":
        return hard_take(seat_knowledge(s, seat))
    return should_take(turn.rack, s.discards[(seat - 1) % s.n][-1], s.okey, strength)


def bot_moves(state: HandState, seat: int, strength: str = "normal") -> list[Move]:
    """A bot's whole turn: show the indicator if it can; go for pairs openly when _declares says
    so; take the indicator when that completes its pairs, or the left discard when it wants it,
    else draw; finish if it can, else discard."""
    _check_strength(strength)
    if state.phase == "over" or state.turn != seat:
        return []
    turn = _Turn(state, seat)
    okey = state.okey
    if turn.can(ShowIndicator(seat)):
        turn.play(ShowIndicator(seat))
    if _declares(turn, strength):
        turn.play(DeclarePairs(seat))
    if turn.state.phase == "draw":
        s = turn.state
        singles = pairs_and_singles(turn.rack, okey)[1]
        if turn.can(TakeIndicator(seat)) and s.indicator in singles:
            turn.play(TakeIndicator(seat))
        elif _takes(turn, strength):
            turn.play(TakeDiscard(seat))
        else:
            turn.play(Draw(seat))
    tile = bot_discard(turn.state, seat, strength)
    if tile in finishes(turn.rack, okey):
        turn.play(Finish(seat, tile))
    else:
        turn.play(Discard(seat, tile))
    return turn.moves
