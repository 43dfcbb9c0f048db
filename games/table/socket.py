"""WebSockets: a thin adapter from socket messages to services, and events back out.

Client -> server, JSON: {"action": "move", "kind": "discard", "tile": "R7", "version": 12,
"key": "<uuid>"}, {"action": "sync", "version": 12}, {"action": "chat", "text": "..."} (htmx's
ws-send adds "HEADERS", which is ignored).

Server -> client: HTML whose top-level elements carry ids and hx-swap-oob, which the htmx ws
extension swaps in (games.table.render says which frames there are). A socket joins its table's
group (a move: its public bytes, rendered once for everyone, and the own parts it changed, of
which a socket sends only its player's) and, for a signed-in viewer, that player's own group at
the table (their whole table after a change of the table's life, rendered where the change was
made). It renders only its own viewer's whole table: when it
connects, when the page reports a gap in the versions, and after a change of the table's life
for a spectator or a tab in another language than its player's.
A move goes to the same service as the page's form (games.table.moves.move_submit), whole, in a
database thread (games.realtime.sockets.in_db_thread): no transaction spans an await. It is
answered through the groups like everyone else's (its service publishes it on commit); a refusal
only to the mover.
"""

import asyncio
import json
import logging
import time

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import metrics
from games.errors import ServiceError
from games.models import Game, Table
from games.realtime.pulse import pulse_start
from games.realtime.sockets import (
    CLOSE_FLOOD,
    MAX_MESSAGE_CHARS,
    CountedSocket,
    DirectDispatch,
    FloodGuard,
    GoneClientSend,
    _too_deep,
    in_db_thread,
    scope_language,
)
from games.table import render
from games.table.chat import chat_post
from games.table.chat_view import chat_hidden_from, chat_lines
from games.table.moves import move_submit, move_version
from games.table.privacy import table_open_to
from games.table.publish import (
    account_group,
    messages_asend,
    messages_held,
    player_group,
    table_group,
)
from games.table.reads import OwnView, table_rows, table_view
from games.table.render import message_html, own_html

logger = logging.getLogger(__name__)


MOVE_FIELDS = ("groups", "pairs", "meld", "high")


CLOSE_NO_TABLE = 4404


# The whole table again at the page's own request (a stale move, a sync that shows a gap) at
# most once in this many seconds: each costs the table's full read and render, and a client's
# messages must not set that rate. A page that still lags asks again with its next heartbeat.
FULL_FRAME_GAP = 1.0


# This process's open table sockets, for table_sockets_heal.
table_sockets: set["TableConsumer"] = set()


def _table_versions(table_ids) -> dict[int, int]:
    return dict(Game.objects.filter(table_id__in=table_ids).values_list("table_id", "version"))


async def table_sockets_heal() -> None:
    """The channel layer lost messages (games.realtime.pulse): every table socket of this process whose
    page is behind its table sends it the whole table, one read of the versions for all."""
    sockets = list(table_sockets)
    if not sockets:
        return
    versions = await in_db_thread(_table_versions)({s.table_id for s in sockets})
    behind = [s for s in sockets if versions.get(s.table_id, 0) > s.sent_version]
    await asyncio.gather(*(s.frame_asked() for s in behind), return_exceptions=True)


