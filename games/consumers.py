"""WebSockets: a thin adapter from socket messages to services, and back as HTML fragments.

Client -> server, JSON: {"action": "move", "kind": "discard", "tile": "R7", "version": 12,
"key": "<uuid>"}, {"action": "sync", "version": 12}, {"action": "chat", "text": "..."} (htmx's
ws-send adds "HEADERS", which is ignored).

Server -> client: HTML whose top-level elements carry ids and hx-swap-oob, which the htmx ws
extension swaps in; every frame starts with #table-version carrying the table's version. Group
messages say only which version the table reached; each socket renders its own viewer's view from
the database (notify, then pull), so no rack tile ever crosses the channel layer. Services run
whole inside one ``in_db_thread`` call: no transaction spans an await.

Database work runs in a small pool of threads (games.socket_threads). A frame that this process
can build from the table's stored snapshot without a query (games.snapshots: after a move, for
every socket at the table) is built in the event loop instead: a trip to a thread and back costs
more CPU than the wait it saves, and under load the thread then waits for the loop's GIL.
"""

import json
import time
from collections import deque
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.functional import empty
from django.utils.translation import gettext_lazy as _

from games import broadcast, selectors, services, versions
from games.invite_selectors import my_tables
from games.models import Game
from games.services import ServiceError
from games.snapshots import snapshot_cached, snapshot_get
from games.socket_threads import PooledConsumer, in_db_thread
from games.templatetags.okey import frame as frame_html
from games.templatetags.okey import invite_list, table_message
from games.words import language_active

MAX_MESSAGE_CHARS = 2000
FLOOD_LIMIT = 15  # messages within FLOOD_WINDOW seconds; one more closes the socket
FLOOD_WINDOW = 1.0
CLOSE_FLOOD = 4008  # policy violation, in the application's range: the client does not retry
CLOSE_NO_TABLE = 4404


def scope_language(scope) -> str:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    lang = (query.get("lang") or [""])[0]
    return lang if lang in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def scope_user(scope):
    """The scope's user itself rather than Channels' lazy wrapper, which AuthMiddleware has
    filled before the consumer runs: a frame reads the user a dozen times, each read through
    the wrapper a proxied call."""
    user = scope.get("user")
    wrapped = getattr(user, "_wrapped", None)
    return user if wrapped is None or wrapped is empty else wrapped


class FloodGuard:
    def __init__(self, limit=FLOOD_LIMIT, window=FLOOD_WINDOW):
        self.limit, self.window, self.times = limit, window, deque()

    def hit(self) -> bool:
        """Count one message; True when the socket is sending too many."""
        now = time.monotonic()
        self.times.append(now)
        while self.times and self.times[0] < now - self.window:
            self.times.popleft()
        return len(self.times) > self.limit


class GoneClientSend:
    """A consumer mixin: a send to a client that went away while its frame was being made is
    dropped. daphne (autobahn) raises then; uncaught, it ended the consumer before its
    disconnect handler ran (the group and the version watch were not left) and was logged as
    an exception (bench/badinput.py saw it when its sockets closed mid-answer)."""

    async def send(self, *args, **kwargs):
        try:
            await super().send(*args, **kwargs)
        except Disconnected:
            pass  # the disconnect message follows, and is handled as any other


