"""The production layout (deploy/supervisord.conf) runs as README.md's production section says:
the release step, then supervisord with two daphnes on one shared socket, the Celery worker,
the reviews' and the mail's workers and beat (tests/deploy/site.py). Two players of one table,
connected to different daphne processes, play a move across them; a killed worker is started
again by supervisord.
"""

import asyncio
import os
import signal
import time

import psutil
import pytest

from bench.loadlib.frames import frame_parse
from bench.loadlib.procs import program_commands
from tests.bench.test_scaleout import cookie_of, play_between
from tests.deploy.site import VENV, Site, site_run
from tests.games.conftest import SEED_HEX, game_started, table_full

connect = pytest.importorskip("websockets.asyncio.client").connect

pytestmark = pytest.mark.redis


@pytest.fixture
def production(transactional_db, tmp_path, settings):
    with site_run(tmp_path, settings) as site:
        yield site


def web_pids(site: Site) -> list[int]:
    return [site.pid("web:web0"), site.pid("web:web1")]


def serving_pid(ws, pids: list[int]) -> int:
    """Which daphne accepted ``ws``: the one holding the server end of its TCP connection."""
    here = ws.local_address[1]
    for pid in pids:
        for c in psutil.Process(pid).net_connections(kind="tcp"):
            if c.raddr and c.raddr.port == here and c.laddr.port == ws.remote_address[1]:
                return pid
    raise AssertionError(f"no daphne of {pids} holds the connection from port {here}")


async def play_across(site: Site, table_id: int, cookies: list[str]) -> None:
    pids = web_pids(site)
    assert all(pids) and pids[0] != pids[1]

    async def open_(cookie):
        ws = await connect(
            f"ws://127.0.0.1:{site.env['OKEY_PORT']}/ws/table/{table_id}/?lang=en",
            origin=site.url,
            additional_headers={"Cookie": f"sessionid={cookie}"},
        )
        return ws, frame_parse(await asyncio.wait_for(ws.recv(), 10))

    # The kernel gives each connection to one of the daphnes on the shared socket: connect the
    # second player until a connection lands on the other process than the first player's.
    a, first_a = await open_(cookies[0])
    pid_a = serving_pid(a, pids)
    for _ in range(40):
        b, first_b = await open_(cookies[1])
        pid_b = serving_pid(b, pids)
        if pid_b != pid_a:
            break
        await b.close()
    assert pid_b != pid_a, "every connection went to one daphne"
    try:
        await play_between(a, b, first_a, first_b)  # the move and its answer, across them
    finally:
        await a.close()
        await b.close()


def test_two_webs_play_a_move_across_them_and_a_killed_worker_comes_back(
    production, django_user_model, settings
):
    site = production
    status = site.supervisorctl("status")
    for name in ("web:web0", "web:web1", "worker", "reviews", "mail", "beat"):
        assert any(line.split()[:2] == [name, "RUNNING"] for line in status.splitlines()), status
    daphnes = [psutil.Process(pid).cmdline() for pid in web_pids(site)]
    assert all("--fd" in cmd and "--proxy-headers" not in cmd for cmd in daphnes), daphnes

    settings.OKEY_TEST_SEED_HEX = SEED_HEX  # the deal is made here: the first seat is seat 1
    users = [
        django_user_model.objects.create_user(username=f"d{i}", email=f"d{i}@example.com")
        for i in range(4)
    ]
    table = game_started(table_full(users))
    asyncio.run(play_across(site, table.pk, [cookie_of(u) for u in users[:2]]))

    first = site.pid("worker")
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + 20
    while site.pid("worker") in (0, first):
        assert time.monotonic() < deadline, site.logs()
        time.sleep(0.2)
    site.health_wait(timeout=30)  # the new worker answers the health check's ping
    assert "exited: worker (terminated by SIGKILL" in (site.run_dir / "supervisord.log").read_text()


def test_make_run_runs_production_processes_with_its_own_redis_when_redis_url_is_unset():
    """deploy/dev.conf (bin/run) runs programs.conf's processes with the same commands as
    production, plus bin/announce, plus the private redis-server only when bin/run includes
    redis.conf (REDIS_URL unset)."""
    env = {**os.environ, "OKEY_VENV": str(VENV), "REDIS_SERVER": "/usr/bin/redis-server"}
    production = program_commands(env, config="deploy/supervisord.conf")
    with_redis = program_commands({**env, "OKEY_DEV_INCLUDE": "redis.conf"})
    without = program_commands({**env, "OKEY_DEV_INCLUDE": ""})
    assert set(production) == {"web", "worker", "reviews", "mail", "beat"}
    assert with_redis == {**without, "redis": with_redis["redis"]}
    assert without == {**production, "announce": without["announce"]}
    assert "--unixsocket" in with_redis["redis"] and "bin/announce" in without["announce"]
