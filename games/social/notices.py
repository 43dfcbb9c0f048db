"""What reaches a player on whatever page they have open, through their notices group (every
page's player socket joins it, games.social.socket): staff's sanctions, a friend's invitation to a
seat, a friend coming online or going. Each is rendered here once per language and sent to the
group; the socket sends its own page's language."""

from django.template.loader import render_to_string
from django.utils import timezone

from games.models import Sanction
from games.names import player_name
from games.table.publish import messages_send
from games.table.render import in_every_language

TEMPLATE = "social/notices.html"


def notice_group(user_id: int) -> str:
    return f"notices.{user_id}"


def _notice(user_ids, partial: str, context: dict) -> None:
    html = in_every_language(lambda: render_to_string(f"{TEMPLATE}#{partial}", context))
    messages_send([(notice_group(u), {"type": "notice", "html": html}) for u in user_ids])


def sanction_context(sanction: Sanction) -> dict:
    return {
        "kind": sanction.kind,
        "reason": sanction.reason,
        "until": timezone.localtime(sanction.until) if sanction.until else None,
        "id": sanction.pk,
    }


def sanction_notice_publish(sanction: Sanction) -> None:
    """Tell the player at once, on every page they have open, what staff did and why."""
    _notice([sanction.user_id], "sanction", {"s": sanction_context(sanction)})


def sanctions_unseen(user) -> list[dict]:
    """The sanctions ``user`` has not been shown yet (given while they were away), marked seen:
    their next page's socket shows them."""
    unseen = list(Sanction.objects.filter(user=user, seen__isnull=True, lifted__isnull=True))
    if unseen:
        Sanction.objects.filter(pk__in=[s.pk for s in unseen]).update(seen=timezone.now())
    now = timezone.now()
    return [sanction_context(s) for s in unseen if s.until is None or s.until > now]


def presence_notice_publish(friend_ids, user, online: bool) -> None:
    """``user`` came online or went: their friends' pages update the friend's line (the friends
    page) and announce it."""
    if not friend_ids:
        return
    _notice(
        sorted(friend_ids),
        "presence",
        {"friend": {"id": user.pk, "name": player_name(user), "online": online}},
    )


def invitation_notice_publish(invite, token: str, friend_id: int) -> None:
    """A friend's one-click invitation to a seat, shown on whatever page the friend has open."""
    table = invite.table
    context = {
        "token": token,
        "inviter": player_name(invite.inviter),
        "table_id": table.pk,
        "seat_number": invite.seat_index + 1,
        "mode": table.mode,
        "invite_id": invite.pk,
    }
    _notice([friend_id], "invitation", context)
