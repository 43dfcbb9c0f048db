"""Eşli: the names the table manager gives the two teams (seats 1 & 3 and seats 2 & 4)."""

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.models import Table

from .errors import ServiceError
from .tables import table_bump, table_lock

TEAM_NAME_MAX = 30


def _name_clean(value) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ServiceError("bad_team_name", _("A team name must be text."))
    name = " ".join(value.split())
    if len(name) > TEAM_NAME_MAX:
        raise ServiceError(
            "bad_team_name",
            _("A team name may be at most %(n)d characters.") % {"n": TEAM_NAME_MAX},
        )
    return name


def team_names_set(*, table_id, user, team_a, team_b) -> int:
    """Name the teams; a blank name goes back to the default (the partners' names)."""
    a, b = _name_clean(team_a), _name_clean(team_b)
    if a and b and a.casefold() == b.casefold():
        raise ServiceError("same_team_names", _("Give the two teams different names."))
    with transaction.atomic():
        game, table = table_lock(table_id)
        if user is None or not user.is_authenticated or user.pk != table.manager_id:
            raise ServiceError("not_manager", _("Only the table manager can name the teams."))
        if table.mode != "esli":
            raise ServiceError("not_esli", _("Only Eşli tables have teams."))
        if table.status in (Table.Status.FINISHED, Table.Status.CLOSED):
            raise ServiceError("table_over", _("The game at this table is over."))
        table.team_a_name, table.team_b_name = a, b
        table.save(update_fields=["team_a_name", "team_b_name"])
        return table_bump(game)
