"""The player socket and what goes through sockets: presence across processes (Redis), a
friend's coming online, a friend's invitation shown on any page, a block that silences the
blocked player's chat at once, and a suspension that stops an open socket's chat and moves."""

import functools
import json

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings

from games.invites.services import invite_find
from games.models import Follow, Invite, Sanction
from games.routing import websocket_urlpatterns
from games.social.blocks import block_add
from games.social.invitations import friend_invite
from games.social.presence import presence_online
from games.staff.sanctions import account_sanction
from games.table.create import table_create
from tests.games.conftest import game_started, table_full
from tests.games.helpers import hand_state, version_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


def run_async(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return async_to_sync(fn)(*args, **kwargs)

    return wrapper


@pytest.fixture(autouse=True)
def _presence_clear():
    client = redis.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter("presence:*"):
        client.delete(key)
    yield


@pytest.fixture
def friends(users):
    a, b, *_ = users
    Follow.objects.create(follower=a, followed=b)
    Follow.objects.create(follower=b, followed=a)
    return a, b


async def player_socket(user, lang="en"):
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/player/?lang={lang}")
    comm.scope["user"] = user
    connected, _ = await comm.connect()
    assert connected
    return comm


async def table_socket(table, user):
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{table.pk}/?lang=en")
    comm.scope["user"] = user
    assert (await comm.connect())[0]
    await comm.receive_from()  # the whole table
    return comm


async def said(sock, timeout=2) -> str:
    return await sock.receive_from(timeout=timeout)


@pytest.fixture(autouse=True)
def short_linger(monkeypatch):
    from games.social import presence

    monkeypatch.setattr(presence, "LINGER_SECONDS", 0.3)


@run_async
async def test_presence_follows_the_sockets_and_a_friend_hears_of_it(friends):
    a, b = friends
    a_sock = await player_socket(a)
    assert await sync_to_async(presence_online)([a.pk, b.pk]) == {a.pk}
    b_sock = await player_socket(b)
    # a hears at once that b came online: their line on a's friends page, and the live region
    heard = await said(a_sock)
    assert f'id="friend-{b.pk}-online"' in heard and "presence--on" in heard
    assert "is online" in heard
    # a second tab of b: no news; closing one of two leaves b online
    b_tab = await player_socket(b)
    assert await a_sock.receive_nothing(timeout=0.2)
    await b_tab.disconnect()
    assert await sync_to_async(presence_online)([b.pk]) == {b.pk}
    await b_sock.disconnect()
    # going from one page to the next is not leaving: a new page within the linger is no news
    b_next = await player_socket(b)
    assert await a_sock.receive_nothing(timeout=0.6)
    await b_next.disconnect()
    heard = await said(a_sock)
    assert f'id="friend-{b.pk}-online"' in heard and "presence--off" in heard
    assert await sync_to_async(presence_online)([b.pk]) == set()
    await a_sock.disconnect()


@run_async
async def test_presence_of_a_dead_process_goes_stale(friends, monkeypatch):
    """A daphne that dies removes nothing: its sockets' members stop counting once their time
    is past."""
    a, _b = friends
    from games.social import presence

    monkeypatch.setattr(presence, "STALE_SECONDS", 1.5)
    sock = await player_socket(a)
    assert await sync_to_async(presence_online)([a.pk]) == {a.pk}
    import asyncio

    await asyncio.sleep(1.6)
    assert await sync_to_async(presence_online)([a.pk]) == set()
    await sock.disconnect()


@run_async
async def test_a_visitor_or_a_guest_gets_no_player_socket(users):
    from django.contrib.auth.models import AnonymousUser

    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/player/?lang=en")
    comm.scope["user"] = AnonymousUser()
    connected, _ = await comm.connect()
    assert not connected


@run_async
async def test_a_friends_invitation_reaches_their_open_page_and_seats_them(friends, client):
    a, b = friends
    table = await sync_to_async(table_create)(manager=a, options={})
    b_sock = await player_socket(b)
    invite = await sync_to_async(friend_invite)(inviter=a, friend_id=b.pk, table_id=table.pk)
    heard = await said(b_sock)
    assert "invites you to seat 2" in heard and "aria-live" not in heard
    token = heard.split("/invitation/")[1].split("/")[0]
    assert await sync_to_async(invite_find)(token) == invite
    await b_sock.disconnect()

    def sit():
        client.force_login(b)
        return client.post(f"/invitation/{token}/", HTTP_HX_REQUEST="true")

    response = await sync_to_async(sit)()
    assert response.status_code == 204 and response["HX-Redirect"] == f"/table/{table.pk}/"
    assert await sync_to_async(lambda: table.seats.get(index=1).user_id)() == b.pk


def test_only_friends_are_invited_and_a_block_reads_as_no_friendship(users):
    """Leak test: inviting a player who blocked you is answered as inviting a stranger."""
    a, b, c, _ = users
    table = table_create(manager=a, options={})
    Follow.objects.create(follower=a, followed=b)
    Follow.objects.create(follower=b, followed=a)
    Follow.objects.create(follower=a, followed=c)  # one way: not friends
    block_add(user=b, other_id=a.pk)
    answers = set()
    for other in (b, c):
        with pytest.raises(Exception) as e:
            friend_invite(inviter=a, friend_id=other.pk, table_id=table.pk)
        answers.add((e.value.code, str(e.value.message)))
    assert len(answers) == 1
    assert not Invite.objects.exists()


@run_async
async def test_a_block_silences_the_blocked_players_chat_on_the_blockers_open_table(users):
    a, b, c, _d = users
    table = await sync_to_async(table_full)(users)
    a_sock, c_sock = await table_socket(table, a), await table_socket(table, c)
    await b_sock_say(table, b, "first")
    assert "first" in await said(a_sock) and "first" in await said(c_sock)
    await sync_to_async(block_add)(user=a, other_id=b.pk)
    await b_sock_say(table, b, "second")
    assert "second" in await said(c_sock)  # everyone else still reads it
    assert await a_sock.receive_nothing(timeout=0.3)  # never reaches the blocker
    await a_sock.disconnect()
    await c_sock.disconnect()


async def b_sock_say(table, user, text):
    sock = await table_socket(table, user)
    await sock.send_to(text_data=json.dumps({"action": "chat", "text": text}))
    assert text in await said(sock)
    await sock.disconnect()


@run_async
async def test_a_suspension_stops_the_open_socket_at_once(users, fixed_seed, django_user_model):
    """The suspended player's table socket can no longer chat or move, their player socket
    tells them why and until when, and a bot plays their seat."""
    staff = await sync_to_async(django_user_model.objects.create_user)(
        "staff", "staff@example.com", "pw-staff-1234", is_staff=True
    )
    table = await sync_to_async(lambda: game_started(table_full(users, bots_fill=True)))()
    state = await sync_to_async(hand_state)(table)
    turn = state.turn
    player = users[turn]
    sock = await table_socket(table, player)
    notices = await player_socket(player)
    await sync_to_async(account_sanction)(
        staff=staff, user_id=player.pk, kind=Sanction.Kind.SUSPEND, reason="insults", hours=24
    )
    told = await said(notices)
    assert "suspended your account until" in told and "insults" in told
    while True:  # the seat's change reaches the socket: drain it
        if await sock.receive_nothing(timeout=0.3):
            break
        await sock.receive_from()
    await sock.send_to(text_data=json.dumps({"action": "chat", "text": "hello"}))
    refused = await said(sock)
    assert "suspended" in refused and "hello" not in refused
    version = await sync_to_async(version_of)(table)
    tile = "R1"
    await sock.send_to(
        text_data=json.dumps(
            {"action": "move", "kind": "discard", "tile": tile, "version": version}
        )
    )
    refused = await said(sock)
    assert 'id="table-message"' in refused
    seat = await sync_to_async(lambda: table.seats.get(index=turn))()
    assert seat.user_id is None and seat.is_bot
    await sock.disconnect()
    await notices.disconnect()


@run_async
async def test_a_blockers_coming_online_never_reaches_the_blocked_player(friends):
    """Leak test: once b blocked a, b's pages opening tell a nothing."""
    a, b = friends
    await sync_to_async(block_add)(user=b, other_id=a.pk)
    a_sock = await player_socket(a)
    b_sock = await player_socket(b)
    assert await a_sock.receive_nothing(timeout=0.5)
    await b_sock.disconnect()
    assert await a_sock.receive_nothing(timeout=0.8)  # nor their going
    await a_sock.disconnect()


@run_async
async def test_a_warning_given_while_away_is_shown_on_the_next_page_once(users, django_user_model):
    staff = await sync_to_async(django_user_model.objects.create_user)(
        "staff", "staff@example.com", "pw-staff-1234", is_staff=True
    )
    await sync_to_async(account_sanction)(
        staff=staff, user_id=users[1].pk, kind=Sanction.Kind.WARN, reason="be kind"
    )
    sock = await player_socket(users[1])
    told = await said(sock)
    assert "Staff warned you: be kind" in told and 'role="alert"' in told
    await sock.disconnect()
    again = await player_socket(users[1])
    assert await again.receive_nothing(timeout=0.3)
    await again.disconnect()
