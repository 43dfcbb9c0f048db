"""A page that stays connected gets an event that was lost (games.realtime.pulse): Redis's pub/sub keeps
nothing, so a move made while it was away reached no socket; and a worker killed between a
commit and its publish lost that move's event with Redis working."""

import asyncio
import time
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from celery.signals import worker_process_init
from django.test import override_settings

from games.engine import format_tile
from games.table.moves import move_submit
from games.timers import tasks as worker_tasks
from tests.games.conftest import game_started, table_full
from tests.games.helpers import hand_state, version_of
from tests.games.table.test_socket import connect, kind_of, run_async, split_frame
from tests.test_worker_redis_restart import own_redis  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture
def redis_layer(request):
    """The channel layer on a redis-server of this test's own, which it may kill."""
    server = request.getfixturevalue("own_redis")
    layer = {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [f"redis://127.0.0.1:{server.port}/0"]},
    }
    with override_settings(CHANNEL_LAYERS={"default": layer}):
        yield server


async def frame_within(sock, seconds: float) -> str | None:
    """The first full frame the socket receives within ``seconds``, or None."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            frame = await sock.receive_from(timeout=left)
        except TimeoutError:
            return None
        if kind_of(frame) == "full":
            return frame
    return None


@run_async
async def test_a_page_that_stayed_connected_gets_the_move_lost_in_a_redis_restart(
    redis_layer, users, fixed_seed, settings
):
    settings.OKEY_LAYER_PULSE_SECONDS = 0.2
    table = await sync_to_async(lambda: game_started(table_full(users)))()
    socks = [await connect(table, u) for u in users]
    for sock in socks:
        assert kind_of(await sock.receive_from()) == "full"
    await asyncio.sleep(0.5)  # a few pings heard in order: nothing to heal
    for sock in socks:
        assert await sock.receive_nothing(timeout=0.1)

    redis_layer.kill()
    version = await sync_to_async(version_of)(table)
    state = await sync_to_async(hand_state)(table)
    tile = state.racks[state.turn][0]
    await socks[state.turn].send_json_to(
        {"action": "move", "kind": "discard", "tile": format_tile(tile), "version": version}
    )
    await asyncio.sleep(0.5)
    assert await sync_to_async(version_of)(table) == version + 1  # committed, heard by none
    redis_layer.start()

    # the next player, whose turn came with the lost event, sends nothing: it is told
    # (without the pulse, only the page's own heartbeat would find the gap, 15 s on)
    frame = await frame_within(socks[(state.turn + 1) % 4], 6)
    assert frame is not None, "the page never heard of the move made while Redis was away"
    assert split_frame(frame)[2] == version + 1
    assert "draw" in frame.split('data-can="')[1].split('"')[0]  # its turn: it may draw
    for sock in socks:
        await sock.disconnect()


@pytest.mark.usefixtures("in_memory_layer")
@run_async
async def test_a_worker_that_starts_again_has_the_pages_check_their_tables(
    users, fixed_seed, settings
):
    settings.OKEY_LAYER_PULSE_SECONDS = 0.2
    table = await sync_to_async(lambda: game_started(table_full(users)))()
    socks = [await connect(table, u) for u in users]
    for sock in socks:
        assert kind_of(await sock.receive_from()) == "full"
    version = await sync_to_async(version_of)(table)
    state = await sync_to_async(hand_state)(table)
    # a move committed whose event never went out: the worker playing it died before the publish
    with mock.patch("games.table.moves.move_publish"):
        await sync_to_async(move_submit)(
            table_id=table.pk,
            seat=state.turn,
            move={"kind": "discard", "tile": format_tile(state.racks[state.turn][0])},
            expected_version=version,
            auto=True,
        )
    watcher = socks[(state.turn + 1) % 4]
    assert await watcher.receive_nothing(timeout=0.5)

    # the worker's new process: its task modules are loaded (worker_tasks connects the handler)
    assert worker_tasks.tables_heal_ask in [r() for _key, r in worker_process_init.receivers]
    await sync_to_async(worker_process_init.send)(sender=None)
    frame = await frame_within(watcher, 3)
    assert frame is not None and split_frame(frame)[2] == version + 1
    for sock in socks:
        await sock.disconnect()
