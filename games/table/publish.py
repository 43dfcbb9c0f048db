"""Sending what a committed change shows to the pages that show it, once it has committed.

Every socket at a table joins the table's group (public bytes only: spectators are in it too)
and, for a signed-in viewer, that player's own group at the table, which only their tabs join, on
whichever daphne they are. Nothing here runs inside a transaction: the services call it on
commit (``transaction.on_commit``), with what they committed.

- A move (``move_publish``): its event says what happened ("seat 2 took R7 from seat 1's pile")
  and carries the public board before and after it; the board's parts that changed are rendered
  once per language and the same bytes go to every page. Each seated player whose rack or
  moves changed gets their own part, rendered once in their profile's language, in the same
  message to the table's group: each socket sends its page the public part with its own
  player's part after it, one frame, and never another's (games.table.socket); only a tab that
  shows another language renders its own, from the view the message carries. The views are built here, after the commit: the move held the table's lock only to
  check, apply and save. A draw names no tile: the stock is secret.
- A change of the table's life (a seat taken, the start, a deal, a hand's end:
  ``table_changed_publish``): each seated player's whole table, rendered here once in their
  language (and built in it: some of a view's words are chosen as it is built) and sent to their
  own group; the table's group hears only the version and whose frames went out, so that only a
  spectator's socket, or a tab in another language, renders its viewer's table itself.

A failed send is logged and swallowed: the change is committed, and every page heals itself from
the versions (a gap in them makes it ask for the whole table).
"""

import asyncio
import logging
import threading
from contextlib import contextmanager

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation

from games import metrics
from games.table.reads import MoveEvent, MoveOutcome, OwnView, table_rows, table_view
from games.table.render import event_html, frame_full, in_every_language, own_html
from games.variants import variant_for

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
LOBBY_MESSAGE = (LOBBY_GROUP, {"type": "lobby.changed"})


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def player_group(table_id: int, user_id: int) -> str:
    return f"table.{table_id}.player.{user_id}"


def account_group(user_id: int) -> str:
    """Every table socket of one account, at any table, on any daphne."""
    return f"account.{user_id}"


def account_sockets_close(user_id: int) -> None:
    """Close the table sockets of an account that was just deleted: a socket keeps the user it
    was opened with, and would go on hearing its tables (a private one too). The page connects
    again as the anonymous visitor it now is, and sees only what any visitor may."""
    messages_send([(account_group(user_id), {"type": "account.gone"})])


def player_language(user) -> str:
    """The language of a player's profile: the one their tabs almost always show."""
    lang = getattr(getattr(user, "profile", None), "language", None)
    return lang if lang in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


# --- a move ----------------------------------------------------------------------------------


def move_publish(outcome: MoveOutcome) -> None:
    """Render a committed move and send it (``move_submit`` calls it on commit)."""
    with metrics.EVENT_BROADCAST_SECONDS.time():  # from the commit, as it runs on commit
        if outcome.hand_over:  # the results and every rack: each page shows its table whole
            messages = table_changed_messages(outcome.table.pk, outcome.version)
            if outcome.game_over:
                messages.append(LOBBY_MESSAGE)
        else:
            messages = move_messages(move_event(outcome))
        messages_send(messages)


def move_event(outcome: MoveOutcome) -> MoveEvent:
    """What a move within a hand changed: the public board before and after it, the parts of
    the page that differ, and the own views of the players whose part the move may have changed
    (the family says whose: the mover's, the next player's), from the rows the move read and
    wrote (no query)."""
    o = outcome
    family = variant_for(o.table).family
    # a move within a hand leaves the game's state as it was
    gstate = o.table.engine_variant.game_from_dict(o.game.state)
    move = o.move
    board = family.board_view
    before = board(o.table, o.game_before, o.seats_before, o.hand, o.before, gstate)
    after = board(o.table, o.game, o.seats, o.hand, o.state, gstate)
    changed = family.own_seats(o.before, o.state, move.seat)
    return MoveEvent(
        table_id=o.table.pk,
        version=o.version,
        seat=move.seat,
        kind=move.kind,
        tile=family.public_tile(move.kind, move.as_engine_dict(), o.before, move.seat),
        detail=move.detail,
        before=before,
        after=after,
        parts=family.parts_changed(before, after),
        own=_own_changed(
            family,
            {s.index: player_language(s.user) for s in o.seats if s.user_id is not None},
            _own_views(
                family, o.table.pk, o.game_before.version, o.seats_before, o.hand, o.before, changed
            ),
            _own_views(family, o.table.pk, o.version, o.seats, o.hand, o.state, changed),
        ),
    )


