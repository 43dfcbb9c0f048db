"""What one seat knows of a hand: the only input of the hard bot's choices.

A seat sees its own rack, the indicator, every tile thrown since the deal (it watched each one go
down, the ones the next player took included), which tiles were taken and by whom, the counts
of the stock and of the racks, and who declared pairs or showed the indicator. It never sees the
stock's order or another rack: ``seat_knowledge`` copies out only the public parts of the state,
and the hard bot (hard.py) reads nothing else.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .state import HandState, discard_history
from .tiles import COPIES, FACES


@dataclass(frozen=True)
class SeatKnowledge:
    seat: int
    n: int
    partnership: bool
    indicator: int
    okey: int
    rack: tuple[int, ...]
    taken_now: int | None  # the tile taken from the left this turn: it may not go back
    takeable: int | None  # the left player's discard that may be taken now, before drawing
    # per seat, every tile it threw (oldest first) and every tile it took from its left
    thrown: tuple[tuple[int, ...], ...]
    took: tuple[tuple[int, ...], ...]
    unseen: tuple[int, ...]  # per face (FAKE included): copies this seat has not seen anywhere
    stock_size: int
    pairs_declared: tuple[int, ...]

    @property
    def next_seat(self) -> int:
        return (self.seat + 1) % self.n

    @property
    def unseen_total(self) -> int:
        return sum(self.unseen)


def seat_knowledge(state: HandState, seat: int) -> SeatKnowledge:
    histories = [discard_history(state, s) for s in range(state.n)]
    thrown = tuple(tuple(t for t, _ in h) for h in histories)
    took = [[] for _ in range(state.n)]
    for pile_seat, _, tile in state.taken:
        took[(pile_seat + 1) % state.n].append(tile)
    seen = Counter(state.racks[seat])
    if state.indicator_taken_by is None:
        seen[state.indicator] += 1  # else it is in the taker's rack, counted there
    for s in range(state.n):
        seen.update(state.discards[s])  # what lies on the piles now
        if s != seat:
            # tiles known to be in another rack: taken, or the twin shown, and not thrown since
            known = Counter(took[s])
            if state.shown_by == s:
                known[state.indicator] += 1
            if state.indicator_taken_by == s:
                known[state.indicator] += 1
            seen.update(known - Counter(thrown[s]))
    left = (seat - 1) % state.n
    takeable = None
    if (
        state.phase == "draw"
        and state.turn == seat
        and state.last_discarder == left
        and state.discards[left]
    ):
        takeable = state.discards[left][-1]
    return SeatKnowledge(
        seat=seat,
        n=state.n,
        partnership=state.options.partnership,
        indicator=state.indicator,
        okey=state.okey,
        rack=state.racks[seat],
        taken_now=state.drawn_from_left if state.turn == seat else None,
        takeable=takeable,
        thrown=thrown,
        took=tuple(tuple(t) for t in took),
        unseen=tuple(max(0, COPIES - seen[f]) for f in range(FACES)),
        stock_size=len(state.stock),
        pairs_declared=state.pairs_declared,
    )
