"""What the lobby shows: the public tables people can join or watch, and "my tables" (where a
manager finds a private table that the lobby does not list)."""

from django.db.models import Q
from django.utils import timezone

from games.models import Invite, Table
from games.names import player_name


def lobby_tables(user) -> list[dict]:
    """Tables people can join or watch: public ones that are not over, newest first."""
    tables = (
        Table.objects.filter(
            status__in=[Table.Status.OPEN, Table.Status.STARTING, Table.Status.PLAYING],
            options__private=False,
        )
        .select_related("manager")
        .prefetch_related("seats__user__profile")
        .order_by("-created")[:100]
    )
    uid = user.pk if user is not None and user.is_authenticated else None
    reserved = _reserved_by_table(tables)
    out = []
    for t in tables:
        seats = sorted(t.seats.all(), key=lambda s: s.index)
        out.append(
            {
                "table": t,
                "id": t.pk,
                "mode": t.mode,
                "options": t.options,
                "status": t.status,
                "status_label": t.get_status_display(),
                "taken": sum(1 for s in seats if s.user_id or s.is_bot),
                "seats": [
                    {
                        "index": s.index,
                        "number": s.index + 1,
                        "name": player_name(s.user) if s.user_id else "",
                        "bot": s.is_bot,
                        "free": s.user_id is None
                        and not s.is_bot
                        and (t.pk, s.index) not in reserved,
                        "reserved": (t.pk, s.index) in reserved,
                        "is_you": s.user_id is not None and s.user_id == uid,
                    }
                    for s in seats
                ],
                "seated": any(s.user_id == uid for s in seats if uid),
                "open": t.status == Table.Status.OPEN,
            }
        )
    return out


def _reserved_by_table(tables) -> set[tuple[int, int]]:
    """(table id, seat index) of the seats that live invites keep for someone."""
    ids = [t.pk for t in tables if t.status == Table.Status.OPEN]
    live = Invite.objects.filter(
        table_id__in=ids, status=Invite.Status.SENT, expires_at__gt=timezone.now()
    )
    return set(live.values_list("table_id", "seat_index"))


def my_tables(user) -> list[dict]:
    """Tables that are not over where ``user`` is the manager or sits, private ones included."""
    if user is None or not user.is_authenticated:
        return []
    tables = (
        Table.objects.filter(
            Q(manager=user) | Q(seats__user=user),
            status__in=[Table.Status.OPEN, Table.Status.STARTING, Table.Status.PLAYING],
        )
        .distinct()
        .prefetch_related("seats")
        .order_by("-created")[:20]
    )
    now = timezone.now()
    out = []
    for t in tables:
        seats = list(t.seats.all())
        out.append(
            {
                "id": t.pk,
                "mode": t.mode,  # the template labels it, as the lobby card beside it
                "status_label": t.get_status_display(),
                "private": t.private,
                "is_manager": t.manager_id == user.pk,
                "taken": sum(1 for s in seats if s.user_id or s.is_bot),
                "seats": len(seats),
                "invites_live": t.invites.filter(
                    status=Invite.Status.SENT, expires_at__gt=now
                ).count()
                if t.manager_id == user.pk
                else 0,
            }
        )
    return out
