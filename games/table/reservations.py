"""A table's invites as the table sees them: the seats that live invites keep for someone (who
may sit where, which seats show as reserved) and the manager's invite panel on the table page.
Sending, resending and accepting invites is the invites room's (games.invites)."""

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.models import Invite, Seat, Table
from games.names import player_name
from games.variants import variant_for

INVITE_HOURS_DEFAULT = 48


def invite_hours() -> int:
    return int(getattr(settings, "OKEY_INVITE_HOURS", INVITE_HOURS_DEFAULT))


def invites_live(table: Table):
    return table.invites.filter(status=Invite.Status.SENT, expires_at__gt=timezone.now())


def seats_reserved(table: Table) -> dict[int, Invite]:
    """Seat index -> the live invite that reserves it."""
    return {i.seat_index: i for i in invites_live(table)}


def seats_open(table: Table):
    """The seats nobody holds and no live invite keeps, lowest first (a queryset)."""
    free = table.seats.filter(user__isnull=True, is_bot=False)
    return free.exclude(index__in=list(seats_reserved(table))).order_by("index")


def seat_refusal(table: Table, seat: Seat, user) -> ServiceError | None:
    """Why ``user`` may not take the free ``seat`` by sitting down (not through an invite)."""
    if seat.index in seats_reserved(table):
        return ServiceError("seat_reserved", _("That seat is reserved for an invited player."))
    if table.private and user.pk != table.manager_id:
        return ServiceError(
            "private", _("This table is private: only invited players may sit down.")
        )
    return None


def reserved_refusal(table: Table) -> ServiceError | None:
    """Why the game cannot start yet: a seat that an invite keeps is still empty."""
    waiting = sorted(
        i for i in seats_reserved(table) if table.seats.filter(index=i, user__isnull=True).exists()
    )
    if not waiting:
        return None
    return ServiceError(
        "seat_invited",
        _("Seat %(n)d is kept for an invited player: wait for them or cancel the invite.")
        % {"n": waiting[0] + 1},
    )


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
    if table.status in (Table.Status.FINISHED, Table.Status.CLOSED):
        return None  # nobody to invite, no team to name: the card only took room
    open_ = table.status == Table.Status.OPEN
    manager_seat = next((s["index"] for s in seats if s.get("is_manager")), None)
    teams = variant_for(table).teams  # partners: the manager invites theirs and opponents
    choices = []
    for s in seats:
        if not s["empty"] or s.get("reserved"):
            continue
        label = gettext("seat %(n)d") % {"n": s["number"]}
        if teams and manager_seat is not None:
            if s["index"] == (manager_seat + 2) % 4:
                label = gettext("seat %(n)d (your partner)") % {"n": s["number"]}
            else:
                label = gettext("seat %(n)d (an opponent)") % {"n": s["number"]}
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
    if not rows and (not choices or not open_) and (not teams or manager_seat is None):
        # a table of bots, every seat taken without an invite, or a game under way that never
        # had one (quick play starts at once): nothing to invite to or name
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
