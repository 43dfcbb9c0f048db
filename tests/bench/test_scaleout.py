"""Scale-out: two daphne processes share a table through the Redis channel layer. A move made
through one is pushed to the player connected to the other, and back."""

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client

from bench.loadlib.frames import frame_parse
from tests.games.conftest import SEED_HEX, game_started, table_full

ROOT = Path(__file__).resolve().parents[2]
websockets = pytest.importorskip("websockets")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def two_daphnes(transactional_db, tmp_path):
    overrides = {"DATABASES": django_settings.DATABASES}
    env = {**os.environ, "OKEY_LIVE_SETTINGS": json.dumps(overrides, default=str)}
    ports, procs = [free_port(), free_port()], []
    for port in ports:
        log = open(tmp_path / f"daphne-{port}.log", "wb")  # noqa: SIM115
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "tests.browser.asgi_server", str(port)],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        )
    try:
        for port, proc in zip(ports, procs, strict=True):
            deadline = time.monotonic() + 30
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
                    break
                except urllib.error.HTTPError:
                    break  # up (503 without a Celery worker)
                except OSError:
                    assert proc.poll() is None and time.monotonic() < deadline, "no daphne"
                    time.sleep(0.1)
        yield ports
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=10)


def cookie_of(user) -> str:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


async def frame_at_least(ws, version: int):
    while True:
        f = frame_parse(await asyncio.wait_for(ws.recv(), 10))
        if f.version is not None and f.version >= version and f.has_board:
            return f


async def play_across(ports, table_id, cookies):
    from websockets.asyncio.client import connect

    def open_(port, cookie):
        return connect(
            f"ws://127.0.0.1:{port}/ws/table/{table_id}/?lang=en",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": f"sessionid={cookie}"},
        )

    async with open_(ports[0], cookies[0]) as a, open_(ports[1], cookies[1]) as b:
        first_a, first_b = frame_parse(await a.recv()), frame_parse(await b.recv())
        v = first_a.version
        assert first_b.version == v and "discard" in first_a.can  # seat 1 opens the hand
        assert first_a.status == "playing"  # the harness's heartbeat follows it, as table.js's
        await a.send(json.dumps({"action": "move", "kind": "discard", "tile": first_a.rack[0],
                                 "version": v, "key": "scale-1"}))  # fmt: skip
        seen_b = await frame_at_least(b, v + 1)  # through the other daphne
        assert "draw" in seen_b.can  # seat 2's turn now, shown on the second process
        await b.send(json.dumps({"action": "move", "kind": "draw", "version": seen_b.version,
                                 "key": "scale-2"}))  # fmt: skip
        seen_a = await frame_at_least(a, seen_b.version + 1)
        assert seen_a.version == seen_b.version + 1


def test_a_move_through_one_daphne_reaches_a_player_on_the_other(
    two_daphnes, django_user_model, settings
):
    settings.OKEY_TEST_SEED_HEX = SEED_HEX  # the first seat is seat 1
    users = [
        django_user_model.objects.create_user(username=f"s{i}", email=f"s{i}@example.com")
        for i in range(4)
    ]
    table = game_started(table_full(users))
    asyncio.run(play_across(two_daphnes, table.pk, [cookie_of(u) for u in users[:2]]))
