"""101 bots (docs/rules-101.md): a whole turn of moves for the "easy" or "normal" strength.

Both open as soon as their best opening reaches what the table needs (melds of 101 or more, or
finishing in one go), lay every meld they can, add to any meld on the table and take okeys off
it, and discard neither an okey nor an işlek tile while they have another. When every tile
could go down they keep one to finish with, an okey if they can (the ×2 of okey atmak).

The normal bot also takes the left tile whenever it would put it on the table this turn (the
turn is tried both ways: a take costs no stock tile, so the hand lasts longer for everyone),
opens with pairs when melds fall short, and keeps the tiles the best opening uses and those
with the most live tiles to complete them (keeping.py). The easy bot draws from the stock and
throws its highest safe tile.

A bot may be handed a turn part-way (a player who took from the left and then left, or whose
seat a bot took over): it plays on from the state it is given.
"""

from __future__ import annotations

from collections.abc import Sequence

from .autoplay import Turn, highest, safe_tiles
from .keeping import loosest
from .laying import PAIRS_ADDS, threshold
from .moves import Add, Discard, Draw, GiveBack, Lay, Move101, TakeDiscard, TakeOkey
from .opening import best_groups, best_pairs
from .state import Hand101
from .table import add_tile, read_meld, take_okey

BOT101_STRENGTHS = ("normal", "easy")
Group = tuple[int, ...]


def _value(groups: Sequence[Group], okey: int) -> int:
    """What the engine will count for these groups: each read on its own."""
    return sum(read_meld(g, okey, 0).value for g in groups)


def _spare_one(groups: list[Group], okey: int) -> list[Group] | None:
    """The groups with one tile taken out of a group that stays a meld, to finish with: a real
    okey first, then the tile worth most. None when every group needs all its tiles."""
    best = None
    for i, g in enumerate(groups):
        for j, t in enumerate(g):
            rest = g[:j] + g[j + 1 :]
            if read_meld(rest, okey, 0) is None:
                continue
            rank = (t == okey, read_meld(g, okey, 0).value - read_meld(rest, okey, 0).value)
            if best is None or rank > best[0]:
                best = (rank, [*groups[:i], rest, *groups[i + 1 :]])
    return None if best is None else best[1]


def _keep_one(groups: list[Group], rack_size: int, okey: int, pairs: bool) -> list[list[Group]]:
    """The ways to lay these groups and keep a tile to discard, best first: all of them when
    something is left over; else one tile spared from a meld (to finish this turn), then
    without one whole group (the least valuable first)."""
    if sum(map(len, groups)) < rack_size:
        return [groups]
    ways = []
    spared = None if pairs else _spare_one(groups, okey)
    if spared is not None:
        ways.append(spared)
    worth = (lambda g: 0) if pairs else (lambda g: read_meld(g, okey, 0).value)
    for g in sorted(groups, key=worth):
        rest = list(groups)
        rest.remove(g)
        if rest:
            ways.append(rest)
    return ways


def _lay(turn: Turn, groups: list[Group], pairs: bool, need: int | None) -> bool:
    """Lay the groups, keeping a tile to discard; an opening (``need`` not None) must reach
    ``need`` or lay all but one tile, and must hold the tile taken from the left."""
    s, rack = turn.state, turn.rack
    for way in _keep_one(groups, len(rack), s.okey, pairs):
        if need is not None:
            if s.taken is not None and not any(s.taken in g for g in way):
                continue
            worth = len(way) if pairs else _value(way, s.okey)
            all_but_one = not pairs and sum(map(len, way)) == len(rack) - 1
            if worth < need and not all_but_one:
                continue
        turn.play(Lay(turn.seat, tuple(way), pairs=pairs))
        return True
    return False


def _open(turn: Turn, strength: str) -> None:
    s, seat = turn.state, turn.seat
    if not s.declared[seat]:
        groups = best_groups(turn.rack, s.okey)
        if groups and _lay(turn, groups, False, threshold(s, False)):
            return
    if strength == "normal" or s.declared[seat]:
        pairs = best_pairs(turn.rack, s.okey)
        if pairs:
            _lay(turn, pairs, True, threshold(s, True))


def _lay_more(turn: Turn) -> bool:
    s = turn.state
    mine = s.opened[turn.seat]
    if mine == "melds":
        groups = best_groups(turn.rack, s.okey)
        if groups and _lay(turn, groups, False, None):
            return True
    if mine == "pairs" or (mine == "melds" and "pairs" in s.opened):
        pairs = best_pairs(turn.rack, s.okey)
        if pairs and _lay(turn, pairs, True, None):
            return True
    return False


def add_one(turn: Turn) -> bool:
    """Add one tile to a meld on the table, or take an okey with one; False if none fits. Real
    tiles before an okey (the bench's baseline bot adds the same way)."""
    s = turn.state
    if s.opened[turn.seat] == "pairs" and s.adds_now >= PAIRS_ADDS:
        return False
    for tile in sorted(set(turn.rack), key=lambda t: t == s.okey):
        for i, meld in enumerate(s.table):
            if take_okey(meld, tile, s.okey) is not None:
                turn.play(TakeOkey(turn.seat, i, tile))
                return True
            if len(turn.rack) > 1 and add_tile(meld, tile, s.okey) is not None:
                turn.play(Add(turn.seat, i, tile))
                return True
    return False


def _play(turn: Turn, strength: str) -> None:
    s = turn.state
    if s.first_turn or s.over or s.one_go:
        return
    if s.opened[turn.seat] == "none":
        _open(turn, strength)
    while True:
        s = turn.state
        if s.opened[turn.seat] == "none" or s.over or s.one_go:
            return
        if not (_lay_more(turn) or add_one(turn)):
            return


def _discard(s: Hand101, seat: int, strength: str) -> int:
    rack = s.racks[seat]
    if len(rack) == 1:
        return rack[0]  # the finish: no penalty, an okey doubles it
    candidates = safe_tiles(rack, s.table, s.okey)
    if strength == "easy":
        return highest(candidates, s.okey)
    return loosest(s, seat, candidates)


def _play_turn(turn: Turn, strength: str) -> None:
    """Play the rest of a turn whose draw is made, up to its discard."""
    _play(turn, strength)
    if turn.state.over:
        return
    if turn.state.taken is not None:
        # the left tile found no place on the table: back, and a stock tile
        turn.play(GiveBack(turn.seat))
        _play(turn, strength)
        if turn.state.over:
            return
    turn.play(Discard(turn.seat, _discard(turn.state, turn.seat, strength)))


def _takes(s: Hand101, seat: int) -> Turn | None:
    """The turn that takes the left tile and puts it on the table, if there is one."""
    if not s.discards[(seat - 1) % s.n]:
        return None
    turn = Turn(s, seat)
    turn.play(TakeDiscard(seat))
    _play(turn, "normal")
    return turn if turn.state.taken is None else None


def bot101_moves(state: Hand101, seat: int, strength: str = "normal") -> list[Move101]:
    if strength not in BOT101_STRENGTHS:
        raise ValueError(f"a 101 bot is one of {', '.join(BOT101_STRENGTHS)}")
    if state.over or seat != state.turn:
        return []
    turn = Turn(state, seat)
    if state.phase == "draw":
        taking = _takes(state, seat) if strength == "normal" else None
        if taking is not None:
            turn = taking
        else:
            turn.play(Draw(seat))
    _play_turn(turn, strength)
    return turn.moves
