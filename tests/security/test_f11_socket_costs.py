"""Finding 11: cheap messages must not cost full table reads, and one user or one address
cannot open sockets without end. A stale move or a mismatched sync gets the whole table at most
once a second; a sync whose version is not a number is refused without a read; sockets are capped per
user and per address (in each daphne process)."""

import time

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

import games.table.reads
from games.routing import websocket_urlpatterns
from games.table.socket import FULL_FRAME_GAP

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


async def connect(table, user, address="198.51.100.7"):
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{table.pk}/?lang=en")
    comm.scope["user"] = user
    comm.scope["client"] = (address, 40000)
    connected, _ = await comm.connect()
    return comm if connected else None


async def drain(comm, expect=1) -> list[str]:
    """The ``expect`` frames that must come (however slow the machine), then any more that
    follow within a quiet spell."""
    out = [await comm.receive_from(timeout=5) for _ in range(expect)]
    while not await comm.receive_nothing(timeout=0.2):
        out.append(await comm.receive_from())
    return out


def full_frames(frames) -> int:
    return sum("data-full" in f for f in frames)


def reads_counted(monkeypatch) -> list:
    reads = []
    table_rows = games.table.reads.table_rows

    def counted(table_id):
        reads.append(table_id)
        return table_rows(table_id)

    monkeypatch.setattr("games.table.socket.table_rows", counted)
    return reads


async def connected_and_counted(table, user, monkeypatch):
    """A socket past its first frame, and the list of the table reads made from then on."""
    comm = await connect(table, user)
    await drain(comm)  # the first frame, which follows the handshake
    return comm, reads_counted(monkeypatch)


def test_stale_moves_and_wrong_syncs_cost_one_full_read_a_second(playing, users, monkeypatch):
    async def body():
        comm, reads = await connected_and_counted(playing, users[1], monkeypatch)
        started = time.monotonic()
        for _ in range(6):
            await comm.send_json_to({"action": "move", "kind": "draw", "version": 1, "key": None})
            await comm.send_json_to({"action": "sync", "version": 1})
        frames = await drain(comm)
        await comm.disconnect()
        return frames, reads, time.monotonic() - started

    frames, reads, seconds = async_to_sync(body)()
    # one a second: on a busy machine the twelve messages may take more than one
    allowed = 1 + int(seconds / FULL_FRAME_GAP)
    assert allowed < 6, "too slow to tell"
    assert full_frames(frames) <= allowed and len(reads) <= allowed
    assert any("table-message" in f for f in frames)  # each stale move is still refused


def test_asked_again_within_the_second_the_table_follows_once(playing, users, monkeypatch):
    async def body():
        comm, reads = await connected_and_counted(playing, users[1], monkeypatch)
        for _ in range(5):
            await comm.send_json_to({"action": "sync", "version": 1})
        try:
            frames = await drain(comm)  # the first at once
            later = await comm.receive_from(timeout=3)  # then one more, when the second is over
            rest = await drain(comm, expect=0)
        finally:
            await comm.disconnect()
        return frames, later, rest, reads

    frames, later, rest, reads = async_to_sync(body)()
    assert full_frames(frames) == 1 and "data-full" in later and full_frames(rest) == 0
    assert len(reads) == 2


def test_a_sync_whose_version_is_no_number_is_refused_without_a_read(playing, users, monkeypatch):
    async def body():
        comm, reads = await connected_and_counted(playing, users[1], monkeypatch)
        for version in ("x", "3", [], 1.5):
            await comm.send_json_to({"action": "sync", "version": version})
        frames = await drain(comm, expect=4)
        await comm.disconnect()
        return frames, reads

    frames, reads = async_to_sync(body)()
    assert reads == [] and full_frames(frames) == 0 and len(frames) == 4


def test_sockets_are_capped_per_user(playing, users, settings):
    settings.OKEY_SOCKETS_PER_USER = 2

    async def body():
        first = await connect(playing, users[0])
        second = await connect(playing, users[0], "198.51.100.8")
        third = await connect(playing, users[0], "198.51.100.9")
        other = await connect(playing, users[1])
        await first.disconnect()
        again = await connect(playing, users[0])
        for comm in (second, other, again):
            await comm.disconnect()
        return third, other, again

    third, other, again = async_to_sync(body)()
    assert third is None and other is not None and again is not None


def test_sockets_are_capped_per_address(playing, settings):
    settings.OKEY_SOCKETS_PER_ADDRESS = 3

    async def body():
        socks = [await connect(playing, AnonymousUser(), "198.51.100.99") for _ in range(4)]
        elsewhere = await connect(playing, AnonymousUser(), "203.0.113.50")
        for comm in [*socks, elsewhere]:
            if comm is not None:
                await comm.disconnect()
        return socks, elsewhere

    socks, elsewhere = async_to_sync(body)()
    assert [s is not None for s in socks] == [True, True, True, False]
    assert elsewhere is not None


def test_a_socket_that_daphne_kills_gives_its_place_back(playing, users, settings):
    """daphne cancels a consumer that is slow to close, and its disconnect handler never runs:
    the player's count must still go down, or their sockets would be refused from then on."""
    settings.OKEY_SOCKETS_PER_USER = 1

    async def body():
        first = await connect(playing, users[0])
        first.future.cancel()  # what daphne does to an instance that took too long
        try:
            await first.future
        except BaseException:  # noqa: BLE001 - the cancellation itself
            pass
        again = await connect(playing, users[0])
        if again is not None:
            await again.disconnect()
        return first, again

    first, again = async_to_sync(body)()
    assert first is not None and again is not None
