"""Follows and friends: a player follows another from their profile or a table, with no request
and no answer; two players who follow each other are friends, and friends see each other online
and invite each other to a seat (games.social.presence, games.social.invites).

A block (games.social.blocks) undoes friendship either way, whatever follows remain: the blocker's
own follow of the blocked player goes, and the blocked player's follow of the blocker is kept and
counts for nothing. Keeping it is what keeps the block secret: their "Following" on the blocker's
profile must not turn back to "Follow" when the blocker blocks them.
"""

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext_lazy as _

from accounts.allowances import allowance_spend
from games.errors import ServiceError
from games.models import Block, Follow
from games.sanctions import suspension_refusal
from games.table.guests import guest_refuse

# Follows one account may make in an hour, and how many it may hold: a player follows the people
# they played with; a script that follows everyone to watch who comes online is stopped.
FOLLOWS_PER_HOUR = 30
FOLLOWS_MAX = 500


def other_check(user, other_id) -> None:
    """Refuse a visitor, a guest, an id that is no id, and oneself: what every act on another
    player checks first (follow, block, report)."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise ServiceError("not_signed_in", _("Sign in first."))
    guest_refuse(user)
    if isinstance(other_id, bool) or not isinstance(other_id, int):
        raise ServiceError("no_player", _("There is no such player."))
    if other_id == user.pk:
        raise ServiceError("self", _("You cannot do that to yourself."))


def follow_add(*, user, other_id) -> bool:
    """``user`` follows ``other_id``; True if the follow is new."""
    other_check(user, other_id)
    refusal = suspension_refusal(user)
    if refusal is not None:
        raise refusal
    other = get_user_model().objects.filter(pk=other_id, is_active=True).first()
    if other is None or hasattr(other, "guest"):
        raise ServiceError("no_player", _("There is no such player."))
    if Block.objects.filter(blocker=user, blocked=other).exists():
        # the blocker knows their own block; only the other way round is secret
        raise ServiceError("you_blocked", _("You blocked this player: unblock them first."))
    if Follow.objects.filter(follower=user, followed=other).exists():
        return False
    if Follow.objects.filter(follower=user).count() >= FOLLOWS_MAX:
        raise ServiceError("follows_many", _("You follow as many players as you can."))
    if not allowance_spend(f"follow:{user.pk}", FOLLOWS_PER_HOUR, 3600):
        raise ServiceError(
            "follows_fast", _("You have followed many players this hour; wait a while.")
        )
    try:
        with transaction.atomic():
            Follow.objects.create(follower=user, followed=other)
    except IntegrityError:  # the same follow from another tab at the same moment
        return False
    return True


def follow_remove(*, user, other_id) -> bool:
    other_check(user, other_id)
    deleted, _counts = Follow.objects.filter(follower=user, followed_id=other_id).delete()
    return bool(deleted)


def friends_of(user_id: int):
    """The users who are ``user_id``'s friends: each follows the other and neither blocked the
    other. A queryset of users."""
    users = get_user_model().objects.filter(is_active=True)
    return users.filter(
        Exists(Follow.objects.filter(follower_id=user_id, followed=OuterRef("pk"))),
        Exists(Follow.objects.filter(follower=OuterRef("pk"), followed_id=user_id)),
    ).exclude(
        Exists(Block.objects.filter(blocker_id=user_id, blocked=OuterRef("pk")))
        | Exists(Block.objects.filter(blocker=OuterRef("pk"), blocked_id=user_id))
    )


def friend_ids(user_id: int) -> set[int]:
    return set(friends_of(user_id).values_list("pk", flat=True))


def are_friends(a_id: int, b_id: int) -> bool:
    return friends_of(a_id).filter(pk=b_id).exists()


def relation_read(viewer, other_id: int) -> dict:
    """What ``viewer``'s controls on ``other_id``'s profile show: whether they follow, are
    followed back (friends), and have blocked them. Never whether ``other_id`` blocked them."""
    if viewer is None or not getattr(viewer, "is_authenticated", False) or viewer.pk == other_id:
        return {}
    following = Follow.objects.filter(follower=viewer, followed_id=other_id).exists()
    blocking = Block.objects.filter(blocker=viewer, blocked_id=other_id).exists()
    return {
        "following": following,
        "blocking": blocking,
        "friends": following and not blocking and are_friends(viewer.pk, other_id),
    }
