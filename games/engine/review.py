"""Looking back at a hand, and a hint during one: the moments that matter, and a bot's advice.

``hand_marks`` walks a finished hand's moves from its deal and marks:

- ``could_finish``: a player discarded while their 15 tiles could finish (the mark names the
  best finishing tile and its kind);
- ``fed_finish``: a discard with which the next player could finish, where their own 14 tiles
  could not (any tile would have done then, so it is no fault of the discard); ``taken`` says
  whether they took it;
- ``bot_discard``: on the turns of ``judged`` seats, the judging bot's discard where it differs
  from the player's, with the tiles each choice keeps in melds.

``hint`` gives the player to move the judging bot's advice and an arrangement of their rack. The
bot sees the state only as the player does (``seen_by``): the tiles the player cannot see are
dealt out again in a fixed order, so no advice can depend on where they really are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .autoplay import bot_discard, bot_moves
from .finish import FINISH_FACTOR, finishes
from .hand import hand_apply, legal_kinds
from .melds import key_can_meld, rack_key
from .moves import Discard, Draw, Finish, Move, TakeDiscard, TakeIndicator
from .pairs import key_can_pairs
from .rack import arrange_runs, rack_strength
from .state import HandState

# The bot whose choices the review and the hints show.
JUDGE_STRENGTH = "hard"

_DRAWS = {TakeDiscard: "take", TakeIndicator: "indicator", Draw: "stock"}

COULD_FINISH = "could_finish"
FED_FINISH = "fed_finish"
BOT_DISCARD = "bot_discard"


@dataclass(frozen=True)
class Mark:
    """A moment of a hand: ``seq`` is the move it is about (1 for the first move)."""

    seq: int
    seat: int
    kind: str  # COULD_FINISH | FED_FINISH | BOT_DISCARD
    tile: int  # the finishing tile; the discard that fed; the bot's discard
    finish: str | None = None  # the kind of finish it was or would have been
    played: int | None = None  # BOT_DISCARD: the player's discard
    kept: int | None = None  # BOT_DISCARD: tiles the bot's choice keeps in melds
    kept_played: int | None = None  # BOT_DISCARD: tiles the player's choice keeps in melds
    taken: bool | None = None  # FED_FINISH: did the next player take it


@dataclass(frozen=True)
class Hint:
    """What the judging bot would do now: in the draw phase where it takes its tile from (``draw``:
    "take" the left discard, "indicator" with pairs, or "stock"); after the draw, ``finish`` with
    a tile or ``discard`` one. ``show``: show the indicator first. ``groups`` and
    ``leftovers``: the rack arranged."""

    show: bool
    draw: str | None
    discard: int | None
    finish: int | None
    groups: tuple[tuple[int, ...], ...]
    leftovers: tuple[int, ...]


def _best_finish(rack: Sequence[int], okey: int) -> tuple[int, str] | None:
    done = finishes(rack, okey)
    if not done:
        return None
    tile = max(done, key=lambda t: (FINISH_FACTOR[done[t]], t == okey, -t))
    return tile, done[tile]


def _without(rack: Sequence[int], tile: int) -> list[int]:
    rest = list(rack)
    rest.remove(tile)
    return rest


def _finished_already(rack14: Sequence[int], okey: int) -> bool:
    key, okeys = rack_key(rack14, okey)
    return key_can_pairs(key, okeys) or key_can_meld(key, okeys)


def bot_choice(state: HandState, seat: int, strength: str = JUDGE_STRENGTH) -> Move | None:
    """The judging bot's discard or finish for ``seat``, which has drawn (phase "discard")."""
    if state.phase != "discard" or state.turn != seat:
        return None
    tile = bot_discard(state, seat, strength)
    if tile in finishes(state.racks[seat], state.okey):
        return Finish(seat, tile)
    return Discard(seat, tile)


