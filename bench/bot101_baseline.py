"""Today's 101 bot policy (main at a126efb, games/engine/okey101/bots.py), kept as the bench's
reference opponent: bench code, not product code. ``baseline101_moves(state, seat, strength)``
plays a whole turn as that bot did ("normal" or "easy"); it uses the engine's current helpers
(and the new bot's ``add_one``, which adds to the table as it did).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.okey101.autoplay import Turn, highest, safe_tiles
from games.engine.okey101.bots import add_one
from games.engine.okey101.laying import threshold
from games.engine.okey101.moves import (
    Discard,
    Draw,
    GiveBack,
    Lay,
    Move101,
    TakeDiscard,
)
from games.engine.okey101.opening import Meld, best_melds, best_pairs, open_value, pair_count
from games.engine.okey101.state import Hand101
from games.engine.okey101.table import add_tile, read_meld, take_okey
from games.engine.okey101.values import plain
from games.engine.tiles import FAKE, colour_of, number_of

BASELINE_STRENGTHS = ("normal", "easy")


def _tiles_of(meld: Meld, rack: list[int], okey: int) -> tuple[int, ...]:
    """The rack's tiles for a meld found on plain faces (a fake joker is the okey's face)."""
    faces, jokers = meld
    out = [FAKE if f == okey else f for f in faces] + [okey] * jokers
    for t in out:
        rack.remove(t)
    return tuple(out)


def _groups(rack: Sequence[int], melds: list[Meld], okey: int) -> list[tuple[int, ...]]:
    left = list(rack)
    return [_tiles_of(m, left, okey) for m in melds]


def _keep_one(groups: list[tuple[int, ...]], rack_size: int) -> list[tuple[int, ...]]:
    """Drop the smallest group while the groups would leave no tile to discard."""
    groups = sorted(groups, key=len, reverse=True)
    while groups and sum(map(len, groups)) >= rack_size:
        groups.pop()
    return groups


def _value(groups, okey) -> int:
    """What the engine will count for these groups: each read on its own."""
    return sum(read_meld(g, okey, 0).value for g in groups)


def _uses_taken(s: Hand101, groups) -> bool:
    """An opening after taking from the left must lay that tile (docs/rules-101.md)."""
    return s.taken is None or any(s.taken in g for g in groups)


def _open_melds(turn: Turn) -> bool:
    s, rack = turn.state, turn.rack
    value, melds = best_melds(rack, s.okey)
    groups = _groups(rack, melds, s.okey)
    used = sum(map(len, groups))
    one_go = used == len(rack) - 1
    groups = _keep_one(groups, len(rack))
    if not _uses_taken(s, groups):
        return False
    if groups and (one_go or _value(groups, s.okey) >= threshold(s, False)):
        turn.play(Lay(turn.seat, tuple(groups)))
        return True
    return False


def _lay_pairs(turn: Turn, need: int) -> bool:
    s, rack = turn.state, turn.rack
    pairs = _keep_one(best_pairs(rack, s.okey), len(rack))
    if s.opened[turn.seat] == "none" and not _uses_taken(s, pairs):
        return False
    if pairs and len(pairs) >= need:
        turn.play(Lay(turn.seat, tuple(pairs), pairs=True))
        return True
    return False


def _open(turn: Turn, strength: str) -> None:
    s = turn.state
    if not s.declared[turn.seat] and _open_melds(turn):
        return
    if strength == "normal" or s.declared[turn.seat]:
        _lay_pairs(turn, threshold(s, True))


def _lay_more(turn: Turn) -> None:
    s = turn.state
    if s.opened[turn.seat] == "melds":
        value, melds = best_melds(turn.rack, s.okey)
        groups = _keep_one(_groups(turn.rack, melds, s.okey), len(turn.rack))
        if groups:
            turn.play(Lay(turn.seat, tuple(groups)))
    elif s.opened[turn.seat] == "pairs":
        _lay_pairs(turn, 1)


def _play(turn: Turn, strength: str) -> None:
    s = turn.state
    if s.first_turn or s.over:
        return
    if s.opened[turn.seat] == "none":
        _open(turn, strength)
    if turn.state.opened[turn.seat] == "none" or turn.state.over or turn.state.one_go:
        return
    _lay_more(turn)
    while add_one(turn):
        _lay_more(turn)


def _usefulness(tile: int, rack: Sequence[int], okey: int) -> int:
    """How much a tile works with the others: neighbours in a run, partners in a set, a twin."""
    f = plain(tile, okey)
    others = list(rack)
    others.remove(tile)  # the tile itself, once: its twin still counts
    score = 0
    for other in others:
        if other == okey:
            continue
        g = plain(other, okey)
        if colour_of(g) == colour_of(f):
            gap = abs(number_of(g) - number_of(f))
            score += {0: 1, 1: 3, 2: 1}.get(gap, 0)
        elif number_of(g) == number_of(f):
            score += 2
    return score


def _discard(s: Hand101, seat: int, strength: str) -> int:
    rack = s.racks[seat]
    candidates = safe_tiles(rack, s.table, s.okey)
    if strength == "easy":
        return highest(candidates, s.okey)
    opened = s.opened[seat] != "none"
    # unopened, high tiles make the 101; opened, every tile kept counts against
    return min(
        candidates,
        key=lambda t: (
            _usefulness(t, rack, s.okey),
            -number_of(plain(t, s.okey)) * (1 if opened else -1),
        ),
    )


def _takes(s: Hand101, seat: int) -> bool:
    """The normal bot takes the left tile when it can put it on the table this turn."""
    left = s.discards[(seat - 1) % s.n]
    if not left or not s.stock:
        return False
    tile, rack = left[-1], s.racks[seat]
    with_it = (*rack, tile)
    if s.opened[seat] == "none":
        if s.declared[seat]:
            return pair_count(with_it, s.okey) >= threshold(s, True) > pair_count(rack, s.okey)
        before = open_value(rack, s.okey)
        return (
            open_value(with_it, s.okey) >= threshold(s, False)
            and open_value(with_it, s.okey) > before
        )
    if s.opened[seat] == "pairs":
        return False
    if any(add_tile(m, tile, s.okey) or take_okey(m, tile, s.okey) for m in s.table):
        return True
    return open_value(with_it, s.okey) > open_value(rack, s.okey)


def baseline101_moves(state: Hand101, seat: int, strength: str = "normal") -> list[Move101]:
    if strength not in BASELINE_STRENGTHS:
        raise ValueError(f"a 101 bot is one of {', '.join(BASELINE_STRENGTHS)}")
    if state.over or seat != state.turn:
        return []
    turn = Turn(state, seat)
    if turn.state.phase == "draw":
        take = strength == "normal" and _takes(turn.state, seat)
        turn.play(TakeDiscard(seat) if take else Draw(seat))
    _play(turn, strength)
    if turn.state.over:
        return turn.moves
    if turn.state.taken is not None:
        # the left tile found no place on the table (a take this bot may not have made: a
        # player who took and then left, or whose seat it took over): back, and a stock tile
        turn.play(GiveBack(seat))
        _play(turn, strength)
        if turn.state.over:
            return turn.moves
    turn.play(Discard(seat, _discard(turn.state, seat, strength)))
    return turn.moves
