"""Sending what changed to the sockets, once a change has committed.

A move's public part is rendered here once per language and the same bytes go to the table's
group, which every socket at the table joins, spectators included: it never carries a rack
tile. Each player's own part is rendered here too, once, in the player's language, and goes to
that player's own group at the table, which only their tabs join, on whichever daphne they are.
It is rendered where the move ran, not in each tab's socket: that is daphne's loop, which every
socket shares. Only a tab that shows another language than its player's (a link into the other
language's pages) renders its own part itself, from the view the message carries.
A change of the table's life (a seat taken, the start, a deal, a hand's end) shows each page its
viewer's whole table again. Each seated player's is rendered here too, once, in their language,
and goes to their own group; the table's group hears only the version and whose frames went out,
so that only a spectator's socket, or a tab in another language than its player's, renders its
viewer's table itself. Rendered in each socket, the four players' frames of every hand's end and
every deal ran in daphne's process, whose one core every socket's sends wait for.

A failed send is logged and swallowed: the change is committed, and every page heals itself
from the versions (a gap in them makes it ask for the whole table).
"""

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import translation

from games import metrics, render, selectors
from games.events import MoveEvent, OwnView, TableChanged, player_language
from games.models import ChatMessage

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def player_group(table_id: int, user_id: int) -> str:
    return f"table.{table_id}.player.{user_id}"


def event_messages(event: MoveEvent | TableChanged) -> list[tuple[str, dict]]:
    """(group, message) for each group that must hear of ``event``."""
    if isinstance(event, TableChanged):
        return changed_messages(event)
    out = [
        (
            table_group(event.table_id),
            {
                "type": "table.event",
                "version": event.version,
                "html": render.in_every_language(lambda: render.event_html(event)),
            },
        )
    ]
    for own in event.own:
        out.append((player_group(event.table_id, own.user_id), own_message(event.version, own)))
    return out


def changed_messages(event: TableChanged) -> list[tuple[str, dict]]:
    """The table's version to its group, and each seated player's whole table, in their
    language, to their own group (it carries only that player's rack, as their page does)."""
    rows = selectors.table_rows(event.table_id)
    framed, out = [], []
    for seat in rows.seats if rows is not None else ():
        if seat.user_id is None:
            continue
        lang = player_language(seat.user)
        view = selectors.table_view(rows, seat.user)
        with translation.override(lang):
            html = render.frame_full(view)
        framed.append([seat.user_id, lang])  # a list: the layer's msgpack keeps no int keys
        out.append(
            (
                player_group(event.table_id, seat.user_id),
                {"type": "table.frame", "version": view.version, "lang": lang, "html": html},
            )
        )
    changed = {"type": "table.changed", "version": event.version, "framed": framed}
    return [(table_group(event.table_id), changed), *out]


def own_message(version: int, own: OwnView) -> dict:
    """A player's own part, rendered once, in their language, with the view it was rendered
    from (only ever the player's own rack: this goes to their group alone)."""
    with translation.override(own.lang):
        html = render.own_html(own)
    return {
        "type": "table.own",
        "version": version,
        "html": {own.lang: html},
        "own": own.to_message(),
    }


def event_publish(event: MoveEvent | TableChanged) -> None:
    """Render ``event`` and send it to its groups (call it on commit)."""
    with metrics.EVENT_BROADCAST_SECONDS.time():  # from the commit, as it runs on commit
        messages_send(event_messages(event))


def move_messages(outcome) -> list[tuple[str, dict]]:
    """What a committed move (a MoveOutcome of ``move_submit(publish=False)``) sends, rendered:
    its event, and the lobby's news when it ended the game."""
    out = event_messages(outcome.event) if outcome.event is not None else []
    if outcome.game_over:
        out.append(LOBBY_MESSAGE)
    return out


def chat_publish(table_id: int, message: ChatMessage) -> None:
    line = selectors.chat_line(message)
    html = render.in_every_language(lambda: render.chat_line_html(line))
    messages_send([(table_group(table_id), {"type": "chat.line", "html": html})])


LOBBY_MESSAGE = (LOBBY_GROUP, {"type": "lobby.changed"})


def lobby_changed() -> None:
    messages_send([LOBBY_MESSAGE])


def messages_send(messages: list[tuple[str, dict]]) -> None:
    """Send from sync code (a service's commit, in a request's thread or a worker), in one trip
    to the event loop however many groups there are."""
    if not messages:
        return
    try:
        async_to_sync(messages_asend)(messages)
    except Exception:  # no way to the loop from here: pages heal from their versions
        logger.exception("broadcast to %s failed", [group for group, _ in messages])


async def messages_asend(messages: list[tuple[str, dict]]) -> None:
    """Send from the event loop (a socket, once its database thread has returned)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    try:
        await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))
    except Exception:  # the channel layer is down: pages heal from their versions
        logger.exception("broadcast to %s failed", [group for group, _ in messages])
