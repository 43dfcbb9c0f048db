"""Which request, socket or task a log line belongs to.

A context variable holds the id of what the current code serves: an HTTP request or a socket
(``ConnectionIds``, in front of the ASGI application; a request's id is also answered in
X-Request-ID) or a Celery task (okeysite.celery). ``ContextFilter`` copies it onto
every log record, where the JSON formatter of production (settings.LOGGING) writes it out.
Context variables follow the code into ``sync_to_async`` threads and asyncio tasks.
"""

import contextvars
import logging
import re
import uuid

_current: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "okey_log_context", default=None
)
FIELDS = ("request_id", "socket_id", "task_id")
_CLIENT_ID = re.compile(r"[A-Za-z0-9._-]{8,64}")  # a proxy's own X-Request-ID is kept


def _id_set(field: str, value: str):
    return _current.set((field, value))


def request_id_set(value: str):
    return _id_set("request_id", value)


def socket_id_set(value: str):
    return _id_set("socket_id", value)


def task_id_set(value: str):
    return _id_set("task_id", value)


def new_id() -> str:
    return uuid.uuid4().hex[:16]


class ContextFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        current = _current.get()
        for field in FIELDS:
            if not hasattr(record, field):
                setattr(
                    record, field, (current[1] or None) if current and current[0] == field else None
                )
        return True


class ConnectionIds:
    """ASGI middleware in front of the site: each HTTP request gets an id (a proxy's own
    X-Request-ID is kept), answered in X-Request-ID, and each socket an id, for every log line
    written while serving it, Django's own (such as "Not Found") included."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            socket_id_set(new_id())
            return await self.app(scope, receive, send)
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        given = next((v for k, v in scope.get("headers", ()) if k == b"x-request-id"), b"")
        given = given.decode("latin-1")
        request_id = given if _CLIENT_ID.fullmatch(given) else new_id()
        request_id_set(request_id)

        async def send_with_id(message):
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", ()) if h[0].lower() != b"x-request-id"]
                headers.append((b"x-request-id", request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        return await self.app(scope, receive, send_with_id)
