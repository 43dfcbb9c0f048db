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

from bench.loadlib.frames import FrameState, frame_parse
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


async def fold_until(ws, state: FrameState, done) -> FrameState:
    """Fold the socket's frames into ``state`` until ``done(state)``."""
    while not done(state):
        state.fold(frame_parse(await asyncio.wait_for(ws.recv(), 10)))
    return state


async def play_across(ports, table_id, cookies):
    from websockets.asyncio.client import connect

    def open_(port, cookie):
        return connect(
            f"ws://127.0.0.1:{port}/ws/table/{table_id}/?lang=en",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": f"sessionid={cookie}"},
        )

    async with open_(ports[0], cookies[0]) as a, open_(ports[1], cookies[1]) as b:
        await play_between(a, b, frame_parse(await a.recv()), frame_parse(await b.recv()))


async def play_between(a, b, first_a, first_b) -> None:
    """Seat 1 (socket ``a``) discards and seat 2 (``b``) sees it and draws, which ``a`` sees: each
    socket's first frame given, the deal made with SEED_HEX (seat 1 opens the hand)."""
    assert first_a.full and first_b.full and first_a.me == 0 and first_b.me == 1
    seen_a, seen_b = FrameState(), FrameState()
    seen_a.fold(first_a)
    seen_b.fold(first_b)
    v = seen_a.version
    assert seen_b.version == v and "discard" in seen_a.can_now()  # seat 1 opens the hand
    assert seen_a.status == "playing"  # the harness's heartbeat follows it, as table.js's
    assert seen_a.rack_version == seen_a.moves_version == v and len(seen_a.rack) == 15
    await a.send(json.dumps({"action": "move", "kind": "discard", "tile": seen_a.rack[0],
                             "version": v, "key": "scale-1"}))  # fmt: skip
    # through the other daphne: the move's event, and seat 2's own part (its turn now)
    await fold_until(b, seen_b, lambda s: s.version >= v + 1 and "draw" in s.can_now())
    assert seen_b.version == v + 1 and seen_b.turn == 1
    # the mover hears its move through the group too, and its own rack without the tile
    await fold_until(a, seen_a, lambda s: s.version >= v + 1 and s.rack_version >= v + 1)
    assert len(seen_a.rack) == 14 and seen_a.can_now() == ()
    await b.send(json.dumps({"action": "move", "kind": "draw", "version": seen_b.version,
                             "key": "scale-2"}))  # fmt: skip
    await fold_until(a, seen_a, lambda s: s.version >= v + 2)
    assert seen_a.version == v + 2


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
