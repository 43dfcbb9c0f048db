"""Whether this process's channel layer still delivers, so that its table sockets can heal when
it did not.

Redis's pub/sub keeps nothing. An event published while Redis is away, or before this
process's subscriptions are back after it, is lost for good. A page that stays connected learns
of it only when a later event skips a version, or at its heartbeat; and a page whose turn came
in the lost event hears no later one at all, since the table waits for that very player. So
each daphne sends itself a numbered ping through the layer every OKEY_LAYER_PULSE_SECONDS.
Messages on one Redis connection arrive in order: a ping heard after a gap in the numbers, or
after a send that failed, says the layer lost messages and delivers again, and ``on_heal``
then runs (the table sockets check their tables, games.table.socket). No timing decides it, so a
loop that runs late under load does not set it off.

A process that died between a commit and its event's publish lost that event with the layer
working fine: a Celery worker killed inside a bot's turn, a daphne inside a move. Each asks
every daphne's pulse to heal when it starts again (``heal_ask``, ``HEAL_GROUP``).
"""

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

logger = logging.getLogger(__name__)


HEAL_GROUP = "pulse"


HEAL = {"type": "pulse.heal"}


_pulses: dict = {}  # event loop -> its Pulse: one per process but for tests, which make many


class Pulse:
    def __init__(self, layer, on_heal, seconds: float):
        self.layer, self.on_heal, self.seconds = layer, on_heal, seconds
        self.sent = 0  # the last ping's number
        self.heard = 0  # the last ping heard
        self.lost = False  # a ping was lost since the last one heard in order
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        channel = listener = None
        try:
            while True:
                try:
                    if channel is None:
                        channel = await self.layer.new_channel("pulse.")
                    if listener is None:  # joined, then heard: a failure retries what is left
                        await self.layer.group_add(HEAL_GROUP, channel)
                        listener = asyncio.ensure_future(self.listen(channel))
                        # this process may be a daphne started again after dying mid-move
                        await self.layer.group_send(HEAL_GROUP, HEAL)
                    self.sent += 1
                    await self.layer.send(channel, {"type": "pulse", "n": self.sent})
                except Exception:  # the layer is down: whatever went meanwhile is lost
                    self.lost = True
                await asyncio.sleep(self.seconds)
        finally:
            if listener is not None:
                listener.cancel()

    async def listen(self, channel: str) -> None:
        while True:
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the layer is down: the receive loop reconnects by itself
                self.lost = True
                await asyncio.sleep(self.seconds)
                continue
            if message.get("type") == HEAL["type"]:
                await self.heal("a process started again")
                continue
            n = message.get("n")
            if not isinstance(n, int):
                continue
            if n != self.heard + 1:
                self.lost = True
            self.heard = n
            if self.lost:
                self.lost = False
                await self.heal("the channel layer lost messages")

    async def heal(self, why: str) -> None:
        logger.warning("%s: table sockets check their tables", why)
        try:
            await self.on_heal()
        except Exception:
            logger.exception("healing the table sockets failed")


def pulse_start(on_heal) -> None:
    """Start this loop's pulse, once (a table socket's connect); OKEY_LAYER_PULSE_SECONDS = 0
    leaves it off."""
    seconds = settings.OKEY_LAYER_PULSE_SECONDS
    layer = get_channel_layer()
    if seconds <= 0 or layer is None:
        return
    loop = asyncio.get_running_loop()
    pulse = _pulses.get(loop)
    if pulse is not None and pulse.task is not None and not pulse.task.done():
        return
    for old in [other for other in _pulses if other.is_closed()]:
        del _pulses[old]
    pulse = _pulses[loop] = Pulse(layer, on_heal, seconds)
    pulse.task = loop.create_task(pulse.run())


def heal_ask() -> None:
    """Ask every daphne's table sockets to check their tables (from sync code: a worker's
    start). A layer that is down cannot carry it: the pulses see that themselves."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(HEAL_GROUP, HEAL)
    except Exception:
        logger.exception("asking the table sockets to check their tables failed")
