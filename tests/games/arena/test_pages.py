"""The arena's pages and socket: the list, a tournament's page, join and pause by form and
htmx, the standings pushed to every page (at most once a second), a seated player sent to
their table, a game's end pointing back to the tournament."""

import asyncio
import functools
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from games.arena.entrants import entrant_join
from games.arena.publish import standings_due
from games.arena.rounds import tournament_pair
from games.models import Entrant, Table
from games.routing import websocket_urlpatterns
from tests.games.arena.conftest import arena


@pytest.fixture(autouse=True)
def _fresh_allowances():
    cache.clear()


@pytest.mark.django_db
def test_the_list_shows_running_upcoming_and_finished(client, players):
    arena(name="Running one")
    arena(name="Next week", starts=timezone.now() + timedelta(days=7))
    done = arena(name="Last week", starts=timezone.now() - timedelta(days=7))
    done.finished = done.ends
    done.save()
    html = client.get(reverse("games:tournaments")).content.decode()
    running, upcoming, finished = (
        html.index("Running one"),
        html.index("Next week"),
        html.index("Last week"),
    )
    assert running < upcoming < finished


@pytest.mark.django_db
def test_join_and_pause_by_plain_forms_and_htmx(client, players):
    t = arena()
    client.force_login(players[0])
    page = reverse("games:tournament", args=[t.pk])
    assert "data-arena-join" in client.get(page).content.decode()
    r = client.post(reverse("games:tournament_join", args=[t.pk]))
    assert r.status_code == 302 and Entrant.objects.get(user=players[0]).active
    r = client.post(reverse("games:tournament_pause", args=[t.pk]), HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "data-arena-join" in r.content.decode()
    assert not Entrant.objects.get(user=players[0]).active


@pytest.mark.django_db
def test_a_refusal_is_shown_in_the_players_box(client, players):
    t = arena()
    client.force_login(players[0])
    join = reverse("games:tournament_join", args=[t.pk])
    pause = reverse("games:tournament_pause", args=[t.pk])
    for i in range(12):
        client.post(join if i % 2 == 0 else pause, HTTP_HX_REQUEST="true")
    r = client.post(join, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and 'role="alert"' in r.content.decode()
    assert not Entrant.objects.get(user=players[0]).active


@pytest.mark.django_db
def test_a_visitor_is_sent_to_log_in_and_joins_nothing(client, players):
    t = arena()
    r = client.post(reverse("games:tournament_join", args=[t.pk]))
    assert r.status_code == 302 and "login" in r["Location"]
    assert not Entrant.objects.exists()


@pytest.mark.django_db
def test_the_page_of_a_finished_tournament_shows_its_podium(client, players):
    t = arena(starts=timezone.now() - timedelta(hours=2))
    for i, u in enumerate(players[:4]):
        Entrant.objects.create(tournament=t, user=u, points=10 - i, active=False)
    t.finished = t.ends
    t.save()
    html = client.get(reverse("games:tournament", args=[t.pk])).content.decode()
    assert 'class="podium"' in html
    podium = html[html.index('class="podium"') : html.index("</ol>", html.index('class="podium"'))]
    assert "arena1" in podium and "arena3" in podium and "arena4" not in podium


def run_async(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return async_to_sync(fn)(*args, **kwargs)

    return wrapper


async def connect(t, user):
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/arena/{t.pk}/?lang=en")
    comm.scope["user"] = user if user is not None else AnonymousUser()
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from(timeout=5)
    assert 'id="arena-standings"' in first
    return comm


@pytest.mark.django_db(transaction=True)
@run_async
async def test_standings_are_pushed_to_every_page_at_most_once_a_second(players):
    t = await sync_to_async(arena)()
    socks = [await connect(t, u) for u in players[:2]]
    await sync_to_async(entrant_join)(tournament_id=t.pk, user=players[0])
    for sock in socks:  # the first change of a second goes out at once
        frames = [await sock.receive_from(timeout=5)]
        if 'id="arena-own"' in frames[0]:  # the joiner's own box comes too
            frames.append(await sock.receive_from(timeout=5))
        assert any("arena1" in f and 'id="arena-standings"' in f for f in frames)
    await sync_to_async(entrant_join)(tournament_id=t.pk, user=players[1])
    await socks[1].receive_from(timeout=5)  # players[1]'s own box, at once
    assert await socks[0].receive_nothing(timeout=0.3)  # the standings wait for the second
    await sync_to_async(standings_due)(t.pk)  # the push the task makes a second later
    later = await socks[0].receive_from(timeout=5)
    assert "arena1" in later and "arena2" in later
    for sock in socks:
        await sock.disconnect()


@pytest.mark.django_db(transaction=True)
@run_async
async def test_a_seated_player_is_sent_to_their_table(players):
    t = await sync_to_async(arena)()
    for u in players[:4]:
        await sync_to_async(entrant_join)(tournament_id=t.pk, user=u)
    sock = await connect(t, players[0])
    await sync_to_async(cache.clear)()
    assert await sync_to_async(tournament_pair)(tournament_id=t.pk) == 1
    table = await sync_to_async(Table.objects.get)(tournament=t)
    frames = [await sock.receive_from(timeout=5) for _ in range(2)]
    go = next(f for f in frames if 'id="arena-go"' in f)
    assert f'data-go="/en/table/{table.pk}/"' in go or f'data-go="/table/{table.pk}/"' in go
    await sock.disconnect()


@pytest.mark.django_db
def test_a_tournament_tables_result_points_back_to_the_tournament(client, players):
    t = arena()
    for u in players[:4]:
        entrant_join(tournament_id=t.pk, user=u)
    tournament_pair(tournament_id=t.pk)
    table = Table.objects.get(tournament=t)
    client.force_login(players[0])
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "games/arena.js" in html


@pytest.mark.django_db(transaction=True)
@run_async
async def test_the_pages_hear_of_the_start_from_the_first_tick_after_it(players):
    t = await sync_to_async(arena)(starts=timezone.now() + timedelta(seconds=1))
    sock = await connect(t, None)
    await asyncio.sleep(1.1)
    await sync_to_async(cache.clear)()
    await sync_to_async(tournament_pair)(tournament_id=t.pk)
    frame = await sock.receive_from(timeout=5)
    assert "Ends in" in frame
    await sock.disconnect()
