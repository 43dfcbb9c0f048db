"""Seats that live invites keep for someone: read alike by the services (who may sit where)
and by the pages (which seats show as reserved)."""

from django.conf import settings
from django.utils import timezone

from games.models import Invite, Table

INVITE_HOURS_DEFAULT = 48


def invite_hours() -> int:
    return int(getattr(settings, "OKEY_INVITE_HOURS", INVITE_HOURS_DEFAULT))


def invites_live(table: Table):
    return table.invites.filter(status=Invite.Status.SENT, expires_at__gt=timezone.now())


def seats_reserved(table: Table) -> dict[int, Invite]:
    """Seat index -> the live invite that reserves it."""
    return {i.seat_index: i for i in invites_live(table)}
