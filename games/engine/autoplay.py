"""Moves made for a player: the timeout play of okey-rules.md, and a bot's whole turn.

Both return the moves of one turn, in order, each legal when applied after the ones before it;
the site applies them through the same path as a player's moves. Working out the list applies
the moves to the (frozen) state here, so a bot sees the tile it draws only after drawing it.
"""

from __future__ import annotations

from .finish import FINISH_FACTOR, finishes
from .hand import hand_apply, pairs_and_singles
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


def bot_moves(state: HandState, seat: int, strength: str = "normal") -> list[Move]:
    """A bot's whole turn: show the indicator if it can; go for pairs openly when the rack is
    made of them (normal strength); take the left discard when should_take says so (or the
    indicator, when that completes its pairs), else draw; finish if it can, else discard."""
    if strength not in BOT_STRENGTHS:
        raise ValueError(
            f"unknown bot strength {strength!r}: choose one of {', '.join(BOT_STRENGTHS)}"
        )
    if state.phase == "over" or state.turn != seat:
        return []
    turn = _Turn(state, seat)
    okey = state.okey
    if turn.can(ShowIndicator(seat)):
        turn.play(ShowIndicator(seat))
    if strength == "normal" and turn.can(DeclarePairs(seat)):
        melds, pairs2 = rack_strength(turn.rack, okey)
        if pairs2 >= 2 * _DECLARE_AT and pairs2 > melds:
            turn.play(DeclarePairs(seat))
    if turn.state.phase == "draw":
        s = turn.state
        left = (seat - 1) % s.n
        singles = pairs_and_singles(turn.rack, okey)[1]
        if turn.can(TakeIndicator(seat)) and s.indicator in singles:
            turn.play(TakeIndicator(seat))
        elif turn.can(TakeDiscard(seat)) and should_take(
            turn.rack, s.discards[left][-1], okey, strength
        ):
            turn.play(TakeDiscard(seat))
        else:
            turn.play(Draw(seat))
    tile = _finishing_tile(turn.state, seat)
    if tile is not None:
        turn.play(Finish(seat, tile))
    else:
        turn.play(Discard(seat, _least_useful(turn.state, seat, strength)))
    return turn.moves
