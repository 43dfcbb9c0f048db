"""An HTTP request's database connections are closed when it ends, under ASGI.

Django's ASGI handler runs each request's sync code in a thread of its own
(``ThreadSensitiveContext``), so a connection it keeps for reuse (``CONN_MAX_AGE``) is never
reused: it stayed open, held by the ended thread, until the garbage collector freed it. At 76
requests a second (bench/badinput.py) PostgreSQL ran out of connections and requests failed with
"too many clients". Django's own advice is no persistent connections under ASGI; the sockets'
database threads and the move processes (games.realtime.sockets) are long-lived and keep theirs, so only
requests close theirs, here.
"""

from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished
from django.db import connections


def request_connections_close(**kwargs) -> None:
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def request_connections_close_connect() -> None:
    """Close each request's connections at its end (the ASGI application's start)."""
    request_finished.connect(request_connections_close, sender=ASGIHandler)
