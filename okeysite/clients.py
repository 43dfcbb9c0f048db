"""Who a client is, as ASGI middleware in front of the whole site (HTTP and WebSockets).

``TrustedProxies``: behind ``OKEY_PROXY_COUNT`` proxies the client's address is the one the
outermost of them saw, the Nth entry of X-Forwarded-For counted from the right; every entry left
of it was written by the client and could be anything. Every limit by address (log-in, sign-up,
password reset, sockets per address) reads ``scope["client"]`` (REMOTE_ADDR) as set here.

``LoopbackOnly``: with DEBUG on (``make run`` with nothing configured) the site answers only
clients on this machine: a debug site shows settings and error details meant for its developer.
It looks at the connection's own peer, before any proxy header is read.
"""

import ipaddress

from django.conf import settings


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"  # unix sockets and test clients name no address


def forwarded_client(peer: str, xff: str | None, proxies: int) -> str:
    """The client's address behind ``proxies`` proxies, or ``peer`` when the header does not
    show that the request passed all of them."""
    if proxies <= 0 or not xff:
        return peer
    hops = [h.strip() for h in xff.split(",")]
    if len(hops) < proxies:
        return peer
    try:
        return str(ipaddress.ip_address(hops[-proxies]))
    except ValueError:
        return peer


class TrustedProxies:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        proxies = settings.OKEY_PROXY_COUNT
        if proxies and scope["type"] in ("http", "websocket") and scope.get("client"):
            xff = b",".join(
                v for k, v in scope.get("headers", ()) if k.lower() == b"x-forwarded-for"
            )
            peer, port = scope["client"][0], scope["client"][1]
            client = forwarded_client(peer, xff.decode("latin-1") or None, proxies)
            if client != peer:
                scope = dict(scope, client=(client, port))
        await self.app(scope, receive, send)


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
