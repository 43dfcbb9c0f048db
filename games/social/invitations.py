"""A friend's invitation to a seat, in one click: the seat is reserved by an invite as an
e-mailed one is (games.invites: the seat is kept, a private table opens to the friend, the link
works once), and the link reaches the friend on whatever page they have open
(games.social.notices), or by e-mail when they have none open."""

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from accounts.allowances import allowance_spend
from games.errors import ServiceError
from games.invites.services import invite_create
from games.models import Invite, Table
from games.sanctions import suspension_refusal
from games.social.follows import are_friends
from games.social.notices import invitation_notice_publish
from games.social.presence import presence_online
from games.table.reservations import seats_open

# Invitations to one friend a minute: a click again and again must not flood their page (the
# invites' own limit, 20 an hour for each manager, counts these too).
INVITATIONS_PER_FRIEND_MINUTE = 2


def friend_invite(*, inviter, friend_id, table_id, seat_index=None, base=None) -> Invite:
    """Reserve a seat at ``inviter``'s table ``table_id`` for their friend ``friend_id``: the
    seat ``seat_index``, else the first one free."""
    if inviter is None or not getattr(inviter, "is_authenticated", False):
        raise ServiceError("not_signed_in", _("Sign in to invite players."))
    refusal = suspension_refusal(inviter)
    if refusal is not None:
        raise refusal
    if isinstance(friend_id, bool) or not isinstance(friend_id, int):
        raise ServiceError("no_player", _("There is no such player."))
    # one answer for a stranger, a one-way follow and a block either way: a blocked player
    # learns nothing from it that a stranger would not
    friend = get_user_model().objects.filter(pk=friend_id, is_active=True).first()
    if friend is None or friend.pk == inviter.pk or not are_friends(inviter.pk, friend.pk):
        raise ServiceError(
            "not_friends", _("You can invite only friends: players who follow you back.")
        )
    if not friend.email:
        raise ServiceError("no_address", _("This player cannot be invited: ask them to sit down."))
    if seat_index is None:
        seat_index = _seat_free(table_id)
    if not allowance_spend(
        f"invitation:{inviter.pk}:{friend.pk}", INVITATIONS_PER_FRIEND_MINUTE, 60
    ):
        raise ServiceError(
            "invitation_fast", _("You have just invited this friend; give them a minute.")
        )
    online = friend.pk in presence_online([friend.pk])
    return invite_create(
        table_id=table_id,
        inviter=inviter,
        email=friend.email,
        seat_index=seat_index,
        base=base,
        deliver=(lambda invite, token: invitation_notice_publish(invite, token, friend.pk))
        if online
        else None,
    )


def _seat_free(table_id) -> int:
    table = Table.objects.filter(pk=table_id).first() if isinstance(table_id, int) else None
    if table is None:
        raise ServiceError("no_table", _("There is no such table."))
    seat = seats_open(table).first()
    if seat is None:
        raise ServiceError(
            "table_full", _("Every seat at this table is taken or reserved already.")
        )
    return seat.index
