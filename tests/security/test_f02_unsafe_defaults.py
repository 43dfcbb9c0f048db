"""Finding 2: no public secret key, and a site running with DEBUG on serves loopback only."""

import asyncio
import stat
import sys

import pytest
from asgiref.testing import ApplicationCommunicator

from tests.test_settings import run

PUBLIC_DEFAULT = "dev-only-insecure-key-do-not-use-in-production"
KEY = "from django.conf import settings; print(settings.SECRET_KEY)"


def key_in(tmp_path) -> str:
    """The secret key of an installation whose var/ is tmp_path/var."""
    proc = run([sys.executable, "-c", "import django; django.setup(); " + KEY], {}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_with_nothing_configured_each_installation_gets_its_own_secret_key(tmp_path):
    first, again, other = key_in(tmp_path), key_in(tmp_path), key_in(tmp_path / "other")
    assert first != PUBLIC_DEFAULT and len(first) >= 50
    assert again == first  # kept: sessions and links survive a restart
    assert other != first
    key_file = tmp_path / "var" / "secret_key"
    assert key_file.read_text().strip() == first
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def asgi_answer(scope_type: str, client: str, settings) -> object:
    from okeysite.asgi import application

    scope = {
        "type": scope_type,
        "path": "/no-such-page/" if scope_type == "http" else "/ws/table/1/",
        "raw_path": b"/",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")],
        "client": (client, 40000),
        "server": ("127.0.0.1", 8000),
        "method": "GET",
        "scheme": "http" if scope_type == "http" else "ws",
        "http_version": "1.1",
        "asgi": {"version": "3.0"},
        "subprotocols": [],
    }

    async def exchange():
        comm = ApplicationCommunicator(application, scope)
        if scope_type == "http":
            await comm.send_input({"type": "http.request", "body": b""})
            start = await comm.receive_output(10)
            await comm.wait(10)
            return start["status"]
        await comm.send_input({"type": "websocket.connect"})
        answer = await comm.receive_output(10)
        await comm.wait(10)
        return answer["type"]

    return asyncio.run(exchange())


@pytest.mark.django_db(transaction=True)
def test_debug_on_refuses_a_client_that_is_not_on_loopback(settings):
    settings.DEBUG = True
    assert asgi_answer("http", "203.0.113.7", settings) == 403
    assert asgi_answer("websocket", "203.0.113.7", settings) == "websocket.close"
    assert asgi_answer("http", "127.0.0.1", settings) == 404
    assert asgi_answer("http", "::1", settings) == 404


@pytest.mark.django_db(transaction=True)
def test_debug_off_serves_every_client(settings):
    settings.DEBUG = False
    assert asgi_answer("http", "203.0.113.7", settings) == 404
