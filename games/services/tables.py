"""Creating a table, sitting down and leaving; the table's lock and its version.

The manager's Start, the countdown and every later change of the table's status are in
games.services.lifecycle."""

from datetime import timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import broadcast, store
from games.engine import OptionError
from games.events import TableChanged
from games.models import Game, Invite, Seat, Table
from games.policy import options_stored, table_choices

from .deadlines import deadline_arm
from .errors import ServiceError


def _signed_in(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def table_lock(table_id) -> tuple[Game, Table]:
    """Lock the table's Game row, always first, and return it with its table."""
    game = store.game_lock(table_id)
    if game is None:
        raise ServiceError("no_table", _("There is no such table."))
    return game, game.table


def version_check(game: Game, expected_version) -> None:
    if expected_version is not None and expected_version != game.version:
        raise ServiceError(
            "stale",
            _("The table has changed since you last saw it; here it is again."),
        )


def table_version_next(game: Game, *, hand=None, seats=None) -> int:
    """Count one visible change on ``game`` (not saved) and work the table's next action out
    again (``deadline_arm``): pass the current ``hand`` and the table's ``seats`` when the caller
    has them, to spare queries. A move saves the game with its other rows (store.move_save)."""
    game.version += 1
    deadline_arm(game, hand=hand, seats=seats)
    return game.version


def table_bump(game: Game, *, lobby: bool = False, hand=None, seats=None) -> int:
    """Count one visible change and save the game; its pages hear of it once the transaction
    commits (each shows its viewer's whole table again)."""
    table_version_next(game, hand=hand, seats=seats)
    game.save(update_fields=store.GAME_FIELDS)
    changed = TableChanged(table_id=game.table_id, version=game.version)
    transaction.on_commit(partial(broadcast.event_publish, changed))
    if lobby:
        transaction.on_commit(broadcast.lobby_changed)
    return game.version


UNFINISHED = (Table.Status.OPEN, Table.Status.STARTING, Table.Status.PLAYING)
RUNNING = (Table.Status.STARTING, Table.Status.PLAYING)


def tables_allowance_check(manager) -> None:
    """Refuse a new table to an account that has as many unfinished tables as it may
    (OKEY_TABLES_PER_ACCOUNT) or made too many within the hour (OKEY_TABLES_CREATED_PER_HOUR):
    one account once filled the lobby and pushed everyone else's tables out of it. The caller
    holds the account's row lock, so that two requests at once cannot both pass."""
    mine = Table.objects.filter(manager=manager)
    if mine.filter(status__in=UNFINISHED).count() >= settings.OKEY_TABLES_PER_ACCOUNT:
        raise ServiceError(
            "too_many_tables",
            _("You have %(n)d tables that are not over yet: play or leave one of them first.")
            % {"n": settings.OKEY_TABLES_PER_ACCOUNT},
        )
    hour_ago = timezone.now() - timedelta(hours=1)
    if mine.filter(created__gte=hour_ago).count() >= settings.OKEY_TABLES_CREATED_PER_HOUR:
        raise ServiceError(
            "tables_too_fast", _("You have made many tables lately: try again later.")
        )


def game_running_check(manager, table: Table) -> None:
    """Refuse to start ``table`` while the account's other tables run as many games as it may
    (OKEY_GAMES_PER_ACCOUNT): with bots on the seats one account could run any number."""
    running = Table.objects.filter(manager=manager, status__in=RUNNING).exclude(pk=table.pk)
    if running.count() >= settings.OKEY_GAMES_PER_ACCOUNT:
        raise ServiceError(
            "game_running", _("A game at another table of yours is on: finish it first.")
        )


def account_lock(user) -> None:
    """Lock the account's row: its table limits are checked and changed one request at a time."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


def table_create(*, manager, options: dict, sit: bool = True) -> Table:
    """A table with the manager's ``options``: rule options and table policy in one mapping,
    by their names in docs/rules.md; a name left out takes its default (games.policy)."""
    if not _signed_in(manager):
        raise ServiceError("not_signed_in", _("Sign in to create a table."))
    try:
        rules, policy = table_choices(options)
    except (OptionError, TypeError) as e:
        raise ServiceError("bad_options", str(e)) from None
    with transaction.atomic():
        account_lock(manager)
        tables_allowance_check(manager)
        table = Table.objects.create(manager=manager, options=options_stored(rules, policy))
        Game.objects.create(table=table)
        Seat.objects.bulk_create(
            Seat(table=table, index=i, user=manager if (sit and i == 0) else None)
            for i in range(rules.seats)
        )
        transaction.on_commit(broadcast.lobby_changed)
    return table


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
        if seat.user_id is not None or seat.is_bot:
            raise ServiceError("seat_taken", _("That seat is taken."))
        from .invites import seat_refusal  # reserved seats and private tables (issue 6)

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


def tables_idle_close(*, now=None, limit: int = 200) -> int:
    """Close the open tables that were made more than OKEY_OPEN_TABLE_IDLE ago and never
    started (their invites are cancelled); how many were closed. A Celery beat task runs it."""
    now = now or timezone.now()
    cutoff = now - settings.OKEY_OPEN_TABLE_IDLE
    idle = Table.objects.filter(status=Table.Status.OPEN, created__lt=cutoff)
    closed = 0
    for table_id in idle.values_list("pk", flat=True)[:limit]:
        with transaction.atomic():
            game, table = table_lock(table_id)
            if table.status != Table.Status.OPEN:
                continue  # started or closed since the list was read
            table.status = Table.Status.CLOSED
            table.save(update_fields=["status"])
            table.invites.filter(status=Invite.Status.SENT).update(
                status=Invite.Status.CANCELLED, cancelled_at=now
            )
            table_bump(game, lobby=True)
            closed += 1
    return closed
