"""The player's socket: every page a signed-in player has open holds one (base.html). It only
listens: it is how the player is online (games.social.presence), and how what concerns them
reaches whatever page they have open (games.social.notices: staff's sanctions, a friend's
invitation, a friend coming online). A guest or a visitor holds none."""

import asyncio
import logging

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from games.realtime.sockets import (
    CLOSE_FLOOD,
    CountedSocket,
    DirectDispatch,
    FloodGuard,
    GoneClientSend,
    in_db_thread,
    scope_language,
)
from games.social.follows import friends_of
from games.social.notices import (
    TEMPLATE,
    notice_group,
    presence_notice_publish,
    sanctions_unseen,
)
from games.social.presence import presence_arrive, presence_depart, presence_gone

logger = logging.getLogger(__name__)

CLOSE_NOT_SIGNED_IN = 4401


def _player(scope):
    user = scope.get("user")
    if user is None or not user.is_authenticated or hasattr(user, "guest"):
        return None
    return user


def presence_tell(user, online: bool) -> None:
    friends = list(friends_of(user.pk).values_list("pk", flat=True))
    presence_notice_publish(friends, user, online)


async def presence_gone_tell(user) -> None:
    try:
        if await presence_gone(user.pk):
            await in_db_thread(presence_tell)(user, False)
    except Exception:
        logger.warning("presence departure not told", exc_info=True)


class PlayerConsumer(CountedSocket, GoneClientSend, DirectDispatch, AsyncWebsocketConsumer):
    async def connect(self):
        self.lang = scope_language(self.scope)
        self.user = await in_db_thread(_player)(self.scope)
        self.flood = FloodGuard()
        self.present = False
        if self.user is None:
            await self.close(code=CLOSE_NOT_SIGNED_IN)
            return
        self.group = notice_group(self.user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # online before the page hears it is connected: a page that sees itself connected can
        # count on its friends seeing it
        arrived = await self.presence_change(presence_arrive)
        await self.accept()
        if arrived:
            await in_db_thread(self.presence_tell)(True)
        unseen = await in_db_thread(self.unseen_render)()
        if unseen:
            await self.send(text_data=unseen)

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.present:
            await self.presence_change(presence_depart)
            # told once the linger is over, if no other page of theirs opened meanwhile; the
            # socket is gone by then, the task is this process's
            asyncio.ensure_future(presence_gone_tell(self.user))

    async def presence_change(self, change) -> bool:
        """Arrive or depart; whether the player came online. Redis away costs the player their
        presence for a while, never their page."""
        self.present = change is presence_arrive
        try:
            return bool(await change(self.user.pk, self.channel_name))
        except Exception:
            logger.warning("presence not recorded", exc_info=True)
            return False

    async def receive(self, text_data=None, bytes_data=None):
        # the page's heartbeat and htmx's own frames are ignored; a flood closes the socket
        if self.flood.hit():
            await self.close(code=CLOSE_FLOOD)

    async def notice(self, event):
        await self.send(text_data=event["html"][self.lang])

    def presence_tell(self, online: bool) -> None:
        presence_tell(self.user, online)

    def unseen_render(self) -> str:
        unseen = sanctions_unseen(self.user)
        with translation.override(self.lang):
            return "".join(render_to_string(f"{TEMPLATE}#sanction", {"s": s}) for s in unseen)


__all__ = ["PlayerConsumer"]
