"""Sitting down, standing up, and coming back: a person's seat at a table."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.models import Table
from games.sanctions import suspension_refusal
from games.table.changes import table_bump, table_lock, version_check
from games.table.create import game_running_check
from games.table.deadlines import deadline_arm
from games.table.guests import guest_refuse
from games.table.lifecycle import game_stop
from games.table.reservations import seat_refusal


def _signed_in(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def seat_take(*, table_id, user, index, expected_version=None) -> int:
    """Sit ``user`` at seat ``index`` (0-based); moves them if they sat elsewhere at this table."""
    if not _signed_in(user):
        raise ServiceError("not_signed_in", _("Sign in to take a seat."))
    refusal = suspension_refusal(user)
    if refusal is not None:
        raise refusal
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
        if not table.seats.filter(user=user).exists():  # a move between seats is not a new game
            game_running_check(user, table)
        table.seats.filter(user=user).update(user=None)
        seat.user = user
        seat.save(update_fields=["user"])
        return table_bump(game, lobby=True)


def seat_leave(*, table_id, user) -> int:
    """Stand up before the game starts; leaving during the countdown stops the countdown.
    Leaving while the game runs gives the game up (``_game_leave``)."""
    with transaction.atomic():
        game, table = table_lock(table_id)
        seat = table.seats.filter(user=user).first() if _signed_in(user) else None
        if seat is None:
            raise ServiceError("not_seated", _("You are not sitting at this table."))
        if table.status == Table.Status.PLAYING:
            return _game_leave(game, table, seat, user)
        if table.status not in (Table.Status.OPEN, Table.Status.STARTING):
            raise ServiceError("game_over", _("The game at this table is over."))
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


def seat_vacate_playing(table: Table, seat) -> str:
    """Free a person's seat at a game under way (the caller holds the table's lock, saves the
    seat and bumps the version): a bot plays it on if the table lets bots fill seats, else it is
    away and the turn timeouts play for it. Who plays it now: "bot" or "timeouts"."""
    seat.user, seat.timeouts_in_row = None, 0
    if table.policy.bots_fill:
        seat.is_bot, seat.away = True, False
        return "bot"
    seat.away = True
    return "timeouts"


def seat_give_up(*, table_id, user) -> str:
    """``user`` gives up their seat at a game under way for good (they deleted their account):
    it counts as leaving the game (``_game_leave``). Who plays the seat now."""
    with transaction.atomic():
        game, table = table_lock(table_id)
        seat = table.seats.filter(user=user).first() if _signed_in(user) else None
        if seat is None:
            raise ServiceError("not_seated", _("You are not sitting at this table."))
        if table.status != Table.Status.PLAYING:
            raise ServiceError("not_playing", _("The game at this table is not under way."))
        _game_leave(game, table, seat, user)
        return "bot" if seat.is_bot else "timeouts"


def _game_leave(game, table, seat, user) -> int:
    """The player gives the running game up (docs/rules.md, "Leaving a rated game"): the seat is
    played on as when staff remove a player (a bot if the table allows bots, else the timeouts at
    once), and the game's results rate the leaver as its loser (``Seat.left_by``,
    games.table.results). When nobody is left but bots, the game ends now, over the hands
    played so far: an account must not keep games of bots running by walking away from them."""
    seat.left_by = user
    seat_vacate_playing(table, seat)
    seat.save(update_fields=["user", "left_by", "is_bot", "away", "timeouts_in_row"])
    if not table.seats.filter(user__isnull=False).exists():
        game_stop(game, table, timezone.now())
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
