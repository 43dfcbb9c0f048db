"""The tournament page's socket: it only listens. It joins the tournament's group in its
language (the standings, the same bytes for every page, at most once a second) and, for a signed-in viewer,
their own group there (their box, and the table they were just seated at)."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from games.arena.publish import arena_group, arena_player_group, standings_html
from games.arena.reads import own_view, tournament_context
from games.models import Tournament
from games.realtime.sockets import (
    CLOSE_FLOOD,
    CountedSocket,
    DirectDispatch,
    FloodGuard,
    GoneClientSend,
    in_db_thread,
    scope_language,
)

CLOSE_NO_TOURNAMENT = 4404


class ArenaConsumer(CountedSocket, GoneClientSend, DirectDispatch, AsyncWebsocketConsumer):
    async def connect(self):
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.user = self.scope.get("user")
        signed_in = self.user is not None and self.user.is_authenticated
        self.lang = scope_language(self.scope)
        self.flood = FloodGuard()
        self.groups_joined = [arena_group(self.tournament_id, self.lang)]
        if signed_in:
            self.groups_joined.append(arena_player_group(self.tournament_id, self.user.pk))
        # join before rendering, so that no change falls between the render and the join
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        html = await in_db_thread(self.everything)()
        if html is None:
            await self.close(code=CLOSE_NO_TOURNAMENT)
            return
        await self.send(text_data=html)

    async def disconnect(self, code):
        for group in getattr(self, "groups_joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if self.flood.hit():  # it only listens; a client that talks too much is closed
            await self.close(code=CLOSE_FLOOD)

    # --- from the groups -------------------------------------------------------------------

    async def arena_standings(self, event):
        """The same bytes for every page of the tournament in this language."""
        await self.send(text_data=event["html"])

    async def arena_own(self, event):
        html = await in_db_thread(self.own)()
        if html:
            await self.send(text_data=html)

    async def arena_seated(self, event):
        with translation.override(self.lang):
            html = render_to_string("games/arena/go.html", {"table_id": event["table"]})
        await self.send(text_data=html)

    # --- renders, in a database thread ------------------------------------------------------

    def tournament(self):
        return Tournament.objects.filter(pk=self.tournament_id).first()

    def standings(self) -> str:
        t = self.tournament()
        if t is None:
            return ""
        with translation.override(self.lang):
            return standings_html(t)

    def own(self, t=None) -> str:
        t = t or self.tournament()
        if t is None or self.user is None or not self.user.is_authenticated:
            return ""
        with translation.override(self.lang):
            ctx = {"t": t, "own": own_view(t, self.user), "user": self.user}
            ctx["state"] = tournament_context(t)["state"]
            return render_to_string("games/arena/own.html", ctx)

    def everything(self) -> str | None:
        t = self.tournament()
        if t is None:
            return None
        return self.standings() + self.own(t)
