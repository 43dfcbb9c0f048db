"""The rematch: every person accepts (bots at once) and the same players start again, one seat
on, with the same options; a decline leaves a seat for someone else; the limits."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.errors import ServiceError
from games.models import Rematch, Table
from games.social.rematch import rematch_accept, rematch_decline, rematch_read
from games.table.changes import table_bump, table_lock
from games.table.lifecycle import game_stop, table_start
from tests.games.conftest import game_started, table_full

pytestmark = pytest.mark.django_db


def finished(users, **options) -> Table:
    table = game_started(table_full(users, **options))
    with transaction.atomic():  # as the last leave or staff end a game
        game, table = table_lock(table.pk)
        game_stop(game, table, timezone.now())
        table_bump(game, lobby=True)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


@pytest.mark.parametrize("mode", ["duz", "esli"])
def test_everyone_accepts_and_the_same_players_start_one_seat_on(
    users, fixed_seed, in_memory_layer, mode
):
    table = finished(users, mode=mode)
    for user in users[:3]:
        rematch_accept(table_id=table.pk, user=user)
        assert Rematch.objects.get(table=table).started is None  # waits for everyone
    rematch_accept(table_id=table.pk, user=users[3])
    new = Rematch.objects.get(table=table).started
    assert new is not None and new.options == table.options
    seated = dict(new.seats.values_list("index", "user_id"))
    # seat 1's player takes the last seat; everyone else moves up one
    assert seated == {0: users[1].pk, 1: users[2].pk, 2: users[3].pk, 3: users[0].pk}
    assert new.status == Table.Status.STARTING  # everyone in: the countdown runs
    if mode == "esli":  # partners stay partners: opposite seats
        assert {seated[0], seated[2]} == {users[1].pk, users[3].pk}


def test_bots_accept_at_once(users, fixed_seed, in_memory_layer):
    table = finished(users[:2], bots_fill=True)  # two people, two bots
    rematch_accept(table_id=table.pk, user=users[0])
    rematch_accept(table_id=table.pk, user=users[1])
    new = Rematch.objects.get(table=table).started
    assert new is not None
    assert sorted(new.seats.filter(is_bot=True).values_list("index", flat=True)) == [1, 2]


def test_a_decline_leaves_the_seat_to_someone_else_and_a_bot_at_the_start(
    users, fixed_seed, in_memory_layer
):
    table = finished(users, bots_fill=True)
    rematch_decline(table_id=table.pk, user=users[2])
    for user in (users[0], users[1], users[3]):
        rematch_accept(table_id=table.pk, user=user)
    new = Rematch.objects.get(table=table).started
    assert new.status == Table.Status.OPEN  # the manager starts when they like
    empty = new.seats.get(user__isnull=True)
    assert empty.index == 1 and not empty.is_bot  # users[2]'s seat one on, free for a spectator
    assert new.manager == users[0]
    table_start(table_id=new.pk, user=users[0])
    empty.refresh_from_db()
    assert empty.is_bot


def test_a_decline_is_remembered_for_a_minute_then_the_player_is_waited_for(
    users, fixed_seed, in_memory_layer
):
    table = finished(users)
    rematch_decline(table_id=table.pk, user=users[3])
    rematch = Rematch.objects.get(table=table)
    rematch.declined[str(users[3].pk)] = (timezone.now() - timedelta(seconds=61)).isoformat()
    rematch.save()
    for user in users[:3]:
        rematch_accept(table_id=table.pk, user=user)
    assert Rematch.objects.get(table=table).started is None  # users[3] is asked again


def test_only_players_of_a_finished_game_answer_and_offers_are_limited(
    users, fixed_seed, in_memory_layer, django_user_model
):
    playing = game_started(table_full(users))
    with pytest.raises(ServiceError) as e:
        rematch_accept(table_id=playing.pk, user=users[0])
    assert e.value.code == "not_finished"
    table = finished(users)
    outsider = django_user_model.objects.create_user("watcher", "w@example.com", "pw-x-12345")
    with pytest.raises(ServiceError) as e:
        rematch_accept(table_id=table.pk, user=outsider)
    assert e.value.code == "not_player"
    rematch_accept(table_id=table.pk, user=users[0])
    rematch_decline(table_id=table.pk, user=users[0])
    rematch_accept(table_id=table.pk, user=users[0])
    rematch_decline(table_id=table.pk, user=users[0])
    with pytest.raises(ServiceError) as e:
        rematch_accept(table_id=table.pk, user=users[0])
    assert e.value.code == "rematch_fast"
    assert users[0].pk not in Rematch.objects.get(table=table).accepted


def test_the_panel_shows_each_seats_answer_and_the_viewers_buttons(
    users, fixed_seed, in_memory_layer
):
    table = finished(users)
    rematch_accept(table_id=table.pk, user=users[0])
    r = rematch_read(table, users[1])
    assert [row["state"] for row in r["rows"]] == ["accepted", "waiting", "waiting", "waiting"]
    assert r["player"] and not r["accepted"] and r["asked"]
    client = Client()
    client.force_login(users[1])
    html = client.get(reverse("games:rematch", args=[table.pk])).content.decode()
    assert "Accept the rematch" in html or "Rövanşı kabul et" in html
    # the others met at this table are a click from their profile (follow, block, report), with
    # the table named; the viewer is not linked to themselves
    for other in (users[0], users[2], users[3]):
        assert f'href="/profile/{other.pk}/?table={table.pk}"' in html
    assert f'href="/profile/{users[1].pk}/' not in html
    response = client.post(reverse("games:rematch_accept", args=[table.pk]))
    assert response.status_code == 200
    assert users[1].pk in Rematch.objects.get(table=table).accepted


def test_a_player_whose_other_game_runs_cannot_accept(users, fixed_seed, in_memory_layer, settings):
    """One game at a time: a player who sat down at another game since cannot rematch."""
    settings.OKEY_GAMES_PER_ACCOUNT = 1
    table = finished(users)
    game_started(table_full([users[0], *users[1:3]], bots_fill=True))
    with pytest.raises(ServiceError) as e:
        rematch_accept(table_id=table.pk, user=users[0])
    assert e.value.code == "game_running"
    rematch_accept(table_id=table.pk, user=users[3])
