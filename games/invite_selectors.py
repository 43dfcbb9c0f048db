"""The read side of invites and private tables: the manager's invite panel, reserved seats,
and "my tables" (where a manager finds a private table that the lobby does not list)."""

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.labels import mode_label
from games.models import Invite, Table
from games.names import player_name
from games.reserved import invite_hours, seats_reserved

INVITES_SHOWN = 30


def invites_read(table: Table) -> list[Invite]:
    """The invites the manager's panel lists, newest first."""
    invites = table.invites.select_related("accepted_by__profile").order_by("-created")
    return list(invites[:INVITES_SHOWN])


def invites_panel(table: Table, user, seats: list[dict], invites=None) -> dict | None:
    """The manager's view of the table's invites; None for anyone else.

    ``seats`` are the selectors' seat rows (with ``reserved`` set); ``invites`` a callable that
    gives what ``invites_read`` gives (a snapshot's, read once for all the manager's views)."""
    if user is None or not user.is_authenticated or user.pk != table.manager_id:
        return None
    open_ = table.status == Table.Status.OPEN
    manager_seat = next((s["index"] for s in seats if s.get("is_manager")), None)
    choices = []
    for s in seats:
        if not s["empty"] or s.get("reserved"):
            continue
        label = _("seat %(n)d") % {"n": s["number"]}
        if table.mode == "esli" and manager_seat is not None:
            if s["index"] == (manager_seat + 2) % 4:
                label = _("seat %(n)d (your partner)") % {"n": s["number"]}
            else:
                label = _("seat %(n)d (an opponent)") % {"n": s["number"]}
        choices.append({"index": s["index"], "label": label})
    rows = []
    for inv in invites() if invites is not None else invites_read(table):
        state = inv.state
        live = state == Invite.Status.SENT
        seat = seats[inv.seat_index] if inv.seat_index < len(seats) else None
        seat_free = seat is not None and seat["empty"]
        rows.append(
            {
                "id": inv.pk,
                "email": inv.email,
                "seat_number": inv.seat_index + 1,
                "state": state,
                "state_label": inv.get_state_display(),
                "sent_at": inv.sent_at,
                "expires_at": inv.expires_at,
                "sends": inv.sends,
                "accepted_by": _name(inv.accepted_by),
                "can_resend": open_
                and state in (Invite.Status.SENT, Invite.Status.EXPIRED)
                and seat_free
                and (live or not seat.get("reserved")),
                "can_cancel": state in (Invite.Status.SENT, Invite.Status.EXPIRED)
                and inv.status != Invite.Status.CANCELLED,
            }
        )
    if not rows and not choices and (table.mode != "esli" or manager_seat is None):
        # a table of bots, or every seat taken without an invite: nothing to invite to or name
        return None
    return {
        "rows": rows,
        "choices": choices,
        "can_invite": open_ and bool(choices),
        "open": open_,
        "hours": invite_hours(),
    }


def _name(user) -> str:
    return player_name(user) if user is not None else ""


def seats_mark_reserved(table: Table, seats: list[dict]) -> None:
    """Mark the seat rows that a live invite keeps for someone (an empty seat to everyone)."""
    reserved = seats_reserved(table) if table.status == Table.Status.OPEN else {}
    for s in seats:
        s["reserved"] = s["empty"] and s["index"] in reserved


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
                "mode_label": mode_label(t.mode),
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
