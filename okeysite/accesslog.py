"""One log line a request and one a socket, through the site's logging (JSON with DEBUG=0), with
the client's address as the site sees it (behind PROXY_COUNT proxies: okeysite.clients).

daphne's own access log is plain text on stdout with the connection's peer, which behind nginx
is nginx's address: deploy/programs.conf sends it to /dev/null and this writes the line instead.
Health checks and metrics scrapes that succeed, and static files, write nothing: asked every
few seconds or by every page, they would bury the rest (an error among them is logged).
"""

import logging
import time

log = logging.getLogger("okey.access")
QUIET_PREFIXES = ("/healthz", "/metrics", "/static/", "/favicon.ico")


def _client(scope) -> str:
    client = scope.get("client")
    return client[0] if client else "local"  # a unix socket names no peer


def _status(message) -> int:
    """The status an answer's first message gives it (0: none yet)."""
    kind = message["type"]
    if kind == "http.response.start":
        return message["status"]
    if kind == "websocket.accept":
        return 101
    if kind == "websocket.close":
        return 403  # refused before it was accepted
    return 0


class AccessLog:
    """ASGI middleware, inside okeysite.clients.TrustedProxies (which sets the client)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        started = time.monotonic()
        code = 0

        async def send_seen(message):
            # only an answer's first message says its status: every later one (each frame a
            # socket sends, hundreds a second) goes straight through
            nonlocal code
            if not code:
                code = _status(message)
            await send(message)

        try:
            return await self.app(scope, receive, send_seen)
        finally:
            # no answer begun: the client went away first (nginx calls that 499); an error in
            # the site still answers, with its 500
            self.write(scope, code or 499, time.monotonic() - started)

    @staticmethod
    def write(scope, status: int, seconds: float) -> None:
        path = scope.get("path", "")
        if status < 400 and path.startswith(QUIET_PREFIXES):
            return
        method = scope.get("method", "WS") if scope["type"] == "http" else "WS"
        client = _client(scope)
        duration_ms = round(seconds * 1000, 1)
        log.info(
            "%s %s %s %s ms %s",
            method,
            path,
            status,
            duration_ms,
            client,
            extra={
                "method": method,
                "path": path,
                "status": status,
                "duration_ms": duration_ms,
                "client": client,
            },
        )
