"""The simulated players of bench/load.py and bench/faults.py: a connection that fails in any way
is counted as an error and tried again, so that one player cannot stop a run."""

import asyncio
import random

import pytest

from bench.loadlib.players import SitePlayer, TablePace
from bench.loadlib.stats import Recorder

pytest.importorskip("websockets")


async def _player_against_dropping_server(seconds: float):
    """A player whose server accepts TCP and closes it before answering the handshake (as
    daphne does with a WebSocket its application has not accepted in time)."""
    attempts = 0

    async def drop(reader, writer):
        nonlocal attempts
        attempts += 1
        await reader.readuntil(b"\r\n\r\n")  # the handshake request, left unanswered
        writer.close()

    server = await asyncio.start_server(drop, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    rec = Recorder()
    player = SitePlayer(
        url=f"ws://127.0.0.1:{port}/ws/table/1/",
        origin=f"http://127.0.0.1:{port}",
        table=1,
        seat=0,
        cookie=None,
        recorder=rec,
        pace=TablePace(rate=0.0, think=0.0),
        rng=random.Random(1),
    )
    stop = asyncio.Event()
    task = asyncio.create_task(player.run(stop))
    await asyncio.sleep(seconds)
    alive = not task.done()
    stop.set()
    await asyncio.wait_for(task, 5)  # ends at the stop, without raising
    server.close()
    await server.wait_closed()
    return alive, attempts, rec


def test_a_dropped_handshake_is_an_error_and_the_player_tries_again():
    alive, attempts, rec = asyncio.run(_player_against_dropping_server(2.5))
    assert alive, "the player ended on a dropped handshake"
    assert attempts >= 2, "the player did not connect again"
    failures = {kind: n for kind, n in rec.errors.items() if "InvalidMessage" in kind}
    assert sum(failures.values()) >= 2, rec.errors


def test_a_site_player_throws_its_loosest_tile_and_never_the_okey():
    """The harness's own cheap choice of a discard: the tile that has no partner in the rack,
    never the okey (a joker) even when it has none, and the rack's own moves still legal."""
    from bench.loadlib.players import loose_tile
    from games import engine

    rack = [
        engine.parse_tile(t) for t in "R1 R2 R3 B7 B8 B9 K10 K11 K12 K13 Y5 B1 K1 Y1 R9".split()
    ]
    okey = engine.parse_tile("Y5")  # alone in the rack, as the tile R9 is
    assert engine.format_tile(loose_tile(rack, okey)) == "R9"
    assert engine.format_tile(loose_tile([*rack[:-1], engine.parse_tile("F")], okey)) != "F"
