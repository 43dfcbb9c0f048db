"""Sitting down, standing up, and coming back: a person's seat at a table."""

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.models import Table
from games.table.changes import table_bump, table_lock, version_check
from games.table.deadlines import deadline_arm
from games.table.guests import guest_refuse
from games.table.invites import seat_refusal


def _signed_in(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def seat_take(*, table_id, user, index, expected_version=None) -> int:
    """Sit ``user`` at seat ``index`` (0-based); moves them if they sat elsewhere at this table."""
    if not _signed_in(user):
        raise ServiceError("not_signed_in", _("Sign in to take a seat."))
    with transaction.atomic():
        game, table = table_lock(table_id)
        version_check(game, expected_version)
        if table.status != Table.Status.OPEN:
            raise ServiceError("not_open", _("This table is no longer taking players."))
        if isinstance(index, bool) or not isinstance(index, int):
            raise ServiceError("no_seat", _("There is no such seat at this table."))
        seat = table.seats.filter(index=index).first()
        if seat is None:
            raise ServiceError("no_seat", _("There is no such seat at this table."))
        if seat.user_id == user.pk:
            return game.version
        if table.manager_id != user.pk:
            guest_refuse(user)  # a guest plays only at their own practice tables
        if seat.user_id is not None or seat.is_bot:
            raise ServiceError("seat_taken", _("That seat is taken."))
        refusal = seat_refusal(table, seat, user)
        if refusal is not None:
            raise refusal
        table.seats.filter(user=user).update(user=None)
        seat.user = user
        seat.save(update_fields=["user"])
        return table_bump(game, lobby=True)


def seat_leave(*, table_id, user) -> int:
    """Stand up before the game starts; leaving during the countdown stops the countdown."""
    with transaction.atomic():
        game, table = table_lock(table_id)
        seat = table.seats.filter(user=user).first() if _signed_in(user) else None
        if seat is None:
            raise ServiceError("not_seated", _("You are not sitting at this table."))
        if table.status not in (Table.Status.OPEN, Table.Status.STARTING):
            raise ServiceError("game_on", _("The game is on: you cannot leave your seat now."))
        seat.user = None
        people_left = table.seats.filter(user__isnull=False).exclude(pk=seat.pk).exists()
        if table.status == Table.Status.STARTING:
            # During the countdown a bot takes the seat when the table lets bots fill seats,
            # and the game starts on time; otherwise the start is called off.
            if people_left and table.policy.bots_fill:
                seat.is_bot = True
            else:
                table.status, table.start_at = Table.Status.OPEN, None
        seat.save(update_fields=["user", "is_bot"])
        if not people_left:
            table.status, table.start_at = Table.Status.CLOSED, None
        table.save(update_fields=["status", "start_at"])
        return table_bump(game, lobby=True)


def deadline_rearm(table_id) -> None:
    """Work the table's deadline out again and send its task, without a visible change (after
    its times were changed by hand: an operator, a test). Tasks already sent stay harmless."""
    with transaction.atomic():
        game, _ = table_lock(table_id)
        deadline_arm(game)
        game.save(update_fields=["deadline"])


def seat_back(*, table_id, user) -> int:
    """The player says they are back: their seat is no longer away. The table's version."""
    with transaction.atomic():
        game, table = table_lock(table_id)
        seat = None
        if user is not None and getattr(user, "is_authenticated", False):
            seat = table.seats.filter(user=user).first()
        if seat is None:
            raise ServiceError("not_seated", _("You are not sitting at this table."))
        if not seat.away and not seat.timeouts_in_row:
            return game.version
        seat.away, seat.timeouts_in_row = False, 0
        seat.save(update_fields=["away", "timeouts_in_row"])
        return table_bump(game)
