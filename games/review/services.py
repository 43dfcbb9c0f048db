"""A finished hand's review: the moments that matter (games.engine.hand_marks), worked out once.

Only when someone asks for it: most reviews are never opened, and judging every discard with
the hard bot cost about a quarter of a core at saturation when every hand's end queued one. The
review page makes it in its request (``hand_review_make``: a hand of 60 moves is judged well
within the 2 s a player may wait); the player's own list of recent hands, which shows how many
moments each review has, asks the reviews' worker for the ones it lists that have none yet
(``hand_reviews_ask``). Making one is idempotent: a repeated ask does nothing. A review stored
with another meaning of its marks (engine.MARKS_VERSION) is made again, in place.

Who is judged comes from each move as it was played: a move its player made (a user, not
``auto``) is theirs; a bot's move and a move the timer played for someone are nobody's to
answer for. Each mark keeps the user of the move it is about, for the page to say "you".
"""

import logging

from celery import current_app

from games import engine
from games.models import Hand, HandReview
from games.variants import variant_for

logger = logging.getLogger(__name__)


def mark_to_dict(mark: engine.Mark, user_id: int | None) -> dict:
    fmt = engine.format_tile
    out = {"seq": mark.seq, "seat": mark.seat, "kind": mark.kind, "tile": fmt(mark.tile)}
    out["user"] = user_id  # who made the move it is about (None: a bot or the timer)
    if mark.finish is not None:
        out["finish"] = mark.finish
    if mark.played is not None:
        out.update(played=fmt(mark.played), kept=mark.kept, kept_played=mark.kept_played)
        out.update(reason=mark.reason, draws=mark.draws, draws_played=mark.draws_played)
    if mark.wanted is not None:
        out["wanted"] = fmt(mark.wanted)
    if mark.taken is not None:
        out.update(taken=mark.taken, finished=mark.finished)
    return out


def hand_review_make(*, hand_id: int) -> HandReview | None:
    """The review of a finished hand, made and stored if it has none yet (or one of another
    MARKS_VERSION); None for a hand that is not over (or does not exist): its racks are still
    secret."""
    hand = Hand.objects.select_related("game__table").filter(pk=hand_id).first()
    if hand is None or not hand.over or not variant_for(hand.game.table).review:
        return None
    found = HandReview.objects.filter(hand=hand).first()
    if found is not None and found.current:
        return found
    options = engine.hand_from_dict(hand.state).options
    dealt = engine.deal(bytes(hand.seed), options, hand.first_seat)
    rows = list(hand.moves.order_by("seq"))
    moves = [engine.move_from_dict(m.as_engine_dict()) for m in rows]
    # the judging bot speaks to people about their own moves
    # (the engine numbers the moves from 1 in log order, as the rows' seq does)
    judged = [i for i, m in enumerate(rows, start=1) if m.user_id is not None and not m.auto]
    user_of = {i: m.user_id for i, m in enumerate(rows, start=1)}
    strength = engine.JUDGE_STRENGTH
    marks = engine.hand_marks(dealt, moves, judged=judged, strength=strength)
    fields = {
        "marks": [mark_to_dict(m, user_of.get(m.seq)) for m in marks],
        "strength": strength,
        "version": engine.MARKS_VERSION,
    }
    if found is not None:
        HandReview.objects.filter(pk=found.pk).update(**fields)
        found.refresh_from_db()
        return found
    review, _ = HandReview.objects.get_or_create(hand=hand, defaults=fields)
    return review


# The reviews' Celery task (games.review.tasks), by its pinned name: it calls hand_review_make.
REVIEW_TASK = "games.tasks.hand_review_task"


def hand_reviews_ask(hand_ids) -> None:
    """Ask the reviews' worker for the reviews of these finished hands, which have none yet.
    Never raises: a review not made now is made when its page is opened. Eager Celery (tests)
    sends none: run in place, they would make every listed review inside the list's request."""
    if current_app.conf.task_always_eager:
        return
    for hand_id in hand_ids:
        try:
            current_app.send_task(REVIEW_TASK, args=(hand_id,))
        except Exception:  # the broker is down: the page makes the review when opened
            logger.exception("could not ask for the review of hand %s", hand_id)
