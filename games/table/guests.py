"""What a guest (accounts.guests) may not do at the tables: play anything rated, sit at someone
else's table, make an invite-only table, chat or invite. A guest plays the first hand and
practice games against bots at their own tables; signing up lifts every limit."""

from django.utils.translation import gettext_lazy as _

from accounts.models import guest_is
from games.errors import ServiceError


def guest_refuse(user) -> None:
    """Refuse ``user`` if they are a guest."""
    if guest_is(user):
        raise ServiceError(
            "guest_not_allowed",
            _("Guests play practice games against bots: sign up to do this."),
        )


def guest_table_check(user, policy) -> None:
    """A guest's new table must be a practice game (not rated) that the lobby may list, or
    their first hand (a lesson: the lobby does not list it, and nobody else may sit there)."""
    if (policy.private and not policy.lesson) or not policy.practice:
        guest_refuse(user)
