"""Finding 5: the client's address is what the configured number of proxies say, counted from
the right of X-Forwarded-For; a header the client wrote itself moves no rate limit."""

import asyncio
import re
import secrets
from pathlib import Path
from urllib.parse import urlencode

import pytest
from asgiref.testing import ApplicationCommunicator

from bench.loadlib.procs import program_commands
from okeysite.clients import TrustedProxies

ROOT = Path(__file__).resolve().parents[2]


def client_seen(count: int, peer: str, xff: str | None, settings) -> str:
    settings.OKEY_PROXY_COUNT = count
    seen = {}

    async def app(scope, receive, send):
        seen["client"] = scope["client"][0]

    headers = [(b"x-forwarded-for", xff.encode())] if xff is not None else []
    scope = {"type": "http", "client": (peer, 5000), "headers": headers}
    asyncio.run(TrustedProxies(app)(scope, None, None))
    return seen["client"]


def test_without_proxies_the_header_is_ignored(settings):
    assert client_seen(0, "198.51.100.4", "1.2.3.4", settings) == "198.51.100.4"


def test_behind_one_proxy_the_rightmost_address_is_the_client(settings):
    assert client_seen(1, "10.0.0.2", "1.2.3.4, 203.0.113.9", settings) == "203.0.113.9"
    assert client_seen(2, "10.0.0.2", "1.2.3.4, 203.0.113.9, 10.0.0.3", settings) == "203.0.113.9"


def test_a_request_that_did_not_pass_every_proxy_keeps_its_peer(settings):
    assert client_seen(2, "10.0.0.2", "203.0.113.9", settings) == "10.0.0.2"
    assert client_seen(1, "10.0.0.2", None, settings) == "10.0.0.2"
    assert client_seen(1, "10.0.0.2", "not an address", settings) == "10.0.0.2"


def test_the_production_web_process_does_not_let_daphne_read_the_header():
    web = program_commands(config="deploy/supervisord.conf")["web"]
    assert "daphne" in web and "--proxy-headers" not in web


def login_through_asgi(xff: str, email: str) -> str:
    from okeysite.asgi import application

    token = secrets.token_hex(16)
    body = urlencode({"login": email, "password": "wrong", "csrfmiddlewaretoken": token}).encode()
    scope = {
        "type": "http", "method": "POST", "path": "/en/accounts/login/", "raw_path": b"",
        "query_string": b"", "scheme": "http", "http_version": "1.1", "asgi": {"version": "3.0"},
        "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000),
        "headers": [
            (b"host", b"127.0.0.1"), (b"x-forwarded-for", xff.encode()),
            (b"cookie", f"csrftoken={token}".encode()),
            (b"content-type", b"application/x-www-form-urlencoded"),
        ],
    }  # fmt: skip

    async def exchange():
        comm = ApplicationCommunicator(application, scope)
        await comm.send_input({"type": "http.request", "body": body})
        await comm.receive_output(20)
        answer = await comm.receive_output(20)
        await comm.wait(20)
        return answer["body"].decode()

    return asyncio.run(exchange())


@pytest.mark.django_db(transaction=True)
def test_a_forged_leftmost_address_does_not_escape_the_log_in_limit(settings):
    settings.OKEY_PROXY_COUNT = 1
    pages = [login_through_asgi(f"10.9.{i}.1, 203.0.113.9", f"p{i}@example.com") for i in range(21)]
    assert not any("Too many failed login attempts" in p for p in pages[:20])
    assert re.search("Too many failed login attempts", pages[20])
