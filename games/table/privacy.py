"""Who may see a private table at all: its page, its socket, its chat and its hands' checks.

A private table is not only left out of the lobby: to anyone but its manager, the people seated
at it and the people invited to it (a live invite to their address, or one they accepted) it
does not exist, whatever its id. Read by the views, the socket and the chat service alike.
"""

from django.db.models import Q

from games.models import Invite, Table


def table_open_to(table: Table, user) -> bool:
    if not table.private:
        return True
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.pk == table.manager_id or table.seats.filter(user=user).exists():
        return True
    invited = Q(accepted_by=user)
    if user.email:
        invited |= Q(status=Invite.Status.SENT, email__iexact=user.email)
    return table.invites.filter(invited).exists()
