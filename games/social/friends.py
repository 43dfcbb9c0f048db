"""The friends list as one player sees it: each friend, whether they are online, and the table
they sit at when the viewer may see it (never a private table the viewer is not at or invited
to); and the viewer's own table with a free seat, to invite a friend to. Reads only."""

from dataclasses import dataclass

from games.models import Seat, Table
from games.names import player_name
from games.social.follows import friends_of
from games.social.presence import presence_online
from games.table.privacy import table_open_to
from games.table.reservations import seats_open

AT_TABLE = (Table.Status.OPEN, Table.Status.STARTING, Table.Status.PLAYING)


@dataclass(frozen=True)
class FriendLine:
    id: int
    name: str
    online: bool
    table_id: int | None  # where they sit now, if the viewer may see that table
    invited: bool = False


def friends_read(viewer) -> list[FriendLine]:
    friends = list(friends_of(viewer.pk).select_related("profile"))
    online = presence_online([f.pk for f in friends])
    seats = Seat.objects.filter(
        user__in=[f.pk for f in friends], table__status__in=AT_TABLE
    ).select_related("table")
    at: dict[int, int] = {}
    for seat in seats.order_by("-table_id"):
        if seat.user_id not in at and table_open_to(seat.table, viewer):
            at[seat.user_id] = seat.table_id
    lines = [FriendLine(f.pk, player_name(f), f.pk in online, at.get(f.pk)) for f in friends]
    return sorted(lines, key=lambda line: (not line.online, line.name.casefold()))


def invite_table(viewer) -> Table | None:
    """The table ``viewer`` manages that still takes players and has a seat free to invite to."""
    for table in Table.objects.filter(manager=viewer, status=Table.Status.OPEN).order_by("-pk"):
        if seats_open(table).exists():
            return table
    return None
