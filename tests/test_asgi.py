"""The ASGI application: WebSockets only from the site's own origins; each HTTP request's database
connections closed at its end."""

import asyncio
import gc
import time

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from channels.testing import WebsocketCommunicator

from games.table.create import table_create
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


@pytest.mark.django_db(transaction=True)
def test_an_http_requests_database_connection_is_closed_when_it_ends(django_user_model):
    """Under ASGI each request runs in a thread of its own, so a connection kept for reuse was
    never reused: it stayed open until the garbage collector found it, and a burst of requests
    ran PostgreSQL out of connections (okeysite.request_connections)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("counts PostgreSQL's connections")
    user = django_user_model.objects.create_user(username="reader", email="r@example.com")
    table = table_create(manager=user, options={})

    def backends() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            )
            return cursor.fetchone()[0]

    async def page() -> int:
        scope = {
            "type": "http", "method": "GET", "path": f"/table/{table.pk}/", "query_string": b"",
            "headers": [(b"host", b"127.0.0.1")], "client": ("127.0.0.1", 5000),
            "server": ("127.0.0.1", 80),
        }  # fmt: skip
        request = ApplicationCommunicator(application, scope)
        await request.send_input({"type": "http.request", "body": b""})
        start = await request.receive_output(10)
        await request.receive_output(10)  # the body
        await request.wait(10)  # the request's end, where its connections close
        return start["status"]

    before = backends()
    gc.disable()  # what the collector would have found late, it must not find here
    try:
        statuses = [async_to_sync(page)() for _ in range(5)]
        time.sleep(0.5)  # a closed connection's server process takes a moment to go
        after = backends()
    finally:
        gc.enable()
    assert statuses == [200] * 5 and after <= before
