"""Who a client is, as ASGI middleware in front of the whole site (HTTP and WebSockets).

``LoopbackOnly``: with DEBUG on (``make run`` with nothing configured) the site answers only
clients on this machine: a debug site shows settings and error details meant for its developer.
"""

import ipaddress

from django.conf import settings


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"  # unix sockets and test clients name no address


class LoopbackOnly:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        client = scope.get("client")
        if (
            scope["type"] in ("http", "websocket")
            and settings.DEBUG
            and client
            and not is_loopback(client[0])
        ):
            await refuse(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def refuse(scope, receive, send) -> None:
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.close", "code": 4403})
        return
    body = b"This site runs with DEBUG on and answers only this machine.\n"
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [(b"content-type", b"text/plain; charset=utf-8")],
        }
    )
    await send({"type": "http.response.body", "body": body})
