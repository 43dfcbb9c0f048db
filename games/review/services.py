"""A finished hand's review: the moments that matter (games.engine.hand_marks), worked out once.

Only when someone asks for it: most reviews are never opened, and judging every discard with
the hard bot cost about a quarter of a core at saturation when every hand's end queued one. The
review page makes it in its request (``hand_review_make``: a hand of 60 moves is judged well
within the 2 s a player may wait); the player's own list of recent hands, which shows how many
moments each review has, asks the reviews' worker for the ones it lists that have none yet
(``hand_reviews_ask``). Making one is idempotent: a repeated ask does nothing.
"""

import logging

from celery import current_app

from games import engine
from games.models import Hand, HandReview

logger = logging.getLogger(__name__)


def mark_to_dict(mark: engine.Mark) -> dict:
    fmt = engine.format_tile
    out = {"seq": mark.seq, "seat": mark.seat, "kind": mark.kind, "tile": fmt(mark.tile)}
    if mark.finish is not None:
        out["finish"] = mark.finish
    if mark.played is not None:
        out.update(played=fmt(mark.played), kept=mark.kept, kept_played=mark.kept_played)
    if mark.taken is not None:
        out["taken"] = mark.taken
    return out


def hand_review_make(*, hand_id: int) -> HandReview | None:
    """The review of a finished hand, made and stored if it has none yet; None for a hand that
    is not over (or does not exist): its racks are still secret."""
    hand = Hand.objects.select_related("game__table").filter(pk=hand_id).first()
    if hand is None or not hand.over:
        return None
    found = HandReview.objects.filter(hand=hand).first()
    if found is not None:
        return found
    options = engine.hand_from_dict(hand.state).options
    dealt = engine.deal(bytes(hand.seed), options, hand.first_seat)
    moves = [engine.move_from_dict(m.as_engine_dict()) for m in hand.moves.order_by("seq")]
    # the judging bot speaks to people; a bot's own discards are its own choices
    people = hand.game.table.seats.filter(is_bot=False).values_list("index", flat=True)
    strength = engine.JUDGE_STRENGTH
    marks = engine.hand_marks(dealt, moves, judged=people, strength=strength)
    review, _ = HandReview.objects.get_or_create(
        hand=hand, defaults={"marks": [mark_to_dict(m) for m in marks], "strength": strength}
    )
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