class TableConsumer(CountedSocket, GoneClientSend, DirectDispatch, AsyncWebsocketConsumer):
    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.user_id = (
            self.user.pk if self.user is not None and self.user.is_authenticated else None
        )
        self.lang = scope_language(self.scope)
        self.sent_version = 0
        self.full_asked, self.full_later = -FULL_FRAME_GAP, None
        self.flood = FloodGuard()
        self.chat_hidden = frozenset()  # the authors this viewer blocked (table_open reads them)
        if not await in_db_thread(self.table_open)():
            await self.close(code=CLOSE_NO_TABLE)
            return
        pulse_start(table_sockets_heal)
        self.groups_joined = [table_group(self.table_id)]
        if self.user_id is not None:
            self.groups_joined.append(player_group(self.table_id, self.user_id))
            self.groups_joined.append(account_group(self.user_id))
        # join before rendering, so that no change can fall between the render and the join
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        # Accepted before the render: daphne drops a handshake not accepted within
        # websocket_connect_timeout, and when many pages connect at once (a restart, a network
        # blip) their renders queue behind each other; a page whose render had not come by
        # then was dropped, connected again and queued again. The group messages that arrive
        # meanwhile wait for this method, so the frame still goes first.
        await self.accept()
        frame = await self.frame_full(chat=True)
        if frame is None:  # the table went away since the check above
            await self.groups_leave()
            await self.close(code=CLOSE_NO_TABLE)
            return
        await self.frame_send(frame)
        table_sockets.add(self)

    async def disconnect(self, code):
        table_sockets.discard(self)
        if getattr(self, "full_later", None) is not None:
            self.full_later.cancel()
        await self.groups_leave()

    async def groups_leave(self):
        for group in getattr(self, "groups_joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = []

    # --- from the groups -----------------------------------------------------------------

    async def account_gone(self, event):
        """The account was deleted (games.table.publish.account_sockets_close)."""
        await self.groups_leave()
        await self.close()

    async def table_event(self, event):
        """A move: its public part, the same bytes for every socket at the table, and after it,
        in the same frame, this player's own part if the move changed it (the message carries
        the changed players' parts: only this viewer's may leave this socket)."""
        self.sent_version = max(self.sent_version, event["version"])
        html = event["html"][self.lang]
        if self.user_id is not None:
            html += self.own_part(event.get("own", ()))
        await self.send(text_data=html)

    def own_part(self, parts) -> str:
        """This player's own rack and moves among a move's changed ones, or "". It comes
        rendered in the player's language; a tab that shows another renders it here."""
        for part in parts:
            own = part["own"]
            if own["user_id"] != self.user_id:
                continue
            if own["lang"] == self.lang:
                return part["html"]
            with translation.override(self.lang):
                return own_html(OwnView.from_message(own))
        return ""

    async def table_changed(self, event):
        """A change of the table's life: this viewer's whole table again, rendered here unless
        it comes rendered on the player's own group (table_frame)."""
        if event.get("version", 0) <= self.sent_version:
            return  # this socket already shows that version or a later one
        if [self.user_id, self.lang] in event.get("framed", ()):
            return
        await self.frame_send(await self.frame_full())

    async def table_frame(self, event):
        """This player's whole table after a change of its life, rendered where the change
        was made, in the player's language; a tab in another renders its own (table_changed)."""
        if event["lang"] != self.lang or event["version"] <= self.sent_version:
            return
        await self.frame_send((event["version"], event["html"]))

    async def table_notice(self, event):
        """A piece of the page from a room built on the table (the rematch panel, which each
        page then fetches for its own viewer): the same bytes for every socket."""
        await self.send(text_data=event["html"])

    async def chat_line(self, event):
        if event.get("author") in self.chat_hidden:
            return  # a player this viewer blocked: their words never reach the viewer's page
        await self.send(text_data=event["html"][self.lang])

    async def chat_hide(self, event):
        """This viewer blocked someone (at any table): drop their lines from now on."""
        self.chat_hidden = self.chat_hidden | {event["author"]}

    # --- from the client -----------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        if self.flood.hit():
            await self.close(code=CLOSE_FLOOD)
            return
        if text_data is None or len(text_data) > MAX_MESSAGE_CHARS:
            await self.refuse(_("That message is too long."))
            return
        content = None
        if not _too_deep(text_data):
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
        # what else a move may carry (101's groups, meld, side): the game's family cleans it
        move.update({k: content[k] for k in MOVE_FIELDS if k in content})
        version = move_version(content.get("version"))
        if version is None:
            await self.refuse(_("That move does not say which version of the table it was for."))
            return
        key = content.get("key")
        try:
            # shielded: a consumer cancelled meanwhile (daphne ends one that is slow to close)
            # must still send what a committed move publishes
            await asyncio.shield(
                self.move_play(move, version, key if isinstance(key, str) else None)
            )
        except ServiceError as e:
            # a refusal is an everyday event: one line, no traceback
            logger.info("move refused", extra={"table": self.table_id, "code": e.code})
            metrics.refusal_count(e.code)
            await self.refuse(e.message)
            if e.code == "stale":  # the mover's page is behind: the table as it is now
                await self.frame_asked()

    async def move_play(self, move, version, key):
        """The move in a database thread; what it publishes on commit sent from here, the loop,
        once the thread is done. Its event reaches this socket through the table's group, as
        everyone's does."""
        await messages_asend(await in_db_thread(self.move_apply)(move, version, key))

    def move_apply(self, move, version, key) -> list[tuple[str, dict]]:
        """The move, through the one service every move goes through; what it publishes on
        commit, held to be sent from the socket's loop."""
        with messages_held() as published:
            move_submit(
                table_id=self.table_id,
                user=self.user,
                move=move,
                expected_version=version,
                idempotency_key=key,
            )
        return published

    async def on_sync(self, content):
        """The page asks whether it is up to date (its heartbeat), or reports a gap."""
        version = content.get("version")
        if version is not None:  # none: the page asks for the whole table (after a drag)
            if isinstance(version, bool) or not isinstance(version, int):
                await self.refuse(_("That message is not understood."))
                return
            if version == await in_db_thread(self.version_read)():
                return
        await self.frame_asked(chat=True)

    async def on_chat(self, content):
        try:
            await in_db_thread(chat_post)(
                table_id=self.table_id, user=self.user, text=content.get("text")
            )
        except ServiceError as e:
            await self.refuse(e.message)

    # --- answers ---------------------------------------------------------------------------

    async def refuse(self, message):
        """Only the mover hears a refusal, and it costs no read of the table."""
        with translation.override(self.lang):
            await self.send(text_data=message_html(str(message)))

    def table_open(self) -> bool:
        """Whether the table exists for this viewer (a private one only for its people)."""
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None or not table_open_to(table, self.user):
            return False
        self.chat_hidden = chat_hidden_from(self.user_id)
        return True

    def version_read(self):
        return Game.objects.filter(table_id=self.table_id).values_list("version", flat=True).first()

    async def frame_asked(self, *, chat=False):
        """The whole table, asked for by the page: at most once per FULL_FRAME_GAP. Asked again
        sooner, it goes once when the gap is over, however many times it was asked."""
        wait = self.full_asked + FULL_FRAME_GAP - time.monotonic()
        if wait > 0:
            if self.full_later is None:
                self.full_later = asyncio.ensure_future(self.frame_later(wait, chat))
            return
        self.full_asked = time.monotonic()
        await self.frame_send(await self.frame_full(chat=chat))

    async def frame_later(self, wait, chat):
        await asyncio.sleep(wait)
        self.full_later = None
        await self.frame_asked(chat=chat)

    async def frame_full(self, *, chat=False):
        return await in_db_thread(self.frame_render)(chat)

    def frame_render(self, chat):
        """(version, html) of this socket's viewer's whole table, or None if it is gone."""
        rows = table_rows(self.table_id)
        if rows is None:
            return None
        lines = chat_lines(self.table_id, hidden=self.chat_hidden) if chat else None
        # in the viewer's language while the view is built too: some of its words are chosen
        # then (the manager's invite panel names the seats it offers)
        with translation.override(self.lang):
            view = table_view(rows, self.user)
            return view.version, render.frame_full(view, chat=lines)

    async def frame_send(self, frame):
        if frame is None:
            return
        version, html = frame
        self.sent_version = max(self.sent_version, version)
        await self.send(text_data=html)