def move_messages(event: MoveEvent) -> list[tuple[str, dict]]:
    """One message a move, to the table's group: its public part in every language, and each
    changed player's own part (only its socket sends one to a browser: TableConsumer.table_event).
    One message instead of one to the table and one to each changed player's group: a group send
    and a socket's dispatch and send fewer for each of them."""
    html = in_every_language(lambda: event_html(event))
    message = {"type": "table.event", "version": event.version, "html": html}
    message["own"] = [own_part(own) for own in event.own]
    return [(table_group(event.table_id), message)]


def own_part(own: OwnView) -> dict:
    """A player's own part, rendered once, in their language, with the view it was rendered
    from (a tab in another language renders its own from it). It rides in the table's group
    message, which every socket at the table hears; a socket sends only its own player's."""
    with translation.override(own.lang):
        html = own_html(own)
    return {"html": html, "own": own.to_message()}


def _own_views(family, table_id: int, version: int, seats, hand, state, changed) -> dict:
    """The own view of ``state`` of each seated person among the ``changed`` seats: seat ->
    (user id, the family's rack view)."""
    return {
        s.index: (s.user_id, family.rack_view(table_id, version, s, hand, state))
        for s in seats
        if s.user_id is not None and s.index in changed
    }


def _own_changed(family, languages: dict, before: dict, after: dict) -> tuple[OwnView, ...]:
    """The players whose tiles or moves changed (the version aside)."""
    out = []
    for index, (user_id, view) in after.items():
        old = before[index][1] if index in before else None
        tiles, moves = family.own_changed(old, view)
        if tiles or moves:
            own = OwnView(user_id, view, tiles, moves, lang=languages[index])
            out.append(own)
    return tuple(out)


# --- a change of the table's life ------------------------------------------------------------


def table_changed_publish(table_id: int, version: int, *, lobby: bool = False) -> None:
    """Each page of the table shows its viewer's whole table again; the lobby hears of it too
    when ``lobby`` (seats, status). Call it on commit."""
    with metrics.EVENT_BROADCAST_SECONDS.time():
        messages = table_changed_messages(table_id, version)
        if lobby:
            messages.append(LOBBY_MESSAGE)
        messages_send(messages)


def table_changed_messages(table_id: int, version: int) -> list[tuple[str, dict]]:
    """The table's version to its group, and each seated player's whole table, in their
    language, to their own group (it carries only that player's rack, as their page does)."""
    rows = table_rows(table_id)
    framed, out = [], []
    for seat in rows.seats if rows is not None else ():
        if seat.user_id is None:
            continue
        lang = player_language(seat.user)
        with translation.override(lang):
            view = table_view(rows, seat.user)
            html = frame_full(view)
        framed.append([seat.user_id, lang])  # a list: the layer's msgpack keeps no int keys
        frame = {"type": "table.frame", "version": view.version, "lang": lang, "html": html}
        out.append((player_group(table_id, seat.user_id), frame))
    changed = {"type": "table.changed", "version": version, "framed": framed}
    return [(table_group(table_id), changed), *out]


def lobby_publish() -> None:
    """The lobby's list of tables changed (call it on commit)."""
    messages_send([LOBBY_MESSAGE])


# --- the channel layer -----------------------------------------------------------------------


# The messages held back in this thread (messages_held), or None: send them as they come.
_held = threading.local()


@contextmanager
def messages_held():
    """Keep what this thread publishes in a list, unsent, for the caller to send itself: a
    socket's move runs in a database thread, and sending from there cost two more trips
    between the thread and the socket's event loop (there and back, the thread waiting), where
    the socket sends the list from its loop once the thread is done (games.table.socket)."""
    outer = getattr(_held, "messages", None)
    _held.messages = held = []
    try:
        yield held
    finally:
        _held.messages = outer


def messages_send(messages: list[tuple[str, dict]]) -> None:
    """Send from sync code (a service's commit, in a socket's or a request's database thread,
    or a worker), in one trip to the event loop however many groups there are; within
    ``messages_held``, keep them for its caller to send."""
    if not messages:
        return
    held = getattr(_held, "messages", None)
    if held is not None:
        held.extend(messages)
        return
    try:
        async_to_sync(messages_asend)(messages)
    except Exception:  # no way to the loop from here: pages heal from their versions
        logger.exception("broadcast to %s failed", [group for group, _ in messages])


async def messages_asend(messages: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    try:
        await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))
    except Exception:  # the channel layer is down: pages heal from their versions
        logger.exception("broadcast to %s failed", [group for group, _ in messages])
