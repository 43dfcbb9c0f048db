"""What a player's profile shows of their games: the one interface through which accounts reads
games. Frozen views in the active language; imports no service."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.utils.translation import gettext as _

from games.labels import finish_label, mode_label
from games.models import Hand, Move, PlayerResult, Seat
from games.review.services import hand_reviews_ask
from games.sanctions import sanction_active
from games.social.follows import relation_read

RECENT_GAMES = 10
RECENT_HANDS = 10


@dataclass(frozen=True)
class RecentGame:
    ended: datetime
    mode_label: str
    place: int
    players: int
    outcome: str | None  # Eşli: won, lost or draw (says more than a place)
    points: int
    count: int
    table_id: int


@dataclass(frozen=True)
class RecentHand:
    table_id: int
    number: int
    ended: datetime
    mode_label: str
    outcome: str  # "won": they finished; "lost": another did; "void"
    finish: str  # how it was finished, in words ("" for a void hand)
    moments: int | None  # the review's marks on their moves; None until the review is made


def recent_games(user) -> tuple[RecentGame, ...]:
    results = PlayerResult.objects.filter(user=user).select_related("game__table")
    out = []
    for r in results[:RECENT_GAMES]:
        table = r.game.table
        teams = (r.game.results or {}).get("teams")
        outcome = None
        if teams:
            mine, theirs = teams[r.seat % 2], teams[1 - r.seat % 2]
            outcome = _("won") if mine < theirs else _("lost") if mine > theirs else _("draw")
        out.append(
            RecentGame(
                ended=r.ended,
                mode_label=mode_label(table.mode),
                place=r.place,
                players=table.seat_count,
                outcome=outcome,
                points=r.points,
                count=r.count,
                table_id=table.pk,
            )
        )
    return tuple(out)


def _review_current(hand: Hand) -> bool:
    review = getattr(hand, "review", None)
    return review is not None and review.current


def recent_hands(user, viewer) -> tuple[RecentHand, ...]:
    """The last hands ``user`` played, newest first, each with a link to its review. Another
    viewer is shown only the hands of public tables: a private table's reviews are not theirs
    to open."""
    played = Q(pk__in=Move.objects.filter(user=user).values("hand")) | Q(
        game__table__in=Seat.objects.filter(user=user).values("table")
    )
    hands = Hand.objects.filter(played, over=True)
    if viewer is None or viewer.pk != user.pk:
        hands = hands.exclude(game__table__options__private=True)
    hands = list(
        hands.select_related("game__table", "review").order_by("-ended", "-id")[:RECENT_HANDS]
    )
    # the list links each review: on the player's own profile the ones not made yet are asked
    # for now, made by the reviews' worker, and counted here from the next visit on. Another
    # viewer's visits ask for nothing: reloading someone's profile must not fill the queue.
    if viewer is not None and viewer.pk == user.pk:
        hand_reviews_ask(h.pk for h in hands if not _review_current(h))
    seat_of = dict(Seat.objects.filter(user=user).values_list("table_id", "index"))
    by_move = dict(
        Move.objects.filter(user=user, hand__in=hands)
        .order_by()
        .values_list("hand_id", "seat")
        .distinct()
    )
    out = []
    for hand in hands:
        seat = by_move.get(hand.pk, seat_of.get(hand.game.table_id))
        result = hand.result or {}
        if result.get("void"):
            outcome = "void"
        else:
            outcome = "won" if result.get("finisher") == seat else "lost"
        # no review yet, or one of an older meaning of its marks: not a count of 0, but "not yet
        # reviewed" until it is made (again)
        marks = hand.review.marks if _review_current(hand) else None
        out.append(
            RecentHand(
                table_id=hand.game.table_id,
                number=hand.number,
                ended=hand.ended,
                mode_label=mode_label(hand.game.table.mode),
                outcome=outcome,
                finish=finish_label(result.get("kind")),
                moments=None
                if marks is None
                else sum(1 for m in marks if m.get("user") == user.pk),
            )
        )
    return tuple(out)


def player_relation(viewer, user) -> dict:
    """What the follow, block and report controls on ``user``'s profile show ``viewer``: whether
    they follow, are friends, blocked them (never whether ``user`` blocked ``viewer``). Empty for
    a visitor, a guest, or the player's own profile."""
    if viewer is None or not viewer.is_authenticated or hasattr(viewer, "guest"):
        return {}
    return relation_read(viewer, user.pk)


def sanctions_in_force(user) -> list:
    """The chat mute and suspension on ``user`` now, for their own profile: what and until."""
    return [s for s in (sanction_active(user, k) for k in ("suspend", "mute")) if s is not None]