def _discard_marks(state: HandState, m: Discard, seq: int, judged, strength) -> list[Mark]:
    rack, okey = state.racks[m.seat], state.okey
    best = _best_finish(rack, okey)
    if best is not None:
        return [Mark(seq, m.seat, COULD_FINISH, best[0], finish=best[1])]
    if m.seat not in judged:
        return []
    choice = bot_choice(state, m.seat, strength)
    if not isinstance(choice, Discard) or choice.tile == m.tile:
        return []
    return [
        Mark(
            seq,
            m.seat,
            BOT_DISCARD,
            choice.tile,
            played=m.tile,
            kept=rack_strength(_without(rack, choice.tile), okey)[0],
            kept_played=rack_strength(_without(rack, m.tile), okey)[0],
        )
    ]


def _fed_mark(after: HandState, m: Discard, seq: int, taken: bool) -> list[Mark]:
    if after.phase == "over":
        return []
    nxt = (m.seat + 1) % after.n
    rack = after.racks[nxt]
    if _finished_already(rack, after.okey):
        return []
    best = _best_finish((*rack, m.tile), after.okey)
    if best is None:
        return []
    return [Mark(seq, m.seat, FED_FINISH, m.tile, finish=best[1], taken=taken)]


def hand_marks(
    dealt: HandState,
    moves: Sequence[Move],
    judged: Iterable[int] = (),
    strength: str = JUDGE_STRENGTH,
) -> tuple[Mark, ...]:
    """The marks of the hand that ``moves`` play from ``dealt``, in move order. The judging bot
    is asked only on the turns of the seats in ``judged`` (people: bots' turns are its own)."""
    judged = frozenset(judged)
    marks: list[Mark] = []
    state = dealt
    for seq, m in enumerate(moves, start=1):
        after = hand_apply(state, m)
        if isinstance(m, Discard):
            marks += _discard_marks(state, m, seq, judged, strength)
            nxt_move = moves[seq] if seq < len(moves) else None
            taken = isinstance(nxt_move, TakeDiscard)
            marks += _fed_mark(after, m, seq, taken)
        state = after
    return tuple(marks)


def seen_by(state: HandState, seat: int) -> HandState:
    """``state`` as ``seat`` knows it: every tile the seat cannot see (the other racks and the
    stock) dealt out again in one fixed order, the rest unchanged. Two states that look the same
    from ``seat`` give the same result."""
    hidden = sorted([t for i, r in enumerate(state.racks) if i != seat for t in r] + [*state.stock])
    racks, at = [], 0
    for i, r in enumerate(state.racks):
        if i == seat:
            racks.append(r)
            continue
        racks.append(tuple(hidden[at : at + len(r)]))
        at += len(r)
    return replace(state, racks=tuple(racks), stock=tuple(hidden[at:]))


def hint(state: HandState, seat: int, strength: str = JUDGE_STRENGTH) -> Hint:
    """The judging bot's advice for ``seat`` on its turn, from what the seat can see. Raises
    ValueError when it is not the seat's turn."""
    if state.phase == "over" or state.turn != seat:
        raise ValueError("a hint is for the player to move")
    seen = seen_by(state, seat)
    draw = finish = discard = None
    if state.phase == "draw":
        # the turn as the bot would play it says where it takes its tile from (what it then
        # draws from the dealt-out stock is no advice)
        moves = bot_moves(seen, seat, strength)
        draw = next((_DRAWS[type(m)] for m in moves if type(m) in _DRAWS), "stock")
    else:
        choice = bot_choice(seen, seat, strength)
        finish = choice.tile if isinstance(choice, Finish) else None
        discard = choice.tile if isinstance(choice, Discard) else None
    groups, leftovers = arrange_runs(state.racks[seat], state.okey)
    return Hint(
        show="show" in legal_kinds(state, seat),  # a bot always shows when it may
        draw=draw,
        discard=discard,
        finish=finish,
        groups=tuple(tuple(g) for g in groups),
        leftovers=tuple(leftovers),
    )
