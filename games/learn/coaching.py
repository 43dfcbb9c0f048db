"""What the coach shows a player at their first-hand table now: read from the hand's rows and
the player's own rack, judged by games.learn.coach. Read side: writes nothing.

The coach sees what the player sees (their rack, the piles, the indicator) and, to judge the
player's last discard, their own rack as it was just before it, replayed from the hand's moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import engine
from games.engine.moves import Discard, Draw, Finish, TakeDiscard
from games.learn.coach import arrangement, discard_verdict, draw_choice, throw_choice
from games.models import Hand, Seat, Table

FAKE = engine.parse_tile("F")
codes = engine.format_tile


@dataclass(frozen=True)
class Arranged:
    """The rack as runs and sets, and the loose tiles, in notation."""

    groups: tuple[tuple[str, ...], ...]
    loose: tuple[str, ...]


@dataclass(frozen=True)
class Judged:
    """The player's last discard: ``tile`` left the rack ``after`` draws from a finish; the
    coach's throw, ``best``, would have left it ``best_after``."""

    tile: str
    best: str
    after: int
    best_after: int
    good: bool
    okey: bool
    taken: bool  # the next player took it


def _arranged(rack, okey: int) -> Arranged:
    a = arrangement(rack, okey)
    return Arranged(
        tuple(tuple(codes(t) for t in g) for g in a.groups), tuple(map(codes, a.leftovers))
    )


@dataclass(frozen=True)
class CoachView:
    key: str  # changes whenever what the coach says may change (the page asks again)
    step: str  # waiting | first | draw | throw | finish | others | won | lost
    table_id: int
    turn_number: int = 0  # the player's turns so far, this one included
    indicator: str = ""
    okey: str = ""
    okeys_held: int = 0
    fakes_held: int = 0
    can_show: bool = False
    arranged: Arranged | None = None
    take: str = ""  # draw step: the left tile, when the coach says take it
    left: str = ""  # draw step: the left tile, when there is one and the coach says draw
    throw: str = ""  # throw step: the tile to throw
    finish: str = ""  # finish step: the tile to put on the indicator
    verdict: Judged | None = None  # the player's last discard judged
    finisher: int | None = None  # the seat that finished (won, lost)


def _seat_of(table: Table, user) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    seat = Seat.objects.filter(table=table, user=user).first()
    return None if seat is None else seat.index


def _last_discard(hand: Hand, state: engine.HandState, me: int):
    """The player's last discard as (the state just before it, the move, taken by the next)."""
    moves = list(hand.moves.order_by("seq"))
    mine = [i for i, m in enumerate(moves) if m.seat == me and m.kind == "discard"]
    if not mine:
        return None
    i = mine[-1]
    before = engine.hand_replay(
        bytes(hand.seed), state.options, hand.first_seat, [m.as_engine_dict() for m in moves[:i]]
    )
    nxt = moves[i + 1] if i + 1 < len(moves) else None
    taken = nxt is not None and nxt.kind == "take" and nxt.seat == (me + 1) % state.n
    return before, Discard(me, engine.parse_tile(moves[i].tile)), taken


def _lesson_seat(table_id: int, user) -> tuple[Table, int] | None:
    table = Table.objects.select_related("game").filter(pk=table_id).first()
    if table is None or not table.policy.lesson:
        return None
    me = _seat_of(table, user)
    return None if me is None else (table, me)


def coach_key(table_id: int, user) -> tuple[str, bool] | None:
    """What the coach's ``key`` is now, and whether the hand is over, without working out what
    it says (the page asks every second; the answer changes only with a move); None where
    there is no coach for ``user``."""
    found = _lesson_seat(table_id, user)
    if found is None:
        return None
    hand = (
        Hand.objects.filter(game__table=found[0])
        .order_by("-number")
        .values("pk", "version", "over")
        .first()
    )
    if hand is None:
        return "waiting", False
    return f"{hand['pk']}:{hand['version']}", hand["over"]


def coach_view(table_id: int, user) -> CoachView | None:
    """The coach at ``table_id`` for ``user``, or None where there is none (not a first-hand
    table, or ``user`` does not sit there)."""
    found = _lesson_seat(table_id, user)
    if found is None:
        return None
    table, me = found
    hand = table.game.latest_hand()
    if hand is None:
        return CoachView(key="waiting", step="waiting", table_id=table.pk)
    state = engine.hand_from_dict(hand.state)
    rack, okey = state.racks[me], state.okey
    base = {
        "table_id": table.pk,
        "turn_number": _turns(state, hand, me),
        "indicator": engine.format_tile(state.indicator),
        "okey": engine.format_tile(okey),
        "okeys_held": rack.count(okey),
        "fakes_held": rack.count(FAKE),
    }
    key = f"{hand.pk}:{hand.version}"
    if state.phase == "over" or hand.over:
        result = state.result
        finisher = None if result is None else result.finisher
        step = "won" if finisher == me else "lost"
        return CoachView(key=key, step=step, finisher=finisher, **base)
    last = _last_discard(hand, state, me)
    verdict = None
    if last is not None:
        before, move, taken = last
        v = discard_verdict(before, move)
        verdict = Judged(codes(v.tile), codes(v.best), v.after, v.best_after, v.good, v.okey, taken)
    if state.turn != me:
        return CoachView(key=key, step="others", verdict=verdict, **base)
    arranged = _arranged(rack, okey)
    can_show = "show" in engine.legal_kinds(state, me)
    if state.phase == "draw":
        choice = draw_choice(state, me)
        left = state.discards[(me - 1) % state.n]
        left_tile = engine.format_tile(left[-1]) if left else ""
        return CoachView(
            key=key,
            step="draw",
            arranged=arranged,
            can_show=can_show,
            take=left_tile if isinstance(choice, TakeDiscard) else "",
            left=left_tile if isinstance(choice, Draw) else "",
            verdict=verdict,
            **base,
        )
    choice = throw_choice(state, me)
    if isinstance(choice, Finish):
        return CoachView(
            key=key,
            step="finish",
            arranged=_arranged(_less(rack, choice.tile), okey),
            finish=codes(choice.tile),
            **base,
        )
    step = "first" if not state.played[me] and me == state.first_seat else "throw"
    return CoachView(
        key=key,
        step=step,
        arranged=arranged,
        can_show=can_show,
        throw=engine.format_tile(choice.tile),
        **base,
    )


def _less(rack, tile: int) -> list[int]:
    rest = list(rack)
    rest.remove(tile)
    return rest


def _turns(state: engine.HandState, hand: Hand, me: int) -> int:
    """The player's turns so far, the one being played included."""
    done = hand.moves.filter(seat=me, kind__in=("discard", "finish")).count()
    return done + (1 if state.turn == me and state.phase != "over" else 0)
