"""The health checks see each part of production's layout (tests/deploy/site.py: two daphnes,
the workers of each queue, beat), as the issue found they did not:

- a daphne paused with SIGSTOP was invisible, every request to the shared socket reaching the
  other one: each daphne now answers on a socket of its own too, where its probe times out;
- /metrics answered for whichever daphne took the connection: each one's own socket answers
  for that process only, scrape after scrape;
- a killed daphne's socket is taken over by the next one supervisord starts;
- with the live-play worker stopped /healthz stayed 200 (the reviews' worker answered);
- beat stopped, and nothing checked it.
"""

import http.client
import json
import os
import re
import signal
import socket
import time
import urllib.error
import urllib.request

import pytest

from tests.deploy.site import site_run

pytestmark = pytest.mark.redis


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float):
        super().__init__("127.0.0.1", timeout=timeout)  # the Host header: an allowed host
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)


def own_socket_get(site, web: int, path: str, timeout: float = 2.0) -> tuple[int, str]:
    """GET ``path`` from daphne number ``web`` through its own socket (deploy/programs.conf)."""
    conn = UnixHTTPConnection(str(site.run_dir / f"web-{web}.sock"), timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()


def start_time(metrics: str) -> float:
    return float(re.search(r"^process_start_time_seconds (\S+)$", metrics, re.M).group(1))


def deep(site) -> tuple[int, dict]:
    try:
        response = urllib.request.urlopen(site.url + "/healthz", timeout=10)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
    return response.status, json.loads(response.read())


def until(predicate, timeout: float, site) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, site.logs()
        time.sleep(0.3)


def test_each_part_is_seen_by_its_own_check(transactional_db, tmp_path, settings):
    with site_run(tmp_path, settings, BEAT_STALE_SECONDS="4") as site:
        # each daphne answers on its own socket, and its metrics are its own, every time
        for web in (0, 1):
            assert own_socket_get(site, web, "/healthz/live")[0] == 200
            seen = set()
            for _ in range(5):
                status, metrics = own_socket_get(site, web, "/metrics")
                assert status == 200, metrics
                seen.add(start_time(metrics))
            assert len(seen) == 1
        # (the two start times may be equal: supervisord can start both daphnes within the
        # 10 ms the kernel's clock ticks count; that the two sockets are two processes is shown
        # below, where pausing one leaves the other's answering)

        # one daphne paused: its own probe finds it; the other answers, and so does the site
        web0 = site.pid("web:web0")
        os.kill(web0, signal.SIGSTOP)
        try:
            with pytest.raises(TimeoutError):
                own_socket_get(site, 0, "/healthz/live", timeout=1.0)
            assert own_socket_get(site, 1, "/healthz/live")[0] == 200
        finally:
            os.kill(web0, signal.SIGCONT)
        assert own_socket_get(site, 0, "/healthz/live")[0] == 200

        # killed, the next daphne supervisord starts takes over the socket the dead one left
        os.kill(web0, signal.SIGKILL)
        until(lambda: site.pid("web:web0") not in (0, web0), 30, site)

        def answers():
            try:
                return own_socket_get(site, 0, "/healthz/live")[0] == 200
            except OSError:
                return False

        until(answers, 30, site)

        # the live-play worker stopped: named by the deep check, though the others answer
        assert deep(site)[0] == 200
        site.supervisorctl("stop", "worker")
        status, body = deep(site)
        assert status == 503, body
        assert body["worker_celery"] == "error"
        assert body["worker_reviews"] == body["worker_mail"] == body["beat"] == "ok"
        ready = urllib.request.urlopen(site.url + "/healthz/ready", timeout=5)
        assert ready.status == 200  # the balancer keeps the webs
        site.supervisorctl("start", "worker")
        until(lambda: deep(site)[0] == 200, 30, site)

        # beat stopped: its heartbeat grows old
        site.supervisorctl("stop", "beat")
        until(lambda: deep(site)[1]["beat"] == "error", 15, site)
        assert deep(site)[1]["worker_celery"] == "ok"
