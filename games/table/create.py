"""Opening a table: the manager's options checked, the account's limits, the seats laid out; the
Eşli teams' names; and the open tables that never started, closed after a while."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.engine import OptionError
from games.errors import ServiceError
from games.models import Game, Invite, Seat, Table
from games.names import player_name
from games.policy import options_stored, table_choices, table_variant
from games.sanctions import suspension_refusal
from games.table.changes import table_bump, table_lock
from games.table.guests import guest_table_check
from games.table.publish import lobby_publish
from games.teams import TEAM_NAME_MAX
from games.variants import variant_for


def _signed_in(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


UNFINISHED = (Table.Status.OPEN, Table.Status.STARTING, Table.Status.PLAYING)


RUNNING = (Table.Status.STARTING, Table.Status.PLAYING)


def tables_allowance_check(manager) -> None:
    """Refuse a new table to an account that has as many unfinished tables as it may
    (OKEY_TABLES_PER_ACCOUNT) or made too many within the hour (OKEY_TABLES_CREATED_PER_HOUR):
    one account once filled the lobby and pushed everyone else's tables out of it. The caller
    holds the account's row lock, so that two requests at once cannot both pass."""
    mine = Table.objects.filter(manager=manager)
    if mine.filter(status__in=UNFINISHED).count() >= settings.OKEY_TABLES_PER_ACCOUNT:
        n = settings.OKEY_TABLES_PER_ACCOUNT
        raise ServiceError(
            "too_many_tables",
            ngettext(
                "You have %(n)d table that is not over yet: play or leave it first.",
                "You have %(n)d tables that are not over yet: play or leave one of them first.",
                n,
            )
            % {"n": n},
        )
    hour_ago = timezone.now() - timedelta(hours=1)
    if mine.filter(created__gte=hour_ago).count() >= settings.OKEY_TABLES_CREATED_PER_HOUR:
        raise ServiceError(
            "tables_too_fast", _("You have made many tables lately: try again later.")
        )


def games_running(user, *, table: Table | None = None) -> list[int]:
    """The tables, newest first, whose game ``user`` is in while it counts down or runs (other
    than ``table``): where they sit, and the ones they manage (a table of bots they watch). A
    game they have left (games.table.seats) is no longer theirs."""
    running = (
        Table.objects.filter(Q(manager=user) | Q(seats__user=user), status__in=RUNNING)
        .exclude(seats__left_by=user)
        .distinct()
        .order_by("-pk")
    )
    if table is not None:
        running = running.exclude(pk=table.pk)
    return list(running.values_list("pk", flat=True))


def game_running_check(user, table: Table | None = None) -> None:
    """One game at a time: refuse to start ``table``, to sit at it, to quick-play or to begin
    the first hand while the account's other tables run as many games as it may
    (OKEY_GAMES_PER_ACCOUNT): with bots on the seats one account could run any number, and a
    person cannot play two tables at once. The refusal names every such table, for the page to
    link each and to offer to leave the ones where they sit."""
    other = games_running(user, table=table)
    if len(other) >= settings.OKEY_GAMES_PER_ACCOUNT:
        raise game_running_refusal(user, other)


def game_running_refusal(user, tables: list[int]) -> ServiceError:
    seated = set(
        Seat.objects.filter(table_id__in=tables, user=user).values_list("table_id", flat=True)
    )
    names = ", ".join(str(pk) for pk in tables)
    message = ngettext(
        "Your game at table %(n)s is on: finish it, or leave it, first.",
        "Your games at tables %(n)s are on: finish them, or leave them, first.",
        len(tables),
    ) % {"n": names}
    running = [{"table": pk, "seated": pk in seated} for pk in tables]
    details = {"running": running, "seated": bool(seated)}
    return ServiceError("game_running", message, details=details)


def players_running_check(table: Table) -> None:
    """Refuse the start while someone seated at ``table``, the manager aside (checked by
    ``game_running_check``), is in as many games elsewhere as they may: they sat down before
    that game began, and would play two at once."""
    for seat in table.seats.filter(user__isnull=False).exclude(user_id=table.manager_id):
        if len(games_running(seat.user, table=table)) >= settings.OKEY_GAMES_PER_ACCOUNT:
            raise ServiceError(
                "player_in_game",
                _(
                    "%(name)s is playing at another table now: start once that game is over, "
                    "or without them."
                )
                % {"name": player_name(seat.user)},
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
    guest_table_check(manager, policy)
    refusal = suspension_refusal(manager)
    if refusal is not None:
        raise refusal
    with transaction.atomic():
        account_lock(manager)
        tables_allowance_check(manager)
        table = Table.objects.create(
            manager=manager, variant=table_variant(rules), options=options_stored(rules, policy)
        )
        Game.objects.create(table=table)
        Seat.objects.bulk_create(
            Seat(table=table, index=i, user=manager if (sit and i == 0) else None)
            for i in range(rules.seats)
        )
        transaction.on_commit(lobby_publish)
    return table


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
        if not variant_for(table).teams:
            raise ServiceError("not_esli", _("Only Eşli tables have teams."))
        if table.status in (Table.Status.FINISHED, Table.Status.CLOSED):
            raise ServiceError("table_over", _("The game at this table is over."))
        table.team_a_name, table.team_b_name = a, b
        table.save(update_fields=["team_a_name", "team_b_name"])
        return table_bump(game)
