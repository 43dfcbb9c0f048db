"""Blocks: a player blocks another. The blocked player's chat and invitations do not reach the
blocker; quick play and tournaments never seat the two together; the blocked player cannot
follow the blocker or see whether the blocker is online. Nobody but the blocker is told: every
refusal a block causes reads like one the blocked player would get anyway.

``blocked_pairs`` and ``user_is_suspended`` are the room's public answers for the rooms that
seat players (the lobby's quick play, the arena's pairings)."""

from functools import partial

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.allowances import allowance_spend
from games.errors import ServiceError
from games.models import Block, Follow
from games.sanctions import user_is_suspended
from games.social.follows import other_check
from games.table.chat import chat_hide_publish

__all__ = [
    "block_add",
    "block_remove",
    "blocked_pairs",
    "blocks_between",
    "blocked_ids",
    "user_is_suspended",
]

# Blocks one account may make in a day: enough for anyone who is harassed, and a ceiling on a
# script that would block every player to learn who had blocked it (nothing tells it, but rows
# cost).
BLOCKS_PER_DAY = 100
BLOCKS_MAX = 1000


def blocked_pairs(user_ids) -> set[frozenset[int]]:
    """Every pair among ``user_ids`` where either player blocked the other."""
    ids = {int(u) for u in user_ids if u is not None}
    if len(ids) < 2:
        return set()
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list(
        "blocker_id", "blocked_id"
    )
    return {frozenset(pair) for pair in rows}


def blocks_between(a_id: int, b_id: int) -> bool:
    """Whether either of the two blocked the other."""
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def blocked_ids(user_id: int) -> set[int]:
    """The players ``user_id`` blocked."""
    return set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def block_add(*, user, other_id: int) -> bool:
    """``user`` blocks ``other_id``; ``user`` stops following them. True if the block is new.
    Their follow of ``user`` is kept and counts for nothing (games.social.follows says why)."""
    other_check(user, other_id)
    # the account must exist and be live: a deleted one has nothing left to block
    if not get_user_model().objects.filter(pk=other_id, is_active=True).exists():
        raise ServiceError("no_player", _("There is no such player."))
    if Block.objects.filter(blocker=user, blocked_id=other_id).exists():
        return False
    if Block.objects.filter(blocker=user).count() >= BLOCKS_MAX:
        raise ServiceError("blocks_many", _("You have blocked as many players as you can."))
    if not allowance_spend(f"block:{user.pk}", BLOCKS_PER_DAY, 86400):
        raise ServiceError("blocks_fast", _("You have blocked many players today; try tomorrow."))
    try:
        with transaction.atomic():
            Block.objects.create(blocker=user, blocked_id=other_id)
            Follow.objects.filter(follower=user, followed_id=other_id).delete()
            transaction.on_commit(partial(chat_hide_publish, user.pk, other_id))
    except IntegrityError:  # the same block from another tab at the same moment
        return False
    return True


def block_remove(*, user, other_id: int) -> bool:
    """``user`` unblocks ``other_id``; True if there was a block."""
    other_check(user, other_id)
    deleted, _counts = Block.objects.filter(blocker=user, blocked_id=other_id).delete()
    return bool(deleted)
