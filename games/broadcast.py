"""Tell sockets that something changed, after commit, without ever saying what.

A group message carries only the table's new version ("notify, then pull"): each socket then
renders its own viewer's view from the database, so no rack, stock or seed crosses the channel
layer. A failed send is logged and swallowed: the move is committed, and every page heals itself
at its next sync.
"""

import logging
import threading
from contextlib import contextmanager

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"

_held = threading.local()


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


@contextmanager
def broadcasts_held():
    """Keep this thread's broadcasts in a list instead of sending them.

    A socket's move runs in a database thread, where each send would wait for the event loop
    (async_to_sync) and back: the consumer holds them here and awaits ``broadcasts_send`` in
    the loop once the move has committed."""
    outer = getattr(_held, "messages", None)
    held = []
    _held.messages = held
    try:
        yield held
    finally:
        _held.messages = outer


async def broadcasts_send(held: list) -> None:
    """Send what ``broadcasts_held`` kept, in order, from the event loop."""
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in held:
        try:
            await layer.group_send(group, message)
        except Exception:  # the channel layer is down: pages resync on their own
            logger.exception("broadcast to %s failed", group)


def _send(group: str, message: dict) -> None:
    held = getattr(_held, "messages", None)
    if held is not None:
        held.append((group, message))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # the channel layer is down: pages resync on their own
        logger.exception("broadcast to %s failed", group)


def table_changed_message(version: int) -> dict:
    return {"type": "table.changed", "version": version}


def table_changed(table_id: int, version: int) -> None:
    _send(table_group(table_id), table_changed_message(version))


def chat_changed(table_id: int) -> None:
    _send(table_group(table_id), {"type": "chat.changed"})


def lobby_changed() -> None:
    _send(LOBBY_GROUP, {"type": "lobby.changed"})
