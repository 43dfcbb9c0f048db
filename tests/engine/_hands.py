"""Building hand states for tests: racks written in notation, the rest of the 106 tiles in the
stock, so that every state built here accounts for all tiles like a dealt one."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from games.engine import (
    Discard,
    Finish,
    HandState,
    TableOptions,
    finishes,
    hand_apply,
    okey_of,
    parse_tile,
    parse_tiles,
)
from games.engine.finish import FINISH_FACTOR
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


def left_discarded(rack14, tile, **fields):
    """Seat 1, holding ``rack14``, is to draw; seat 0 has just discarded ``tile``."""
    return make_hand(
        [None, rack14, None, None],
        turn=1,
        phase="draw",
        discards=[tile, "", "", ""],
        last_discarder=0,
        played=(True, False, False, False),
        **fields,
    )


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


def random_move(state: HandState, rnd) -> object:
    """A legal move for the player to move, chosen at random with a lean towards the rarer
    moves (finish, show, pairs, take) so that random hands reach every rule."""
    from games.engine import legal_moves

    moves = legal_moves(state, state.turn)
    assert moves, "the player to move always has a legal move"
    by_kind: dict[str, list] = {}
    for m in moves:
        by_kind.setdefault(type(m).__name__, []).append(m)
    from games.engine.hand import pairs_and_singles

    if (
        "DeclarePairs" in by_kind
        and len(pairs_and_singles(state.racks[state.turn], state.okey)[0]) >= 5
    ):
        return by_kind["DeclarePairs"][0]
    for kind, p in (
        ("Finish", 0.8),
        ("ShowIndicator", 0.6),
        ("TakeIndicator", 0.6),
        ("DeclarePairs", 0.04),
        ("TakeDiscard", 0.3),
    ):
        if kind in by_kind and rnd.random() < p:
            if kind == "Finish":
                # finishing with an okey is worth double: a player would choose it
                best = [m for m in by_kind[kind] if m.tile == state.okey]
                return rnd.choice(best or by_kind[kind])
            return rnd.choice(by_kind[kind])
    for kind in ("Draw", "Discard", "TakeDiscard", "DeclarePairs"):
        if kind in by_kind:
            return rnd.choice(by_kind[kind])
    return rnd.choice(moves)


_PARTITIONS = ((3, 3, 4, 4), (3, 3, 3, 5), (4, 5, 5), (3, 5, 6), (4, 4, 6), (3, 4, 7), (3, 3, 8))


def _meld_tiles(rnd, size: int) -> list[int]:
    if size <= 4 and rnd.random() < 0.4:
        number = rnd.randrange(13)
        return [c * 13 + number for c in rnd.sample(range(4), size)]
    colour = rnd.randrange(4)
    start = rnd.randrange(1, 14 - size + 2)  # 1-based; number 14 is the 1 after 13
    return [colour * 13 + (start + k - 1) % 13 for k in range(size)]


def winning_rack(rnd, indicator: int) -> list[int]:
    """14 tiles that finish with the okey of ``indicator``: melds (with okeys standing in and
    fake jokers as the okey's face) or seven pairs; never more than two copies of a face, the
    indicator counted."""
    okey = okey_of(indicator)
    while True:
        used = Counter({indicator: 1})
        if rnd.random() < 0.3:
            faces = [f for f in range(53) if f != indicator]
            tiles = [f for f in rnd.sample(faces, 7) for _ in range(2)]
        else:
            tiles = [t for size in rnd.choice(_PARTITIONS) for t in _meld_tiles(rnd, size)]
        used.update(tiles)
        if any(c > 2 for c in used.values()):
            continue
        # a tile of the okey's face may be a fake joker instead, which is exactly that face
        for i, t in enumerate(tiles):
            if t == okey and used[FAKE] < 2 and rnd.random() < 0.5:
                tiles[i] = FAKE
                used[okey] -= 1
                used[FAKE] += 1
        # real okeys are wild: one may stand for any tile
        for _ in range(rnd.choice((0, 0, 1, 2))):
            i = rnd.randrange(14)
            if used[okey] < 2 and tiles[i] != okey:
                used[tiles[i]] -= 1
                tiles[i] = okey
                used[okey] += 1
        rnd.shuffle(tiles)
        return tiles


def hand_with_winner(rnd, options: TableOptions, first_seat: int, winner: int) -> HandState:
    """A hand in which ``winner`` was dealt 14 tiles that already finish, the stock shuffled."""
    from games.engine import format_tiles

    indicator = rnd.randrange(52)
    win = winning_rack(rnd, indicator)
    if options.pairs_take_indicator and rnd.random() < 0.3:
        # six pairs, a single and the indicator's twin: taking the indicator makes seven
        faces = [f for f in range(53) if f != indicator]
        win = [f for f in rnd.sample(faces, 7) for _ in range(2)]
        win[0] = indicator
    left = Counter(full_set())
    left.subtract(win + [indicator])
    if winner == first_seat:
        okey = okey_of(indicator)
        # sometimes a real okey to put on the indicator (okey atmak)
        if left[okey] and rnd.random() < 0.4:
            extra = okey
        else:
            extra = rnd.choice(sorted(left.elements()))
        left[extra] -= 1
        win = win + [extra]
    racks: list[str | None] = [None] * options.seats
    racks[winner] = format_tiles(win)
    s = make_hand(racks, format_tiles([indicator]), first_seat=first_seat, options=options)
    return replace(s, stock=tuple(rnd.sample(s.stock, len(s.stock))))


def assert_finished_or_kept_the_okey(ready: HandState, seat: int, last, kept: int | None) -> bool:
    """The last move of a turn whose tile is in (``ready``): a rack that can finish finishes,
    with the highest factor there is; otherwise the tile thrown is never a real okey while the
    rack holds another tile that may go (``kept`` may not). True when the turn finished."""
    done = finishes(ready.racks[seat], ready.okey)
    if done:
        assert isinstance(last, Finish)
        assert FINISH_FACTOR[done[last.tile]] == max(FINISH_FACTOR[k] for k in done.values())
        return True
    assert isinstance(last, Discard)
    others = [t for t in ready.racks[seat] if t not in (ready.okey, kept)]
    assert last.tile != ready.okey or not others
    return False


def played_with_random_moves(state: HandState, rnd, share: float, turn) -> HandState:
    """``state`` played to the end of its hand: each turn a random move with probability
    ``share``, else the whole turn that ``turn(state, seat)`` returns (it checks it first)."""
    while state.phase != "over":
        if rnd.random() < share:
            state = hand_apply(state, random_move(state, rnd))
            continue
        state = apply_all(state, turn(state, state.turn))
    return state


def apply_all(state: HandState, moves) -> HandState:
    for m in moves:
        state = hand_apply(state, m)
    return state
