"""The table socket: a whole hand played through sockets, every frame checked for secrets."""

import asyncio
import functools
import json
import random
import re
from collections import Counter

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from prometheus_client import REGISTRY

from games import engine
from games.invites.services import invite_cancel, invite_create
from games.realtime.sockets import CLOSE_FLOOD, FLOOD_LIMIT
from games.routing import websocket_urlpatterns
from games.table import render
from games.table.create import table_create
from games.table.lifecycle import game_start, table_start
from games.table.moves import move_submit
from games.table.publish import messages_asend
from games.table.seats import seat_take
from tests.games.conftest import game_started, table_full
from tests.games.helpers import hand_state, random_move, version_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


def run_async(fn):
    """Run an async test body in an event loop (no asyncio plugin needed)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return async_to_sync(fn)(*args, **kwargs)

    return wrapper


TILE = re.compile(r'data-tile="([A-Z0-9]+)"')
VERSION = re.compile(r'<div id="table-version"[^>]*data-version="(\d+)"([^>]*)>')


def split_frame(html: str) -> tuple[list[str], list[str], int | None]:
    """(tiles in #rack-data, every other tile, version) of one frame."""
    rack, rest = [], []
    m = re.search(r'<div id="rack-data".*?</div>', html, re.S)
    if m:
        rack = TILE.findall(m.group(0))
        html = html[: m.start()] + html[m.end() :]
    rest = TILE.findall(html)
    v = VERSION.search(html)
    return rack, rest, int(v.group(1)) if v else None


def kind_of(html: str) -> str:
    """full (a viewer's whole table), event (a move, for everyone), own (a player's rack and
    moves), message, chat."""
    v = VERSION.search(html)
    if v:
        return "full" if "data-full" in v.group(2) else "event"
    if 'id="rack-data"' in html or 'id="my-moves"' in html:
        return "own"
    return "message" if 'id="table-message"' in html else "chat"


def public_tiles(state: engine.HandState) -> Counter:
    """Every tile anyone may see on the board while the hand runs."""
    fmt = engine.format_tile
    seen = [fmt(state.okey)]
    if state.indicator_taken_by is None:
        seen.append(fmt(state.indicator))
    for pile in state.discards:
        shown = pile if state.pairs_declared else pile[-1:]
        seen += [fmt(t) for t in shown]
    if state.pairs_declared:
        # the histories that going for pairs opens show the tiles taken from the piles too:
        # each went down face up before it was taken (docs/rules.md)
        seen += [fmt(t) for _, _, t in state.taken]
    return Counter(seen)


async def connect(table, user):
    app = URLRouter(websocket_urlpatterns)
    comm = WebsocketCommunicator(app, f"/ws/table/{table.pk}/?lang=en")
    comm.scope["user"] = user
    connected, _ = await comm.connect()
    assert connected
    return comm


async def frames_of(sock, quiet=0.05, until=()) -> list[str]:
    """Every frame the socket received until it has had frames of each kind in ``until`` (or
    a full frame, which shows everything) and has then been quiet for ``quiet`` seconds."""
    out = [await sock.receive_from(timeout=5)]
    while not ({kind_of(f) for f in out} >= set(until) or "full" in map(kind_of, out)):
        out.append(await sock.receive_from(timeout=5))
    while not await sock.receive_nothing(timeout=quiet):
        out.append(await sock.receive_from())
    return out


def check_frame(html, viewer, state):
    """The frame shows the viewer's own rack and nothing else of anyone's; its version."""
    rack, rest, version = split_frame(html)
    if state.phase != "over":
        own = [] if viewer is None else [engine.format_tile(t) for t in state.racks[viewer]]
        if 'id="rack-data"' in html:
            assert viewer is not None, "a spectator is sent no rack"
            assert Counter(rack) == Counter(own), "a socket shows its own rack and nothing else"
        assert not Counter(rest) - public_tiles(state), "the board shows only public tiles"
        if kind_of(html) == "full":
            assert Counter(rest) == public_tiles(state)
    return version


def own_in(html: str) -> bool:
    """Whether a frame carries a player's own part (their rack or moves)."""
    return 'id="rack-data"' in html or 'id="my-moves"' in html


def public_part(html: str) -> str:
    """A move's frame without the own part that may follow its public part (and the own part's
    leading white space)."""
    return re.split(r'<div id="(?:rack-data|my-moves)"', html)[0].rstrip()


def move_frames_check(received, viewers, mover, state, version):
    """The frames each page received for one move (``received[i]`` for ``viewers[i]``): within
    the hand, everyone hears the move once, one frame whose public part is the same bytes for
    everyone, followed by the player's own part (their own rack only) when their rack or moves
    changed; at the hand's end, every page shows the whole table again."""
    if state.phase == "over":
        for frames in received:
            assert [kind_of(f) for f in frames] == ["full"]
        return
    public = []
    for frames, viewer in zip(received, viewers, strict=True):
        assert [kind_of(f) for f in frames] == ["event"]
        html = frames[0]
        check_frame(html, viewer, state)
        public.append(public_part(html))
        assert split_frame(html)[2] == version + 1
        if viewer == mover:
            assert own_in(html), "the mover's rack or moves changed"
        if viewer is None:
            assert not own_in(html)
    # the move's public part is the same bytes for everyone at the table
    assert len(set(public)) == 1


class Pages:
    """Table sockets without the sockets: the site's TableConsumer for each viewer, connected
    and sent the layer's messages through its own handlers, here and in order. A group
    message reaches the pages that joined its group; what a page would send its browser is kept
    in ``frames``. The same frames as through daphne and the channel layer, without waiting
    for either: a whole hand's every frame is checked in a second (the socket stack itself:
    test_a_few_moves_through_sockets_never_show_a_foreign_tile)."""

    def __init__(self):
        self.groups: dict[str, list] = {}
        self.consumers = []

    async def group_add(self, group, channel):
        self.groups.setdefault(group, []).append(channel)

    async def group_discard(self, group, channel):
        self.groups.get(group, []).remove(channel)

    async def open(self, table, user, lang="en") -> list[str]:
        """A page of ``user``'s (a consumer connected to the table); its frames, as sent."""
        from games.table.socket import TableConsumer

        consumer, frames = TableConsumer(), []

        async def base_send(message):
            if message["type"] == "websocket.send":
                frames.append(message["text"])

        consumer.scope = {
            "type": "websocket", "user": user, "query_string": f"lang={lang}".encode(),
            "url_route": {"kwargs": {"table_id": table.pk}},
        }  # fmt: skip
        consumer.channel_layer, consumer.channel_name = self, len(self.consumers)
        consumer.base_send = base_send
        self.consumers.append(consumer)
        await consumer.connect()
        return frames

    async def deliver(self, messages):
        for group, message in messages:
            for channel in self.groups.get(group, ()):
                await self.consumers[channel].dispatch(message)

    async def close(self):
        for consumer in self.consumers:
            await consumer.disconnect(1000)


def test_a_hand_published_to_every_page_never_shows_a_foreign_tile(
    users, fixed_seed, monkeypatch, settings
):
    """A whole hand, from its deal to its end, of random moves: every frame a page of each
    player and a spectator's page receive shows its own rack and nothing else of anyone's."""
    settings.OKEY_LAYER_PULSE_SECONDS = 0  # no heartbeat of a layer: there is none here
    table = game_started(table_full(users))
    sent = []
    monkeypatch.setattr("games.table.publish.messages_send", sent.extend)
    pages = Pages()
    viewers = [0, 1, 2, 3, None]
    frames = [async_to_sync(pages.open)(table, u) for u in users]
    frames.append(async_to_sync(pages.open)(table, AnonymousUser()))
    state = hand_state(table)
    for page, viewer in zip(frames, viewers, strict=True):
        assert [kind_of(f) for f in page] == ["full"]
        check_frame(page.pop(), viewer, state)
    rng = random.Random(7)
    version, events = version_of(table), 0
    while state.phase != "over":
        move = random_move(state, rng)
        mover = move.pop("seat")
        move_submit(table_id=table.pk, user=users[mover], move=move, expected_version=version)
        async_to_sync(pages.deliver)(sent)
        sent.clear()
        state = hand_state(table)
        move_frames_check(frames, viewers, mover, state, version)
        for page in frames:
            page.clear()
        events += state.phase != "over"
        version += 1
    assert events > 20
    async_to_sync(pages.close)()


@run_async
async def test_a_few_moves_through_sockets_never_show_a_foreign_tile(users, fixed_seed):
    """The frames of the test above, through the socket stack (the in-memory channel layer and
    Channels' consumers), for the first moves of a hand."""
    table = await sync_to_async(lambda: game_started(table_full(users)))()
    viewers = [0, 1, 2, 3, None]
    socks = [await connect(table, u) for u in users] + [await connect(table, AnonymousUser())]
    state = await sync_to_async(hand_state)(table)
    for sock, viewer in zip(socks, viewers, strict=True):
        html = await sock.receive_from()
        assert kind_of(html) == "full"
        check_frame(html, viewer, state)
    rng = random.Random(7)
    version = await sync_to_async(version_of)(table)
    for _ in range(6):
        move = random_move(state, rng)
        mover = move.pop("seat")
        await socks[mover].send_json_to(
            {"action": "move", **move, "version": version, "key": f"k{version}"}
        )
        # every socket hears the move's event (the mover's with its own part)
        received = [await frames_of(sock, until={"event"}) for sock in socks]
        state = await sync_to_async(hand_state)(table)
        move_frames_check(received, viewers, mover, state, version)
        version += 1
    for sock in socks:
        await sock.disconnect()


@run_async
async def test_a_players_own_part_reaches_each_of_their_tabs_in_its_language(users, fixed_seed):
    """A Turkish tab and an English tab of the same player both hear that it is their turn,
    each in its own language: the part comes rendered in the player's (Turkish), and the
    English tab renders it from the view the message carries."""
    table = await sync_to_async(lambda: game_started(table_full(users)))()
    state = await sync_to_async(hand_state)(table)
    mover, nxt = state.turn, (state.turn + 1) % 4
    tabs = {}
    for lang in ("en", "tr"):
        comm = WebsocketCommunicator(
            URLRouter(websocket_urlpatterns), f"/ws/table/{table.pk}/?lang={lang}"
        )
        comm.scope["user"] = users[nxt]
        assert (await comm.connect())[0]
        await comm.receive_from()  # the full frame
        tabs[lang] = comm
    mover_sock = await connect(table, users[mover])
    await mover_sock.receive_from()
    tile = engine.format_tile(state.racks[mover][0])
    version = await sync_to_async(version_of)(table)
    moves_counted = REGISTRY.get_sample_value("okey_moves_total") or 0
    await mover_sock.send_json_to(
        {"action": "move", "kind": "discard", "tile": tile, "version": version, "key": "t1"}
    )
    own = {}
    for lang, comm in tabs.items():
        frames = await frames_of(comm, until={"event"})
        own[lang] = [f for f in frames if own_in(f)]
        assert len(own[lang]) == 1, [kind_of(f) for f in frames]
    assert "Your turn: draw a tile" in own["en"][0]
    assert "Sıra sizde: taş çekin" in own["tr"][0]
    # /metrics counts the move in this process, wherever it ran
    assert REGISTRY.get_sample_value("okey_moves_total") == moves_counted + 1
    for comm in [*tabs.values(), mover_sock]:
        await comm.disconnect()


@run_async
async def test_a_deal_reaches_each_player_rendered_once_in_their_language(
    users, fixed_seed, monkeypatch
):
    """A change of the table's life (here the deal) shows every page its viewer's whole table.
    Each seated player's is rendered once, where the change was made, in their language, and
    reaches their tabs in it with only their own rack; only a spectator's socket and a tab in
    another language than its player's render theirs themselves."""
    from games.table.socket import TableConsumer

    def english(user):
        user.profile.language = "en"
        user.profile.save(update_fields=["language"])

    for user in users:
        await sync_to_async(english)(user)
    table = await sync_to_async(table_full)(users)
    version = await sync_to_async(table_start)(table_id=table.pk, user=users[0])
    socks = [(await connect(table, u), i) for i, u in enumerate(users)]
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{table.pk}/?lang=tr")
    comm.scope["user"] = users[1]
    assert (await comm.connect())[0]
    socks += [(comm, 1), (await connect(table, AnonymousUser()), None)]
    for sock, _viewer in socks:
        assert kind_of(await sock.receive_from()) == "full"
    rendered = []
    frame_render = TableConsumer.frame_render

    def counted(self, chat):
        rendered.append((self.user.pk, self.lang))
        return frame_render(self, chat)

    monkeypatch.setattr(TableConsumer, "frame_render", counted)
    await sync_to_async(game_start)(table_id=table.pk, expected_version=version)
    state = await sync_to_async(hand_state)(table)
    for sock, viewer in socks:
        frames = await frames_of(sock)
        assert [kind_of(f) for f in frames] == ["full"]
        check_frame(frames[0], viewer, state)
        assert ("deste" if sock is comm else "stock") in frames[0]
        assert (viewer is not None) == ('id="rack-data"' in frames[0])
    assert sorted(rendered, key=str) == sorted([(users[1].pk, "tr"), (None, "en")], key=str)
    for sock, _viewer in socks:
        await sock.disconnect()


def started_after_an_invite(users):
    """A dealt table whose manager (users[0]) invited an address that was then cancelled."""

    table = table_create(manager=users[0], options={})
    for i in (1, 2):
        seat_take(table_id=table.pk, user=users[i], index=i)
    invite = invite_create(
        table_id=table.pk, inviter=users[0], email="friend@example.com", seat_index=3
    )
    invite_cancel(invite_id=invite.pk, user=users[0])
    seat_take(table_id=table.pk, user=users[3], index=3)
    return game_started(table)


@run_async
async def test_a_move_reaches_every_player_and_only_the_manager_sees_the_invites(
    users, fixed_seed, celery_eager
):
    """A move's event is the same for everyone; the invites are the manager's, in the frames
    only the manager's socket renders."""
    table = await sync_to_async(started_after_an_invite)(users)
    socks = [await connect(table, u) for u in users]
    for viewer, sock in enumerate(socks):
        html = await sock.receive_from()
        assert ("friend@example.com" in html) == (viewer == 0), "only the manager sees invites"
    state = await sync_to_async(hand_state)(table)
    tile = engine.format_tile(state.racks[0][0])
    version = await sync_to_async(version_of)(table)
    await socks[0].send_json_to(
        {"action": "move", "kind": "discard", "tile": tile, "version": version, "key": "k1"}
    )
    received = [await frames_of(sock) for sock in socks]
    state = await sync_to_async(hand_state)(table)
    for viewer, frames in enumerate(received):
        for html in frames:
            if kind_of(html) == "event":
                assert check_frame(html, viewer, state) == version + 1
                assert "friend@example.com" not in html
                assert "discarded" in html  # what happened, in words
    for sock in socks:
        await sock.disconnect()


@run_async
async def test_a_refused_move_is_told_only_to_the_mover(users, fixed_seed):
    table = await sync_to_async(lambda: game_started(table_full(users)))()
    socks = [await connect(table, u) for u in users[:2]]
    for sock in socks:
        await sock.receive_from()
    await socks[1].send_json_to(
        {"action": "move", "kind": "draw", "version": await sync_to_async(version_of)(table)}
    )
    frame = await socks[1].receive_from(timeout=10)
    assert "table-message" in frame and "not your turn" in frame
    assert await socks[0].receive_nothing(timeout=0.2)
    # in the mover's language, wherever the move ran
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{table.pk}/?lang=tr")
    comm.scope["user"] = users[1]
    assert (await comm.connect())[0]
    await comm.receive_from()
    await comm.send_json_to(
        {"action": "move", "kind": "draw", "version": await sync_to_async(version_of)(table)}
    )
    assert "Sıra sizde değil" in await comm.receive_from(timeout=10)
    for sock in [*socks, comm]:
        await sock.disconnect()


@run_async
async def test_a_stale_move_gets_the_current_table(users, fixed_seed):
    table = await sync_to_async(lambda: game_started(table_full(users)))()
    sock = await connect(table, users[0])
    await sock.receive_from()
    state = await sync_to_async(hand_state)(table)
    tile = engine.format_tile(state.racks[0][0])
    await sock.send_json_to({"action": "move", "kind": "discard", "tile": tile, "version": 1})
    refusal, frame = await sock.receive_from(), await sock.receive_from()
    assert kind_of(refusal) == "message" and "has changed" in refusal
    rack, _rest, version = split_frame(frame)
    assert kind_of(frame) == "full" and version == await sync_to_async(version_of)(table)
    assert len(rack) == 15
    await sock.disconnect()


@pytest.mark.parametrize(
    "raw",
    [
        "not json",
        "[1, 2]",
        json.dumps({"action": "fly"}),
        json.dumps({"action": "move", "kind": "draw"}),
        json.dumps({"action": "move", "kind": "discard", "tile": "Q1", "version": 3}),
        json.dumps({"action": "move", "kind": ["x"], "version": 3}),
        json.dumps({"action": ["move"]}),  # found by bench/badinput.py: it closed the socket
        json.dumps({"action": {"a": 1}}),
        json.dumps({"action": "move", "kind": "draw", "version": "²"}),  # a digit, not a number
        "x" * 5000,
    ],
)
@run_async
async def test_bad_socket_input_gets_a_message_and_changes_nothing(users, fixed_seed, raw):
    table = await sync_to_async(lambda: game_started(table_full(users)))()
    sock = await connect(table, users[0])
    await sock.receive_from()
    await sock.send_to(text_data=raw)
    frame = await sock.receive_from()
    assert 'id="table-message"' in frame and "<p>" in frame
    state = await sync_to_async(hand_state)(table)
    assert state.seq == 0
    await sock.disconnect()


@run_async
async def test_a_spectator_cannot_move(users, fixed_seed):
    table = await sync_to_async(lambda: game_started(table_full(users)))()
    sock = await connect(table, AnonymousUser())
    await sock.receive_from()
    await sock.send_json_to(
        {"action": "move", "kind": "pairs", "version": await sync_to_async(version_of)(table)}
    )
    assert "not sitting at this table" in await sock.receive_from()
    await sock.disconnect()


@run_async
async def test_a_flooding_socket_is_closed(users, fixed_seed):
    table = await sync_to_async(lambda: game_started(table_full(users)))()
    sock = await connect(table, users[2])
    await sock.receive_from()
    for _ in range(FLOOD_LIMIT + 5):
        await sock.send_to(
            text_data=json.dumps(
                {"action": "sync", "version": await sync_to_async(version_of)(table)}
            )
        )
    while True:
        out = await sock.receive_output(timeout=3)
        if out["type"] == "websocket.close":
            break
    assert out["code"] == CLOSE_FLOOD


@run_async
async def test_sync_after_a_gap_sends_the_whole_view(users, fixed_seed):
    table = await sync_to_async(lambda: game_started(table_full(users)))()
    sock = await connect(table, users[1])
    await sock.receive_from()
    await sock.send_json_to({"action": "sync", "version": await sync_to_async(version_of)(table)})
    assert await sock.receive_nothing(timeout=0.2)  # up to date: nothing to send
    await sock.send_json_to({"action": "sync", "version": 1})
    rack, _rest, version = split_frame(await sock.receive_from())
    assert version == await sync_to_async(version_of)(table) and len(rack) == 14
    await sock.disconnect()


@run_async
async def test_chat_reaches_every_socket_escaped(users, fixed_seed):
    table = await sync_to_async(lambda: game_started(table_full(users)))()
    a, b = await connect(table, users[0]), await connect(table, users[3])
    await a.receive_from()
    await b.receive_from()
    await a.send_json_to({"action": "chat", "text": "<b>merhaba</b>", "HEADERS": {}})
    for sock in (a, b):
        frame = await sock.receive_from()
        assert "&lt;b&gt;merhaba&lt;/b&gt;" in frame and "<b>merhaba" not in frame
        assert f'data-author="{users[0].pk}"' in frame
        assert 'hx-swap-oob="beforeend"' in frame and 'id="table-board"' not in frame
    await a.disconnect()
    await b.disconnect()


@run_async
async def test_no_such_table_is_refused(users):
    app = URLRouter(websocket_urlpatterns)
    comm = WebsocketCommunicator(app, "/ws/table/999999/")
    comm.scope["user"] = AnonymousUser()
    connected, _ = await comm.connect()
    assert not connected


@run_async
async def test_a_foreign_origin_is_refused(users):
    from okeysite.asgi import application

    table = await sync_to_async(lambda: table_full(users))()
    comm = WebsocketCommunicator(
        application, f"/ws/table/{table.pk}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await comm.connect()
    assert not connected


@run_async
async def test_the_lobby_socket_updates_when_a_seat_is_taken(users):

    table = await sync_to_async(lambda: table_create(manager=users[0], options={}))()
    app = URLRouter(websocket_urlpatterns)
    comm = WebsocketCommunicator(app, "/ws/lobby/?lang=en")
    comm.scope["user"] = users[1]
    assert (await comm.connect())[0]
    assert "1/4" in await comm.receive_from()
    await sync_to_async(seat_take)(table_id=table.pk, user=users[2], index=2)
    assert "2/4" in await comm.receive_from(timeout=3)
    await comm.disconnect()


@run_async
async def test_a_client_gone_while_its_answer_was_made_leaves_the_socket_working(
    users, fixed_seed, monkeypatch
):
    # daphne raises Disconnected on a send after the client closed: the consumer must not end
    # there (its disconnect handler would never run), but go on to its next message
    from autobahn.exception import Disconnected
    from channels.generic.websocket import AsyncWebsocketConsumer

    table = await sync_to_async(lambda: game_started(table_full(users)))()
    sock = await connect(table, users[0])
    await sock.receive_from()
    real_send, gone = AsyncWebsocketConsumer.send, []

    async def send_once_gone(self, *args, **kwargs):
        if not gone:
            gone.append(True)
            raise Disconnected("Attempt to send on a closed protocol")
        return await real_send(self, *args, **kwargs)

    monkeypatch.setattr(AsyncWebsocketConsumer, "send", send_once_gone)
    await sock.send_to(text_data="not json")  # its refusal meets the closed protocol
    await sock.send_json_to({"action": "sync", "version": 0})
    frame = await sock.receive_from()
    assert gone and 'id="table-version"' in frame
    await sock.disconnect()


@run_async
async def test_a_lost_event_shows_as_a_gap_and_a_sync_heals_it(users, fixed_seed, monkeypatch):
    """The channel layer may drop a message: the next event's version then does not follow the
    page's, and the page's sync with its own version gets the whole table."""

    sent = messages_asend
    calls = []

    async def first_lost(messages):
        calls.append(messages)
        if len(calls) > 1:
            await sent(messages)

    table = await sync_to_async(lambda: game_started(table_full(users)))()
    socks = [await connect(table, u) for u in users]
    for sock in socks:
        await sock.receive_from()
    # a socket's move sends what it published from its own loop (games.table.socket)
    monkeypatch.setattr("games.table.publish.messages_asend", first_lost)
    monkeypatch.setattr("games.table.socket.messages_asend", first_lost)
    version = await sync_to_async(version_of)(table)
    rng = random.Random(3)
    for _ in range(2):
        state = await sync_to_async(hand_state)(table)
        move = random_move(state, rng)
        move.pop("seat")
        await socks[state.turn].send_json_to(
            {"action": "move", **move, "version": await sync_to_async(version_of)(table)}
        )
        await asyncio.sleep(0.2)
    watcher = socks[2]
    frames = [f for f in await frames_of(watcher) if kind_of(f) == "event"]
    assert [split_frame(f)[2] for f in frames] == [version + 2]  # version + 1 never came
    await watcher.send_json_to({"action": "sync", "version": version})
    frame = await watcher.receive_from()
    assert kind_of(frame) == "full" and split_frame(frame)[2] == version + 2
    for sock in socks:
        await sock.disconnect()


def views_rendered(monkeypatch) -> list:
    """Every table view rendered whole (the socket's frames and the publish's), as built."""
    seen = []
    frame_full = render.frame_full

    def recorded(view, **kwargs):
        seen.append(view)
        return frame_full(view, **kwargs)

    monkeypatch.setattr(render, "frame_full", recorded)
    monkeypatch.setattr("games.table.publish.frame_full", recorded)
    return seen


def seat_choices(view) -> list[str]:
    return [str(c["label"]) for c in view.invites["choices"]]


@run_async
async def test_a_tabs_table_is_built_in_the_tabs_language(users, monkeypatch):
    """A Turkish manager's tab in English: the invite panel's seats are named in English in the
    view the socket builds (its words are chosen as it is built, not only rendered)."""
    views = views_rendered(monkeypatch)
    table = await sync_to_async(table_create)(manager=users[0], options={"mode": "esli"})
    sock = await connect(table, users[0])  # ?lang=en; the manager's profile says Turkish
    await frames_of(sock)
    assert seat_choices(views[-1]) == [
        "seat 2 (an opponent)", "seat 3 (your partner)", "seat 4 (an opponent)"
    ]  # fmt: skip
    await sock.disconnect()


@run_async
async def test_a_players_table_after_a_seat_is_taken_is_built_in_their_language(users, monkeypatch):
    """The whole table sent to a player's own group after a change of the table's life is
    built in their profile's language, not the site's default."""
    views = views_rendered(monkeypatch)

    def english(user):
        user.profile.language = "en"
        user.profile.save(update_fields=["language"])

    await sync_to_async(english)(users[0])
    table = await sync_to_async(table_create)(manager=users[0], options={"mode": "esli"})
    sock = await connect(table, users[0])
    await frames_of(sock)
    del views[:]
    await sync_to_async(seat_take)(table_id=table.pk, user=users[1], index=1)
    await frames_of(sock)
    managers = [v for v in views if v.me == 0]
    assert managers and seat_choices(managers[0]) == [
        "seat 3 (your partner)",
        "seat 4 (an opponent)",
    ]
    await sock.disconnect()


@run_async
async def test_a_deleted_players_sockets_are_closed_and_hear_nothing_more(users, fixed_seed):
    """Issue 42: a deleted player's open socket still received the table's updates (a private
    table's too). Their sockets close; the others' stay."""
    from accounts.deletion import account_delete

    table = await sync_to_async(lambda: game_started(table_full(users)))()
    gone = await connect(table, users[1])
    stays = await connect(table, users[2])
    await gone.receive_from()
    await stays.receive_from()
    await sync_to_async(account_delete)(users[1])
    while True:
        out = await gone.receive_output(timeout=3)
        if out["type"] == "websocket.close":
            break
    # the table changed (their seat went to a bot): the other player hears of it
    assert "full" in map(kind_of, await frames_of(stays))
    await stays.disconnect()
