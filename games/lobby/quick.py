"""Quick play: one tap seats a player at a table of their mode that is about to start, or opens
one whose countdown starts at once and whose seats still empty at the deal go to bots.

A quick table is an ordinary public table whose countdown began with its seats still open to
people: during the countdown ("starting") other quick players sit down, and the deal
(``game_start``) gives the seats nobody took to bots, as the table's ``bots_fill`` says.
"""

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import guest_is
from games.errors import ServiceError
from games.models import Seat, Table
from games.sanctions import suspension_refusal
from games.social.blocks import blocked_pairs
from games.table.changes import table_bump, table_lock
from games.table.create import game_running_check, table_create
from games.table.lifecycle import countdown_begin, game_start
from games.table.reservations import seats_open
from games.variants import VARIANTS

MODES = tuple(VARIANTS)  # every game the site offers


# a player already in a game that has not ended, where the account may run more than one
# (OKEY_GAMES_PER_ACCOUNT), is taken back to it; with one, quick play is refused and says where
IN_GAME = (Table.Status.STARTING, Table.Status.PLAYING)


# A guest's practice pace, seconds a turn: the first hand allows 120, quick play's tables 30;
# a newcomer chooses, and starts in between.
PRACTICE_PACES = (30, 60, 120)
PRACTICE_PACE = 60


def table_quick_join(*, user, mode: str, turn_seconds: int | None = None) -> Table:
    """The table ``user`` now sits at: theirs if a game of theirs is on, else a free seat at a
    quick table of ``mode`` in its countdown, else a new quick table. Refused (``game_running``)
    while the account is in as many games as it may."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise ServiceError("not_signed_in", _("Sign in to play."))
    if mode not in MODES:
        raise ServiceError("bad_options", _("There is no such game."))
    refusal = suspension_refusal(user)
    if refusal is not None:
        raise refusal
    game_running_check(user)  # one game at a time: the page says where it is
    mine = Seat.objects.filter(user=user, table__status__in=IN_GAME).order_by("-table_id").first()
    if mine is not None:
        return mine.table
    if guest_is(user):  # a guest plays alone with bots, and nothing is rated
        pace = turn_seconds if turn_seconds in PRACTICE_PACES else PRACTICE_PACE
        return practice_open(user, mode, options={"turn_seconds": pace})
    for table_id in _waiting(mode):
        table = _seat_at(table_id, user)
        if table is not None:
            return table
    return _quick_open(user, mode)


def _waiting(mode: str) -> list[int]:
    """Public tables of ``mode`` counting down with a seat nobody holds, the soonest first."""
    return list(
        Table.objects.filter(
            status=Table.Status.STARTING,
            variant=mode,
            options__private=False,
            seats__user__isnull=True,
            seats__is_bot=False,
        )
        .order_by("start_at", "pk")
        .values_list("pk", flat=True)
        .distinct()[:10]
    )


def _seat_at(table_id: int, user) -> Table | None:
    with transaction.atomic():
        game, table = table_lock(table_id)
        if table.status != Table.Status.STARTING:
            return None
        seat = seats_open(table).first()
        if seat is None:
            return None
        # never with a player either of them blocked: the next table, or a new one
        seated = table.seats.filter(user__isnull=False).values_list("user_id", flat=True)
        if any(user.pk in pair for pair in blocked_pairs([user.pk, *seated])):
            return None
        seat.user = user
        seat.save(update_fields=["user"])
        table_bump(game, lobby=True)
        return table


def practice_open(user, mode: str, *, options=None) -> Table:
    """A practice table (not rated) of ``mode`` where bots take every other seat, dealt at once:
    there is nobody to wait for, so no countdown. A guest's quick play, and the first hand
    (games.learn, with its own ``options``)."""
    options = {"variant": mode, "practice": True, "bots_fill": True, **(options or {})}
    with transaction.atomic():
        table = table_create(manager=user, options=options)
        game, table = table_lock(table.pk)
        version = countdown_begin(game, table)
        game_start(table_id=table.pk, expected_version=version)
        table.refresh_from_db()
        return table


def _quick_open(user, mode: str) -> Table:
    with transaction.atomic():
        table = table_create(manager=user, options={"variant": mode, "bots_fill": True})
        game, table = table_lock(table.pk)
        countdown_begin(game, table, bots_now=False)
        return table
