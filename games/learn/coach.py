"""The first hand's coach: what to do now, worked out from the player's real rack by the engine.

Pure: it reads a hand's state (and, to judge a discard, the state before it) and says what it
sees; the page (games.learn.pages) turns that into words. The advice is the engine's own
normal-strength play, not the hard bot's (whose internals change as it gets better): arrange
the rack into runs and sets (``arrange_runs``), take the left tile when ``should_take`` says it
helps, throw what ``best_discard`` throws, and finish when ``finishes`` says the rack can. A
discard is judged by how many draws the rack is from a finish after it (``distance``), against
the best throw the rack had.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import engine
from games.engine.distance import key_distance
from games.engine.melds import rack_key
from games.engine.moves import Discard, Draw, Finish, ShowIndicator, TakeDiscard

FAKE = engine.parse_tile("F")


def distance(rack, okey: int) -> int:
    """Draws the rack (14 tiles, or 15 with one to throw) is from a finish in melds, at best."""
    key, jokers = rack_key(rack, okey)
    return key_distance(key, jokers)


def _without(rack, tile: int) -> list[int]:
    rest = list(rack)
    rest.remove(tile)
    return rest


def throw_choice(state: engine.HandState, seat: int) -> engine.Move:
    """The finish, else the discard, the coach suggests to ``seat`` in its discard phase: a
    tile taken from the left may not go back, so it is never suggested."""
    legal = engine.legal_moves(state, seat)
    rack, okey = state.racks[seat], state.okey
    best = engine.best_discard(rack, okey, "normal")
    finishing = [m for m in legal if isinstance(m, Finish)]
    if finishing:
        return next((m for m in finishing if m.tile == best), finishing[0])
    throws = [m for m in legal if isinstance(m, Discard)]
    if Discard(seat, best) in throws:
        return Discard(seat, best)
    return min(throws, key=lambda m: (distance(_without(rack, m.tile), okey), m.tile == okey))


def draw_choice(state: engine.HandState, seat: int) -> engine.Move:
    """Take the left player's tile when it helps the rack, else draw from the stock."""
    left = state.discards[(seat - 1) % state.n]
    if "take" in engine.legal_kinds(state, seat) and left:
        if engine.should_take(state.racks[seat], left[-1], state.okey, "normal"):
            return TakeDiscard(seat)
    return Draw(seat)


def turn_moves(state: engine.HandState, seat: int) -> list[engine.Move]:
    """The coach's whole turn for ``seat``, as a player following it would play it (the tests
    and the choice of the first hand's deal play it; the page only ever advises one step)."""
    moves: list[engine.Move] = []
    if "show" in engine.legal_kinds(state, seat):
        moves.append(ShowIndicator(seat))
        state = engine.hand_apply(state, moves[-1])
    if state.phase == "draw":
        moves.append(draw_choice(state, seat))
        state = engine.hand_apply(state, moves[-1])
    moves.append(throw_choice(state, seat))
    return moves


@dataclass(frozen=True)
class Verdict:
    """A discard judged: ``tile`` thrown from a rack that was then ``after`` draws from a finish,
    where the best throw (``best``) would have left it ``best_after``."""

    tile: int
    after: int
    best: int
    best_after: int
    okey: bool  # the tile thrown was a real okey

    @property
    def good(self) -> bool:
        return not self.okey and self.after <= self.best_after


def discard_verdict(before: engine.HandState, move: Discard) -> Verdict:
    """Judge ``move``, a discard made from ``before`` (the state just before it)."""
    rack, okey = before.racks[move.seat], before.okey
    best = throw_choice(before, move.seat)
    best_tile = best.tile
    return Verdict(
        tile=move.tile,
        after=distance(_without(rack, move.tile), okey),
        best=best_tile,
        best_after=distance(_without(rack, best_tile), okey),
        okey=move.tile == okey,
    )


@dataclass(frozen=True)
class Arrangement:
    groups: tuple[tuple[int, ...], ...]
    leftovers: tuple[int, ...]


def arrangement(rack, okey: int) -> Arrangement:
    """The rack as runs and sets (the table's "Seri diz" arranges it the same way)."""
    groups, leftovers = engine.arrange_runs(rack, okey)
    return Arrangement(tuple(tuple(g) for g in groups), tuple(leftovers))
