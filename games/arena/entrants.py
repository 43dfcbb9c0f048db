"""A player joins an arena, pauses (leaves the waiting pool) and comes back."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.allowances import allowance_spend
from games.arena.publish import standings_changed
from games.errors import ServiceError
from games.models import Entrant, Tournament
from games.sanctions import suspension_refusal
from games.table.guests import guest_refuse

# Joins and pauses one account may make per window: each reshapes the pool and sends the
# standings to every page of the tournament.
CHANGES_PER_WINDOW = 12
CHANGE_WINDOW = 60


def _signed_in(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def _allowance(user) -> None:
    if not allowance_spend(f"arena-entrant:{user.pk}", CHANGES_PER_WINDOW, CHANGE_WINDOW):
        raise ServiceError(
            "too_fast", _("You joined and paused many times just now: wait a minute.")
        )


def tournament_lock(tournament_id) -> Tournament:
    """Lock the tournament's row: joins, pauses and its pairing go one at a time."""
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise ServiceError("no_tournament", _("There is no such tournament."))
    return t


def entrant_join(*, tournament_id, user, now=None) -> Entrant:
    """``user`` joins the tournament (before it starts or while it runs), or comes back after a
    pause: they wait in the pool for the next pairing."""
    if not _signed_in(user):
        raise ServiceError("not_signed_in", _("Log in to join the tournament."))
    guest_refuse(user)
    if not user.is_active:
        raise ServiceError("suspended", _("Your account may not play in tournaments."))
    # staff's suspension (games.sanctions) says why and until when, as at the tables
    refusal = suspension_refusal(user)
    if refusal is not None:
        raise refusal
    _allowance(user)
    now = now or timezone.now()
    with transaction.atomic():
        t = tournament_lock(tournament_id)
        if now >= t.ends or t.finished:
            raise ServiceError("over", _("This tournament is over."))
        entrant, made = Entrant.objects.select_for_update().get_or_create(
            tournament=t, user=user, defaults={"waiting_since": now}
        )
        if made:
            transaction.on_commit(lambda: standings_changed(t.pk, user_ids=[user.pk]))
            return entrant
        if entrant.active:
            return entrant
        entrant.active = True
        if entrant.table_id is None:
            entrant.waiting_since = now
        entrant.save(update_fields=["active", "waiting_since"])
        transaction.on_commit(lambda: standings_changed(t.pk, user_ids=[user.pk]))
    return entrant


def entrant_pause(*, tournament_id, user) -> Entrant:
    """``user`` leaves the waiting pool: no new table until they join again. A game they are
    playing goes on, and counts."""
    if not _signed_in(user):
        raise ServiceError("not_signed_in", _("Log in to join the tournament."))
    _allowance(user)
    with transaction.atomic():
        t = tournament_lock(tournament_id)
        entrant = Entrant.objects.select_for_update().filter(tournament=t, user=user).first()
        if entrant is None:
            raise ServiceError("not_entered", _("You have not joined this tournament."))
        if not entrant.active:
            return entrant
        entrant.active, entrant.waiting_since = False, None
        entrant.save(update_fields=["active", "waiting_since"])
        transaction.on_commit(lambda: standings_changed(t.pk, user_ids=[user.pk]))
    return entrant
