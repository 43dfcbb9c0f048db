"""The ASGI application: WebSockets only from the site's own origins."""

import asyncio

from channels.testing import WebsocketCommunicator

from okeysite.asgi import application

NO_SUCH_PATH = "/ws/no-such-socket/"


def outcome(origin: bytes) -> str:
    async def attempt():
        communicator = WebsocketCommunicator(
            application, NO_SUCH_PATH, headers=[(b"origin", origin)]
        )
        try:
            connected, _ = await communicator.connect(timeout=3)
            return "accepted" if connected else "refused"
        except ValueError as exc:  # the URL router's answer to an unknown path
            assert "No route found" in str(exc)
            return "routed"

    return asyncio.run(attempt())


def test_websocket_from_a_foreign_origin_is_refused_before_routing():
    assert outcome(b"https://evil.example.com") == "refused"


def test_websocket_from_the_site_passes_the_origin_check():
    assert outcome(b"http://127.0.0.1:8000") == "routed"
