"""The rematch at a finished table: the players play again together.

Each person who sat at the table when its game ended may accept (the first acceptance is the
offer) or decline. Bots accept at once. Once every person still in has accepted, the same
players sit down at a new game with the same options, each one seat on (the player of seat 1
takes the last seat, everyone else moves up one), on a table of its own: a table holds one game
(Game is the table's one row of play), so the rematch is the next table, which every page of the
finished one (players and spectators) follows to. A person who declined or left leaves their
seat empty there: a spectator who followed may take it, its manager may invite someone to it,
and a bot takes it when the manager starts, as at any table that lets bots fill seats.

A decline is remembered for a minute: the others may start without that player meanwhile;
after it, the player is waited for again. Acceptances are limited to two a minute a player
(an offer made again and again would flash on everyone's table).

Nothing here knows a variant: the new table takes the finished one's options as they are.
"""

from datetime import datetime, timedelta
from functools import partial

from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.allowances import allowance_spend
from games.errors import ServiceError
from games.models import Rematch, Table
from games.sanctions import suspension_refusal
from games.table.changes import table_bump, table_lock
from games.table.create import game_running_check, table_create
from games.table.lifecycle import countdown_begin
from games.table.publish import messages_send, table_group

DECLINE_REMEMBERED = timedelta(minutes=1)
ACCEPTS_PER_MINUTE = 2


def _players(table: Table) -> dict[int, int]:
    """Seat index -> user id of the people seated when the game ended (the leavers left)."""
    return {s.index: s.user_id for s in table.seats.all() if s.user_id is not None and not s.is_bot}


def declines_live(rematch: Rematch, now: datetime) -> set[int]:
    return {
        int(uid)
        for uid, when in rematch.declined.items()
        if now - datetime.fromisoformat(when) < DECLINE_REMEMBERED
    }


def _finished_player(table_id, user) -> tuple:
    if user is None or not getattr(user, "is_authenticated", False):
        raise ServiceError("not_signed_in", _("Sign in first."))
    game, table = table_lock(table_id)
    if table.status != Table.Status.FINISHED:
        raise ServiceError("not_finished", _("A rematch is asked for once the game is over."))
    if user.pk not in _players(table).values():
        raise ServiceError("not_player", _("Only the players of this game can ask for a rematch."))
    rematch, _created = Rematch.objects.get_or_create(table=table)
    if rematch.started_id is not None:
        raise ServiceError("started", _("The rematch has started already."))
    return game, table, rematch


def rematch_accept(*, table_id, user) -> Rematch:
    """``user`` offers or accepts a rematch; the new game starts once every person still in
    (not declined within the minute) has accepted."""
    refusal = suspension_refusal(user)
    if refusal is not None:
        raise refusal
    with transaction.atomic():
        game, table, rematch = _finished_player(table_id, user)
        if user.pk in rematch.accepted:
            return rematch
        game_running_check(user)  # one game at a time: not while another of theirs runs
        if not allowance_spend(f"rematch:{user.pk}", ACCEPTS_PER_MINUTE, 60):
            raise ServiceError(
                "rematch_fast", _("You have asked for rematches twice this minute; wait a little.")
            )
        rematch.accepted = [*rematch.accepted, user.pk]
        rematch.declined.pop(str(user.pk), None)  # changed their mind
        rematch.save(update_fields=["accepted", "declined"])
        _start_if_ready(game, table, rematch)
        transaction.on_commit(partial(rematch_publish, table.pk))
    return rematch


def rematch_decline(*, table_id, user) -> Rematch:
    """``user`` does not play again: the others may start without them."""
    with transaction.atomic():
        game, table, rematch = _finished_player(table_id, user)
        rematch.accepted = [uid for uid in rematch.accepted if uid != user.pk]
        rematch.declined[str(user.pk)] = timezone.now().isoformat()
        rematch.save(update_fields=["accepted", "declined"])
        _start_if_ready(game, table, rematch)
        transaction.on_commit(partial(rematch_publish, table.pk))
    return rematch


def _start_if_ready(game, table: Table, rematch: Rematch) -> None:
    """The new table, once every person still in accepted (caller holds the old table's lock)."""
    now = timezone.now()
    players = _players(table)
    declined = declines_live(rematch, now)
    staying = {i: uid for i, uid in players.items() if uid not in declined}
    if not staying or not set(staying.values()) <= set(rematch.accepted):
        return
    n = table.seat_count
    # the manager of the finished table, if they play again; else the first to accept
    manager_id = table.manager_id if table.manager_id in staying.values() else rematch.accepted[0]
    manager = next(s.user for s in table.seats.select_related("user") if s.user_id == manager_id)
    new = table_create(manager=manager, options=dict(table.options), sit=False)
    seats = {s.index: s for s in new.seats.all()}
    for old in table.seats.all():
        seat = seats[(old.index - 1) % n]  # one seat on: seat 1's player takes the last seat
        if old.is_bot:
            seat.is_bot, seat.bot_strength = True, old.bot_strength
        elif staying.get(old.index) is not None:
            seat.user_id = staying[old.index]
        seat.save(update_fields=["user", "is_bot", "bot_strength"])
    rematch.started = new
    rematch.save(update_fields=["started"])
    new_game, new = table_lock(new.pk)
    if (
        len(staying) == len(players)
        and not new.seats.filter(user__isnull=True, is_bot=False).exists()
    ):
        countdown_begin(new_game, new)  # everyone is in: the deal follows the countdown
    else:
        table_bump(new_game, lobby=True)
    table_bump(game)  # the finished table's pages show where the rematch is


def rematch_read(table: Table, viewer) -> dict | None:
    """The rematch panel under a finished game's result, for ``viewer``: each seat's answer,
    and what the viewer may do. None when the table is not finished."""
    if table.status != Table.Status.FINISHED:
        return None
    rematch = Rematch.objects.filter(table=table).first()
    now = timezone.now()
    players = _players(table)
    accepted = set(rematch.accepted) if rematch else set()
    declined = declines_live(rematch, now) if rematch else set()
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    rows = []
    for seat in table.seats.select_related("user__profile"):
        uid = players.get(seat.index)
        state = (
            "bot"
            if seat.is_bot
            else "left"
            if uid is None
            else "accepted"
            if uid in accepted
            else "declined"
            if uid in declined
            else "waiting"
        )
        rows.append(
            {"index": seat.index, "number": seat.index + 1, "user": seat.user, "state": state}
        )
    started = rematch.started_id if rematch else None
    return {
        "table_id": table.pk,
        "rows": rows,
        "asked": bool(accepted),
        "player": viewer_id in players.values(),
        "accepted": viewer_id in accepted,
        "declined": viewer_id in declined,
        "started": started,
        "started_url": reverse("games:table", args=[started]) if started else "",
    }


def rematch_publish(table_id: int) -> None:
    """Every page of the finished table fetches its viewer's rematch panel again (the same
    bytes for all: each viewer's answer is their own request)."""
    html = render_to_string("social/rematch.html#refresh", {"table_id": table_id})
    messages_send([(table_group(table_id), {"type": "table.notice", "html": html})])
