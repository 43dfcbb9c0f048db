"""Looking back at a hand, and a hint during one: the moments that matter, and a bot's advice.

``hand_marks`` walks a finished hand's moves from its deal and marks:

- ``could_finish``: a player discarded while their 15 tiles could finish (the mark names the
  best finishing tile and its kind);
- ``fed_finish``: a discard with which the next player could finish, where their own 14 tiles
  could not (any tile would have done then, so it is no fault of the discard); ``taken`` says
  whether they took it and ``finished`` whether they then finished, read from their whole turn
  (they may show the indicator or declare pairs before taking);
- ``bot_discard``: the judging bot's discard where it is better than the player's by a measure
  the page can state, tried in this order: it leaves the rack fewer draws from a finish
  (``reason`` "nearer"), or as near with more tiles in melds ("melds"), or as near with as many
  tiles in melds while the player's tile was one the next player was likely to take and the
  bot's was not ("safer": they had taken ``wanted``, which stands in a meld beside it). A
  different choice that is no better by any of them is no mark: it would be noise.

Only the discards the players made themselves are judged (``judged``: their moves' numbers): a
bot's are its own choices, and a move the timer played for a person is not that person's.
``MARKS_VERSION`` is the meaning of a mark: a stored review of another version is made again.

``hint`` gives the player to move the judging bot's advice and an arrangement of their rack. The
bot sees the state only as the player does (``seen_by``): the tiles the player cannot see are
dealt out again in a fixed order, so no advice can depend on where they really are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .autoplay import bot_discard, bot_moves
from .distance import key_distance
from .finish import FINISH_FACTOR, finishes
from .hand import hand_apply, legal_kinds
from .hard import wanted_by_next
from .knowledge import seat_knowledge
from .melds import key_can_meld, rack_key
from .moves import Discard, Draw, Finish, Move, TakeDiscard, TakeIndicator
from .pairs import key_can_pairs
from .rack import arrange_runs, key_pairs, rack_strength
from .state import HandState

# The bot whose choices the review and the hints show.
JUDGE_STRENGTH = "hard"

_DRAWS = {TakeDiscard: "take", TakeIndicator: "indicator", Draw: "stock"}

COULD_FINISH = "could_finish"
FED_FINISH = "fed_finish"
BOT_DISCARD = "bot_discard"

# the reasons a bot_discard mark gives, in the order they are tried
NEARER = "nearer"
MELDS = "melds"
SAFER = "safer"

# 1: the bot's discard wherever it differed, judged by the table's seats when made; 2: marked
# only when better by a stated measure, judged by each move's own player, the next player's
# whole turn read for fed_finish
MARKS_VERSION = 2


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
    reason: str | None = None  # BOT_DISCARD: NEARER | MELDS | SAFER
    draws: int | None = None  # BOT_DISCARD: draws from a finish the bot's choice leaves
    draws_played: int | None = None  # BOT_DISCARD: the same for the player's choice
    wanted: int | None = None  # BOT_DISCARD, SAFER: the tile the next player had taken
    finished: bool | None = None  # FED_FINISH: did the next player finish in that turn


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


def draws_to_finish(rack14: Sequence[int], okey: int) -> int:
    """The fewest draws that could make 14 tiles a finish: in melds, or in seven pairs (a draw
    per missing pair), as the hard bot counts them (distance.py)."""
    key, okeys = rack_key(rack14, okey)
    return min(key_distance(key, okeys), 7 - key_pairs(key, okeys))


def _discard_marks(state: HandState, m: Discard, seq: int, judged, strength) -> list[Mark]:
    rack, okey = state.racks[m.seat], state.okey
    if seq not in judged:
        return []
    best = _best_finish(rack, okey)
    if best is not None:
        return [Mark(seq, m.seat, COULD_FINISH, best[0], finish=best[1])]
    choice = bot_choice(state, m.seat, strength)
    if not isinstance(choice, Discard) or choice.tile == m.tile:
        return []
    mine, theirs = _without(rack, choice.tile), _without(rack, m.tile)
    draws, draws_played = draws_to_finish(mine, okey), draws_to_finish(theirs, okey)
    kept, kept_played = rack_strength(mine, okey)[0], rack_strength(theirs, okey)[0]
    wanted = None
    if draws < draws_played:
        reason = NEARER
    elif draws > draws_played or kept < kept_played:
        return []
    elif kept > kept_played:
        reason = MELDS
    else:
        k = seat_knowledge(state, m.seat)
        wanted = wanted_by_next(k, m.tile)
        if wanted is None or wanted_by_next(k, choice.tile) is not None:
            return []
        reason = SAFER
    return [
        Mark(
            seq,
            m.seat,
            BOT_DISCARD,
            choice.tile,
            played=m.tile,
            kept=kept,
            kept_played=kept_played,
            reason=reason,
            draws=draws,
            draws_played=draws_played,
            wanted=wanted,
        )
    ]


def _next_turn(moves: Sequence[Move], seq: int, nxt: int) -> list[Move]:
    """The moves of the next player's turn after move ``seq``: all of theirs until another
    seat moves (they may show the indicator or declare pairs before they take or draw)."""
    out = []
    for m in moves[seq:]:
        if m.seat != nxt:
            break
        out.append(m)
    return out


def _fed_mark(after: HandState, m: Discard, seq: int, turn: Sequence[Move]) -> list[Mark]:
    if after.phase == "over":
        return []
    nxt = (m.seat + 1) % after.n
    rack = after.racks[nxt]
    if _finished_already(rack, after.okey):
        return []
    best = _best_finish((*rack, m.tile), after.okey)
    if best is None:
        return []
    taken = any(isinstance(x, TakeDiscard) for x in turn)
    finished = taken and any(isinstance(x, Finish) for x in turn)
    return [Mark(seq, m.seat, FED_FINISH, m.tile, finish=best[1], taken=taken, finished=finished)]


def hand_marks(
    dealt: HandState,
    moves: Sequence[Move],
    judged: Iterable[int] = (),
    strength: str = JUDGE_STRENGTH,
) -> tuple[Mark, ...]:
    """The marks of the hand that ``moves`` play from ``dealt``, in move order. ``judged``: the
    numbers (seq, from 1) of the moves a person made themselves; only their discards get a
    could_finish or bot_discard mark (a bot's turns are its own choices, a timed-out turn is
    the timer's). fed_finish marks any discard: it tells what the next player could do."""
    judged = frozenset(judged)
    marks: list[Mark] = []
    state = dealt
    for seq, m in enumerate(moves, start=1):
        after = hand_apply(state, m)
        if isinstance(m, Discard):
            marks += _discard_marks(state, m, seq, judged, strength)
            turn = _next_turn(moves, seq, (m.seat + 1) % state.n)
            marks += _fed_mark(after, m, seq, turn)
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
