"""A finished hand's review: the moments that matter (games.engine.hand_marks), worked out once.

``hand_end`` queues the work after its transaction commits, through the sender that games.apps
plugs in (the Celery task games.tasks.hand_review_task): the move that ended the hand does not
wait for the judging bot. ``hand_review_make`` is idempotent, so the review page calls it too
when the task was lost, and a repeated task does nothing.
"""

import logging
from collections.abc import Callable

from django.db import transaction

from games import engine
from games.models import Hand, HandReview

logger = logging.getLogger(__name__)

_sender: list[Callable[[int], None]] = []  # the one sender, once games.apps has set it


def review_sender_set(send: Callable[[int], None]) -> None:
    """Plug in the function that sends a review's task (games.apps, at start-up)."""
    _sender[:] = [send]


def hand_review_queue(hand_id: int) -> None:
    """Once the caller's transaction commits, send the task that makes the hand's review. Never
    raises: a review not made then is made when someone opens it."""

    def send():
        if not _sender:
            logger.error("no review sender: the review of hand %s waits for its page", hand_id)
            return
        try:
            _sender[0](hand_id)
        except Exception:  # the broker is down: the page makes the review when opened
            logger.exception("could not send the review of hand %s", hand_id)

    transaction.on_commit(send)


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
