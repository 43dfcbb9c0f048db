"""The reviews' Celery task, served by its own worker at a lower CPU priority than live play."""

import logging

from celery import shared_task

from games.review.services import hand_review_make

logger = logging.getLogger(__name__)


@shared_task(name="games.tasks.hand_review_task")
def hand_review_task(hand_id: int) -> bool:
    """Work out a finished hand's review (games.review.services); nothing if it has one."""
    return hand_review_make(hand_id=hand_id) is not None
