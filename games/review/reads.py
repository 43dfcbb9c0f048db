"""The read side of a hand's review: who may open it, and what one step of it shows.

A review shows every rack, so it opens only once the hand is over (its seed is revealed then
and nothing secret is left). A public table's hands are open to anyone; a private table's only
to its manager, the people who sat or played at it, and the people invited to it. Each step is
the state after that many moves (step 0 is the deal), rebuilt from the seed and the move log;
the marks are the ones stored when the hand ended (games.review.services). Imports no service.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from games import engine
from games.models import Hand, HandReview, Invite, Move, Table
from games.names import player_name


@dataclass(frozen=True)
class ReviewSeat:
    index: int
    name: str
    bot: bool
    rack: tuple[str, ...]
    pile: tuple[str, ...]
    is_turn: bool

    @property
    def number(self) -> int:
        return self.index + 1


@dataclass(frozen=True)
class ReviewMark:
    seq: int
    who: ReviewSeat  # whose discard it is about
    after: ReviewSeat  # the next seat (who could finish, for fed_finish)
    kind: str  # engine.review: could_finish | fed_finish | bot_discard
    tile: str
    finish: str | None = None
    played: str | None = None
    kept: int | None = None
    kept_played: int | None = None
    taken: bool | None = None


@dataclass(frozen=True)
class ReviewMove:
    seq: int
    who: ReviewSeat
    kind: str
    tile: str
    auto: bool


@dataclass(frozen=True)
class ReviewView:
    table_id: int
    number: int
    step: int
    last: int
    indicator: str
    okey: str
    stock_size: int
    seats: tuple[ReviewSeat, ...]
    moves: tuple[ReviewMove, ...]
    marks: tuple[ReviewMark, ...]
    marks_ready: bool
    seed: str
    result: engine.HandResult | None
    staff_void: bool
    left_void: bool  # stopped when the last person left the game

    @property
    def move(self) -> ReviewMove | None:
        """The move that led to this step (none at the deal)."""
        return self.moves[self.step - 1] if self.step else None

    @property
    def step_marks(self) -> tuple[ReviewMark, ...]:
        return tuple(m for m in self.marks if m.seq == self.step)

    @property
    def finisher(self) -> ReviewSeat | None:
        if self.result is None or self.result.finisher is None:
            return None
        return self.seats[self.result.finisher]

    @property
    def previous(self) -> int | None:
        return self.step - 1 if self.step > 0 else None

    @property
    def next(self) -> int | None:
        return self.step + 1 if self.step < self.last else None


def review_hand(table_id: int, number: int) -> Hand | None:
    return (
        Hand.objects.select_related("game__table")
        .filter(game__table_id=table_id, number=number)
        .first()
    )


def review_allowed(hand: Hand, user) -> bool:
    """May ``user`` open the review of ``hand``? Never before the hand is over."""
    if not hand.over:
        return False
    table: Table = hand.game.table
    if not table.private:
        return True
    if user is None or not user.is_authenticated:
        return False
    if user.pk == table.manager_id or table.seats.filter(user=user).exists():
        return True
    if Move.objects.filter(hand__game__table=table, user=user).exists():
        return True  # played here, and left the seat since
    invited = Q(accepted_by=user)
    if user.email:
        invited |= Q(email__iexact=user.email)
    return Invite.objects.filter(table=table).filter(invited).exists()


def _mark(d: dict, seats: tuple[ReviewSeat, ...]) -> ReviewMark:
    return ReviewMark(
        seq=d["seq"],
        who=seats[d["seat"]],
        after=seats[(d["seat"] + 1) % len(seats)],
        kind=d["kind"],
        tile=d["tile"],
        finish=d.get("finish"),
        played=d.get("played"),
        kept=d.get("kept"),
        kept_played=d.get("kept_played"),
        taken=d.get("taken"),
    )


def _tiles(faces) -> tuple[str, ...]:
    return tuple(engine.format_tile(t) for t in faces)


def review_view(hand: Hand, review: HandReview | None, step: int | None) -> ReviewView:
    """One step of the review of a finished hand; ``step`` out of range is brought into it
    (None: the deal)."""
    rows = list(hand.moves.order_by("seq"))
    options = engine.hand_from_dict(hand.state).options
    state = engine.deal(bytes(hand.seed), options, hand.first_seat)
    last = len(rows)
    step = max(0, min(step or 0, last))
    for row in rows[:step]:
        state = engine.hand_apply(state, engine.move_from_dict(row.as_engine_dict()))
    table = hand.game.table
    rows_of = {s.index: s for s in table.seats.select_related("user__profile")}
    over = state.phase == "over"
    seats = tuple(
        ReviewSeat(
            index=i,
            name=player_name(rows_of[i].user) if i in rows_of else "",
            bot=i in rows_of and rows_of[i].is_bot,
            rack=_tiles(state.racks[i]),
            pile=_tiles(state.discards[i]),
            is_turn=not over and state.turn == i,
        )
        for i in range(state.n)
    )
    return ReviewView(
        table_id=table.pk,
        number=hand.number,
        step=step,
        last=last,
        indicator=engine.format_tile(state.indicator),
        okey=engine.format_tile(state.okey),
        stock_size=len(state.stock),
        seats=seats,
        moves=tuple(
            ReviewMove(seq=m.seq, who=seats[m.seat], kind=m.kind, tile=m.tile, auto=m.auto)
            for m in rows
        ),
        marks=tuple(_mark(d, seats) for d in review.marks) if review else (),
        marks_ready=review is not None,
        seed=bytes(hand.seed).hex(),
        result=state.result if over else None,
        staff_void=bool((hand.result or {}).get("staff")),
        left_void=bool((hand.result or {}).get("left")),
    )
