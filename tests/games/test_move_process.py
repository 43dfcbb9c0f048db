"""Daphne's move processes (games.sockets) do not outlive a daphne killed outright: each holds a
database connection and a Django's worth of memory."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PARENT = """
import multiprocessing, os, sys, time
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
import django
django.setup()
from django.conf import settings
settings.OKEY_SOCKET_MOVE_PROCESSES = 1
from games import sockets
sockets.move_processes_start()
print(multiprocessing.active_children()[0].pid, flush=True)
time.sleep(120)
"""


def gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")  # exited, waiting to be reaped by whoever adopted it


def test_a_move_process_ends_when_its_daphne_is_killed(tmp_path):
    env = {**os.environ, "OKEY_VAR_DIR": str(tmp_path / "var"), "DEBUG": "1"}
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        child = int(parent.stdout.readline())
        assert not gone(child)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 15
        while not gone(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert gone(child), "the move process outlived its daphne"
    finally:
        parent.kill()
