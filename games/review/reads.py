"""The read side of a hand's review: who may open it, and what one step of it shows.

A review shows every rack, so it opens only once the hand is over (its seed is revealed then
and nothing secret is left). A public table's hands are open to anyone; a private table's only
to its manager, the people who sat or played at it, and the people invited to it. Each step is
the state after that many moves (step 0 is the deal), rebuilt from the seed and the move log;
the marks are the ones stored when the hand ended (games.review.services). Imports no service.

A mark names the player of the move it is about as they were then, from the move log (a seat may
have changed hands since, or been played by the timer), and says "you" to that player.
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
class ReviewPlayer:
    """Who played a seat at some move, for the seat_name tag: a person's name, or a bot."""

    index: int
    name: str
    bot: bool


@dataclass(frozen=True)
class ReviewMark:
    seq: int
    who: ReviewPlayer | ReviewSeat  # whose discard it is about
    after: ReviewPlayer | ReviewSeat  # the next player (who could finish, for fed_finish)
    kind: str  # engine.review: could_finish | fed_finish | bot_discard
    tile: str
    you: bool = False  # the viewer made the move it is about
    after_you: bool = False  # the viewer is ``after``: a fed finish was theirs to take
    finish: str | None = None
    played: str | None = None
    kept: int | None = None
    kept_played: int | None = None
    taken: bool | None = None
    finished: bool | None = None
    reason: str | None = None  # bot_discard: engine.review NEARER | MELDS | SAFER
    draws: int | None = None
    draws_played: int | None = None
    wanted: str | None = None


@dataclass(frozen=True)
class ReviewMove:
    seq: int
    who: ReviewPlayer | ReviewSeat  # who played it (the timer's moves: for that person)
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


class _Players:
    """Who played each seat at each move, read from the move log."""

    def __init__(self, rows: list[Move], seats: tuple[ReviewSeat, ...]) -> None:
        self.rows = rows
        self.seats = seats
        # a seat's person in this hand, for its moves the timer played (none: a bot's seat)
        self.person: dict[int, object] = {}
        for row in rows:
            if row.user_id is not None:
                self.person.setdefault(row.seat, row.user)

    def user_at(self, seq: int, seat: int):
        """The person who played ``seat`` at its first move from move ``seq`` on, if any."""
        row = next((r for r in self.rows[seq - 1 :] if r.seat == seat), None)
        user = row.user if row is not None and row.user_id is not None else None
        if user is None and row is not None:
            user = self.person.get(seat)
        return user

    def at(self, seq: int, seat: int) -> ReviewPlayer | ReviewSeat:
        """The player of ``seat`` at its first move from move ``seq`` on (its seat's view when
        it made none)."""
        user = self.user_at(seq, seat)
        if user is None:
            return self.seats[seat]
        return ReviewPlayer(index=seat, name=player_name(user), bot=False)


def _mark(d: dict, players: _Players, viewer_id: int | None) -> ReviewMark:
    n = len(players.seats)
    seat, seq = d["seat"], d["seq"]
    next_person = players.user_at(seq + 1, (seat + 1) % n)
    return ReviewMark(
        seq=seq,
        who=players.at(seq, seat),
        after=players.at(seq + 1, (seat + 1) % n),
        kind=d["kind"],
        tile=d["tile"],
        you=viewer_id is not None and d.get("user") == viewer_id,
        after_you=viewer_id is not None and getattr(next_person, "pk", None) == viewer_id,
        finish=d.get("finish"),
        played=d.get("played"),
        kept=d.get("kept"),
        kept_played=d.get("kept_played"),
        taken=d.get("taken"),
        finished=d.get("finished"),
        reason=d.get("reason"),
        draws=d.get("draws"),
        draws_played=d.get("draws_played"),
        wanted=d.get("wanted"),
    )


def _tiles(faces) -> tuple[str, ...]:
    return tuple(engine.format_tile(t) for t in faces)


def review_view(hand: Hand, review: HandReview | None, step: int | None, viewer=None) -> ReviewView:
    """One step of the review of a finished hand, as ``viewer`` sees it (its marks say "you" to
    the player they are about); ``step`` out of range is brought into it (None: the deal). A
    review of another MARKS_VERSION is shown as not made yet, never read the new way."""
    rows = list(hand.moves.select_related("user__profile").order_by("seq"))
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
    ready = review is not None and review.current
    players = _Players(rows, seats)
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
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
            ReviewMove(
                seq=m.seq, who=players.at(m.seq, m.seat), kind=m.kind, tile=m.tile, auto=m.auto
            )
            for m in rows
        ),
        marks=tuple(_mark(d, players, viewer_id) for d in review.marks) if ready else (),
        marks_ready=ready,
        seed=bytes(hand.seed).hex(),
        result=state.result if over else None,
        staff_void=bool((hand.result or {}).get("staff")),
        left_void=bool((hand.result or {}).get("left")),
    )
