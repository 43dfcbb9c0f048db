"""The lobby's socket: it only listens, and shows the list of tables again when it changes."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from games.lobby.reads import lobby_tables, my_tables
from games.realtime.sockets import (
    CLOSE_FLOOD,
    CountedSocket,
    DirectDispatch,
    FloodGuard,
    GoneClientSend,
    in_db_thread,
    scope_language,
)
from games.table.publish import LOBBY_GROUP


class LobbyConsumer(CountedSocket, GoneClientSend, DirectDispatch, AsyncWebsocketConsumer):
    async def connect(self):
        self.lang = scope_language(self.scope)
        self.user = self.scope.get("user")
        self.flood = FloodGuard()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.send(text_data=await in_db_thread(self.tables_render)())

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        # the lobby socket only listens; a client that talks too much is closed
        if self.flood.hit():
            await self.close(code=CLOSE_FLOOD)

    async def lobby_changed(self, event):
        await self.send(text_data=await in_db_thread(self.tables_render)())

    def tables_render(self) -> str:
        with translation.override(self.lang):
            return render_to_string(
                "games/lobby.html#tables",
                {"tables": lobby_tables(self.user), "user": self.user},
            ) + render_to_string("games/lobby.html#my_tables", {"my_tables": my_tables(self.user)})
