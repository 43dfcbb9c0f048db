"""Building hand states for tests: racks written in notation, the rest of the 106 tiles in the
stock, so that every state built here accounts for all tiles like a dealt one."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from games.engine import HandState, TableOptions, okey_of, parse_tile, parse_tiles
from games.engine.tiles import FAKE, full_set


def make_hand(
    racks: list[str | None],
    indicator: str = "Y4",
    *,
    first_seat: int = 0,
    turn: int | None = None,
    phase: str | None = None,
    stock_top: str = "",
    discards: list[str] | None = None,
    options: TableOptions | None = None,
    **fields,
) -> HandState:
    """A hand with these racks; ``stock_top`` tiles are drawn next (the last one first).

    A rack given as None is filled with 14 ordinary tiles (15 for the first player before their
    first discard) (never the indicator's twin, an okey
    or a fake joker). By default it is the first player's first turn, as after a deal. Any other
    HandState field can be given by name.
    """
    n = len(racks)
    options = options or TableOptions(seats=n)
    ind = parse_tile(indicator)
    given = [parse_tiles(r) for r in racks if r is not None]
    piles = tuple(parse_tiles(p) for p in (discards or [""] * n))
    top = parse_tiles(stock_top)
    left = Counter(full_set())
    for f in [ind, *top, *(t for r in given for t in r), *(t for p in piles for t in p)]:
        left[f] -= 1
        assert left[f] >= 0, f"more than two copies of face {f}"
    special = {ind, okey_of(ind), FAKE}
    plain = sorted(
        (f for f in left.elements() if f not in special), key=lambda f: (f % 13, f // 13)
    )
    fillers = [i for i, r in enumerate(racks) if r is None]
    fresh = (turn is None or turn == first_seat) and (phase or "discard") == "discard"
    filled = {
        seat: tuple(plain[k :: len(fillers)][: 15 if fresh and seat == first_seat else 14])
        for k, seat in enumerate(fillers)
    }
    for r in filled.values():
        left.subtract(r)
    rack_faces = tuple(filled[i] if r is None else parse_tiles(r) for i, r in enumerate(racks))
    rest = tuple(sorted(left.elements(), key=lambda f: (f == FAKE, f)))
    state = HandState(
        options=options,
        n=n,
        first_seat=first_seat,
        indicator=ind,
        okey=okey_of(ind),
        stock=rest + top,
        racks=rack_faces,
        discards=piles,
        turn=first_seat if turn is None else turn,
        phase=phase or "discard",
        played=(False,) * n,
    )
    return replace(state, **fields) if fields else state


def all_tiles(state: HandState) -> Counter:
    """Every tile the state holds somewhere: racks, stock, piles, indicator, finishing tile."""
    c = Counter(state.stock)
    for r in state.racks:
        c.update(r)
    for p in state.discards:
        c.update(p)
    if state.indicator_taken_by is None:
        c[state.indicator] += 1
    if state.result is not None and state.result.tile is not None:
        c[state.result.tile] += 1
    return c
