"""What staff do to a table from the admin: close it, remove a player from a seat, void the hand
being played and deal again, end the game.

Each action runs in one transaction with the Game row locked first, bumps the table's version
once (the broadcast follows the commit), leaves the game in a state the rules can go on from,
and writes a StaffAction: who, what, when, which table, and the details.

What each action does to the table's life (a hand stopped as void, the game ended, the table
closed, the countdown called off) is games.table.lifecycle's: this module checks who may,
and records. A hand stopped by staff is voided by the engine's ``hand_void`` and counted like
any void hand (nothing scores, the same player starts the next deal); it keeps the state its
moves made, so its move log still replays to exactly what is stored (see lifecycle).
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.models import Game, Invite, Seat, StaffAction, Table
from games.names import player_name
from games.table.changes import table_bump, table_lock
from games.table.lifecycle import (
    countdown_stop,
    game_stop,
    hand_deal,
    hand_running,
    hand_stop,
    table_shut,
)
from games.table.seats import seat_vacate_playing

REASON_MAX = 200


def staff_check(user) -> None:
    if not (
        user is not None
        and getattr(user, "is_authenticated", False)
        and user.is_active
        and user.is_staff
    ):
        raise ServiceError("not_staff", _("Only staff can do that."))


def _record(game: Game, table: Table, staff, kind, reason, before: int, details) -> StaffAction:
    return StaffAction.objects.create(
        staff=staff,
        kind=kind,
        table=table,
        reason=(reason or "").strip()[:REASON_MAX],
        version_before=before,
        version_after=game.version,
        details={"table": table.pk, **details},
    )


def _seat_name(seat: Seat) -> str:
    return player_name(seat.user) if seat.user else ""


def table_close(*, table_id, staff, reason="") -> StaffAction:
    """Close the table for good: a running hand is voided, the game is not rated, open invites
    are cancelled, and the table leaves the lobby."""
    staff_check(staff)
    with transaction.atomic():
        game, table = table_lock(table_id)
        if table.status == Table.Status.CLOSED:
            raise ServiceError("closed", _("This table is closed already."))
        before, now = game.version, timezone.now()
        details = {"status_before": table.status}
        hand = table_shut(game, table, now)
        if hand is not None:
            details["hand_voided"] = hand.number
        details["invites_cancelled"] = table.invites.filter(status=Invite.Status.SENT).update(
            status=Invite.Status.CANCELLED, cancelled_at=now
        )
        table_bump(game, lobby=True)
        return _record(game, table, staff, StaffAction.Kind.TABLE_CLOSE, reason, before, details)


def seat_remove(*, seat_id, staff, reason="") -> StaffAction:
    """Take a player out of their seat. Before the start the seat is simply free again; during a
    game a bot takes the seat over if the table allows bots, else the seat is marked away and the
    timeouts play for it: the version bump works out the table's next deadline (a bot's pause,
    or at once for an away seat) and sends its task (games.table.deadlines)."""
    staff_check(staff)
    seat = Seat.objects.filter(pk=seat_id).first() if isinstance(seat_id, int) else None
    if seat is None:
        raise ServiceError("no_seat", _("There is no such seat."))
    with transaction.atomic():
        game, table = table_lock(seat.table_id)
        seat = table.seats.select_related("user__profile").get(pk=seat.pk)
        if seat.user_id is None:
            raise ServiceError("seat_empty", _("Nobody sits in that seat."))
        if table.status in (Table.Status.FINISHED, Table.Status.CLOSED):
            raise ServiceError("table_over", _("The game at this table is over."))
        before = game.version
        details = {"seat": seat.index, "user": seat.user_id, "name": _seat_name(seat)}
        if table.status == Table.Status.PLAYING:
            details["taken_over_by"] = seat_vacate_playing(table, seat)
        else:
            seat.user, seat.timeouts_in_row = None, 0
            details["taken_over_by"] = None
            if table.status == Table.Status.STARTING:  # every seat must be taken to start
                countdown_stop(table)
                details["countdown_stopped"] = True
        seat.save(update_fields=["user", "is_bot", "away", "timeouts_in_row"])
        table_bump(game, lobby=True)
        return _record(game, table, staff, StaffAction.Kind.SEAT_REMOVE, reason, before, details)


def hand_void_redeal(*, table_id, staff, reason="") -> StaffAction:
    """Void the hand being played (nothing scores) and deal a new one at once, started by the
    same player, from a fresh seed."""
    staff_check(staff)
    with transaction.atomic():
        game, table = table_lock(table_id)
        hand = hand_running(game)
        if hand is None:
            raise ServiceError("no_hand", _("There is no hand being played at this table."))
        before = game.version
        gstate = hand_stop(game, hand, timezone.now())
        rules = table.engine_variant
        new = hand_deal(game, rules, gstate.options, gstate.next_first_seat, number=hand.number + 1)
        table_bump(game)
        details = {
            "hand_voided": hand.number,
            "moves_voided": hand.version,
            "hand_dealt": new.number,
            "first_seat": new.first_seat,
        }
        return _record(game, table, staff, StaffAction.Kind.HAND_VOID, reason, before, details)


def game_end(*, table_id, staff, reason="") -> StaffAction:
    """End the game now: a running hand is voided, then places and rating points follow from the
    counts as they stand, over the hands played so far (none played: nobody is rated)."""
    staff_check(staff)
    with transaction.atomic():
        game, table = table_lock(table_id)
        if game.status != Game.Status.PLAYING:
            raise ServiceError(
                "no_game",
                _("There is no game being played at this table (to stop a table, close it)."),
            )
        before = game.version
        details = {}
        hand = game_stop(game, table, timezone.now(), staff=True)
        if hand is not None:
            details["hand_voided"] = hand.number
        table_bump(game, lobby=True)
        details["results"] = game.results
        return _record(game, table, staff, StaffAction.Kind.GAME_END, reason, before, details)