class TableConsumer(GoneClientSend, PooledConsumer, AsyncWebsocketConsumer):
    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = scope_user(self.scope)
        self.lang = scope_language(self.scope)
        self.sent_version = 0
        self.flood = FloodGuard()
        self.group = broadcast.table_group(self.table_id)
        # join before rendering, so that no change can fall between the render and the join
        await self.channel_layer.group_add(self.group, self.channel_name)
        frame = await in_db_thread(self.frame_render)(chat=True)
        if frame is None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.close(code=CLOSE_NO_TABLE)
            return
        await self.accept()
        versions.watch(self.table_id, self)
        self.watching = True
        await self.frame_send(frame)

    async def disconnect(self, code):
        if getattr(self, "watching", False):
            versions.unwatch(self.table_id, self)
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    # --- from the group ------------------------------------------------------------------

    async def table_changed(self, event):
        version = event.get("version", 0)
        if version <= self.sent_version:
            return  # this socket already shows that version or a later one
        await self.frame_send(await self.board_render(version))

    async def board_render(self, version, **kw):
        """The board at ``version`` or later: in the loop from the stored snapshot when that
        needs no query, else in a database thread."""
        snap = snapshot_cached(self.table_id, version)
        if snap is not None and not selectors.view_reads_rows(snap, self.user):
            return self.frame_build(snap, **kw)
        return await in_db_thread(self.frame_render)(at_least=version, **kw)

    async def chat_changed(self, event):
        await self.frame_send(await in_db_thread(self.frame_render)(board=False, chat=True))

    # --- from the client -----------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        if self.flood.hit():
            await self.close(code=CLOSE_FLOOD)
            return
        if text_data is None or len(text_data) > MAX_MESSAGE_CHARS:
            await self.refuse(_("That message is too long."))
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            content = None
        if not isinstance(content, dict):
            await self.refuse(_("That message is not understood."))
            return
        action = content.get("action")
        handlers = {"move": self.on_move, "sync": self.on_sync, "chat": self.on_chat}
        handler = handlers.get(action) if isinstance(action, str) else None
        if handler is None:
            await self.refuse(_("That message is not understood."))
            return
        await handler(content)

    async def on_move(self, content):
        move = {"kind": content.get("kind")}
        if content.get("tile") not in (None, ""):
            move["tile"] = content.get("tile")
        version = content.get("version")
        if isinstance(version, str) and version.isdigit():
            version = int(version)
        if isinstance(version, bool) or not isinstance(version, int):
            await self.refuse(_("That move does not say which version of the table it was for."))
            return
        key = content.get("key")
        try:
            outcome, held = await in_db_thread(self.move_apply)(
                move, version, key if isinstance(key, str) else None
            )
        except ServiceError as e:
            # a stale mover gets the table as it is now along with the message
            await self.refuse(e.message, board=e.code == "stale")
            return
        # the other players first; the mover's answer then skips the group message
        await broadcast.broadcasts_send(held)
        await self.frame_send(await self.board_render(outcome.version, message=""))

    def move_apply(self, move, version, key):
        """The move, and the broadcasts its commit made, to be sent from the loop."""
        with broadcast.broadcasts_held() as held:
            outcome = services.move_submit(
                table_id=self.table_id,
                user=self.user,
                move=move,
                expected_version=version,
                idempotency_key=key,
            )
        return outcome, held

    async def on_sync(self, content):
        version = content.get("version")
        if isinstance(version, int) and not isinstance(version, bool):
            # the process's reading of the table, at most a few seconds old (games.versions);
            # the database only when there is none
            current = versions.known(self.table_id)
            if current is None or version > current:
                current = await self.version_current()
            if version == current:
                return
        await self.frame_send(await in_db_thread(self.frame_render)(chat=True))

    async def on_chat(self, content):
        try:
            await in_db_thread(services.chat_post)(
                table_id=self.table_id, user=self.user, text=content.get("text")
            )
        except ServiceError as e:
            await self.refuse(e.message)

    # --- rendering -------------------------------------------------------------------------

    async def refuse(self, message, board=False):
        await self.frame_send(await in_db_thread(self.frame_render)(message=message, board=board))

    async def version_current(self):
        return await in_db_thread(self.version_read)()

    def version_read(self):
        return Game.objects.filter(table_id=self.table_id).values_list("version", flat=True).first()

    def frame_render(self, *, board=True, chat=False, message=None, at_least=None):
        """(version, html) of this socket's viewer, or None if the table is gone.

        ``at_least``: a version the frame must show or pass. The table's snapshot in this
        process is reused when it is that recent (games.snapshots), so the sockets of a table
        read its rows once per move instead of once each."""
        snap = snapshot_get(self.table_id, at_least)
        if snap is None:
            return None
        return self.frame_build(snap, board=board, chat=chat, message=message)

    def frame_build(self, snap, *, board=True, chat=False, message=None):
        """(version, html) of this socket's viewer from ``snap``; reads rows only for the chat
        and for what ``selectors.view_reads_rows`` names."""
        with language_active(self.lang):
            table = snap.table
            version = snap.version
            parts = []
            if board:
                ctx = selectors.table_view(snap, self.user, chat=chat)
                parts.append(frame_html(ctx))  # games/table.html#frame without the template engine
                if ctx["invites"]:  # the manager's, as the frame partial includes them
                    parts.append(invite_list(ctx))
                version = ctx["version"]
            if chat:
                # The chat log carries the table's version too: a page that sees a newer one
                # there than on its board has missed a change, and asks for the whole view.
                chat_items = selectors.chat_view(table, self.user)
                parts.append(
                    render_to_string(
                        "games/table.html#chat", {"chat": chat_items, "version": version}
                    )
                )
            if message is not None:
                parts.append(f"\n{table_message(message)}\n")  # as the partial wrote it
            return version, "".join(parts)

    async def frame_send(self, frame):
        if frame is None:
            return
        version, html = frame
        self.sent_version = max(self.sent_version, version)
        await self.send(text_data=html)


class LobbyConsumer(GoneClientSend, PooledConsumer, AsyncWebsocketConsumer):
    async def connect(self):
        self.lang = scope_language(self.scope)
        self.user = scope_user(self.scope)
        self.flood = FloodGuard()
        await self.channel_layer.group_add(broadcast.LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.send(text_data=await in_db_thread(self.tables_render)())

    async def disconnect(self, code):
        await self.channel_layer.group_discard(broadcast.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        # the lobby socket only listens; a client that talks too much is closed
        if self.flood.hit():
            await self.close(code=CLOSE_FLOOD)

    async def lobby_changed(self, event):
        await self.send(text_data=await in_db_thread(self.tables_render)())

    def tables_render(self) -> str:
        with language_active(self.lang):
            return render_to_string(
                "games/lobby.html#tables",
                {"tables": selectors.lobby_tables(self.user), "user": self.user},
            ) + render_to_string("games/lobby.html#my_tables", {"my_tables": my_tables(self.user)})
