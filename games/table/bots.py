"""Bots: seats the server plays, through the same move path as people.

A bot is a seat with ``is_bot`` and no user: it has no profile and no rating. Bots take empty
seats at the start when the table allows it (``policy.bots_fill``, see ``countdown_begin``), the
manager may seat one on a free seat before the start, and a table of four bots plays a whole game
by itself for people to watch (``bot_table_create``). A bot's turn is played by
``games.timers.timeouts.turn_due_play`` after a short pause (``timeouts.bot_pause``).
"""

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.models import Seat, Table
from games.table.changes import table_bump, table_lock, version_check
from games.table.create import game_running_check, table_create
from games.table.lifecycle import countdown_begin
from games.table.reservations import seats_reserved
from games.variants import variant_for


def bot_turn_moves(table: Table, state, seat: int, strength: str) -> list:
    """A bot's whole turn at ``table``, at ``strength`` (the seat's, else the table's
    ``policy.bot_strength``), as the family of its game plays it."""
    return variant_for(table).family.bot_moves(state, seat, strength)


def _manager_seat(table_id, user, index, expected_version) -> tuple:
    game, table = table_lock(table_id)
    version_check(game, expected_version)
    if user is None or not getattr(user, "is_authenticated", False) or user.pk != table.manager_id:
        raise ServiceError("not_manager", _("Only the table manager can seat or remove bots."))
    if table.status != Table.Status.OPEN:
        raise ServiceError("not_open", _("This table is no longer taking players."))
    seat = None
    if isinstance(index, int) and not isinstance(index, bool):
        seat = table.seats.filter(index=index).first()
    if seat is None:
        raise ServiceError("no_seat", _("There is no such seat at this table."))
    return game, table, seat


def bot_add(*, table_id, user, index, strength=None, expected_version=None) -> int:
    """The manager seats a bot on a free seat before the start, playing at ``strength`` (one of
    engine.BOT_STRENGTHS; None: the table's)."""
    with transaction.atomic():
        game, table, seat = _manager_seat(table_id, user, index, expected_version)
        if strength is not None and strength not in table.engine_variant.bot_strengths:
            raise ServiceError("bad_strength", _("Choose one of the strengths offered."))
        if seat.user_id is not None or seat.is_bot:
            raise ServiceError("seat_taken", _("That seat is taken."))
        if seat.index in seats_reserved(table):  # an invite keeps the seat for a person
            raise ServiceError("seat_reserved", _("That seat is reserved for an invited player."))
        seat.is_bot, seat.away, seat.timeouts_in_row = True, False, 0
        seat.bot_strength = strength or ""
        seat.save(update_fields=["is_bot", "bot_strength", "away", "timeouts_in_row"])
        return table_bump(game, lobby=True)


def bot_remove(*, table_id, user, index, expected_version=None) -> int:
    """The manager frees a bot's seat before the start, for a person to take."""
    with transaction.atomic():
        game, table, seat = _manager_seat(table_id, user, index, expected_version)
        if not seat.is_bot:
            raise ServiceError("not_bot", _("There is no bot on that seat."))
        seat.is_bot, seat.bot_strength = False, ""
        seat.save(update_fields=["is_bot", "bot_strength"])
        return table_bump(game, lobby=True)


def bot_tables_running(user) -> int:
    """Tables of bots only that ``user`` opened and that have not ended."""
    return (
        Table.objects.filter(
            manager=user,
            status__in=[Table.Status.OPEN, Table.Status.STARTING, Table.Status.PLAYING],
        )
        .exclude(seats__is_bot=False)
        .count()
    )


BOT_TABLES_PER_USER = 1


def bot_table_create(*, manager, options: dict) -> Table:
    """A table where four bots (or as many as its seats) play a whole game on their own while
    people watch; its start countdown begins at once. One such table per person at a time."""
    if manager is not None and getattr(manager, "is_authenticated", False):
        if bot_tables_running(manager) >= BOT_TABLES_PER_USER:
            raise ServiceError(
                "bot_table_running",
                _("Your table of bots is still playing: watch it, or wait until it ends."),
            )
    options = {**options, "bots_fill": True}
    with transaction.atomic():
        table = table_create(manager=manager, options=options, sit=False)
        game, table = table_lock(table.pk)
        game_running_check(manager, table)
        Seat.objects.filter(table=table).update(is_bot=True)
        countdown_begin(game, table)
    return table
