"""Whether this process's channel layer still delivers, so that its table sockets can heal when
it did not.

Redis's pub/sub keeps nothing. An event published while Redis is away, or before this
process's subscriptions are back after it, is lost for good. A page that stays connected learns
of it only when a later event skips a version, or at its heartbeat; and a page whose turn came
in the lost event hears no later one at all, since the table waits for that very player. So
each daphne sends itself a numbered ping through the layer every OKEY_LAYER_PULSE_SECONDS.
Messages on one Redis connection arrive in order: a ping heard after a gap in the numbers, or
after a send that failed, says the layer lost messages and delivers again, and ``on_heal``
then runs (the table sockets check their tables, games.consumers). No timing decides it, so a
loop that runs late under load does not set it off.
"""

import asyncio
import logging

from channels.layers import get_channel_layer
from django.conf import settings

logger = logging.getLogger(__name__)

_pulses: dict = {}  # event loop -> its Pulse: one per process but for tests, which make many


class Pulse:
    def __init__(self, layer, on_heal, seconds: float):
        self.layer, self.on_heal, self.seconds = layer, on_heal, seconds
        self.sent = 0  # the last ping's number
        self.heard = 0  # the last ping heard
        self.lost = False  # a ping was lost since the last one heard in order
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        listener = None
        try:
            while True:
                try:
                    if listener is None:
                        channel = await self.layer.new_channel("pulse.")
                        listener = asyncio.ensure_future(self.listen(channel))
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
            n = message.get("n")
            if not isinstance(n, int):
                continue
            if n != self.heard + 1:
                self.lost = True
            self.heard = n
            if self.lost:
                self.lost = False
                logger.warning("channel layer lost messages: table sockets check their tables")
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


def pulse_stop() -> None:
    """Stop this loop's pulse (a test's end)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    pulse = _pulses.pop(loop, None)
    if pulse is not None and pulse.task is not None:
        pulse.task.cancel()
