"""Finding 6: one account cannot fill the lobby or run many games at once; open tables that
never start close by themselves (a periodic Celery task)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import ServiceError
from games.models import Table
from games.table.bots import bot_table_create
from games.table.create import table_create, tables_idle_close
from games.table.lifecycle import table_start
from games.table.seats import seat_leave
from tests.games.conftest import game_started, table_full

pytestmark = pytest.mark.django_db


def test_an_account_has_at_most_a_few_unfinished_tables(users, settings):
    settings.OKEY_TABLES_PER_ACCOUNT = 3
    settings.OKEY_TABLES_CREATED_PER_HOUR = 12
    for _ in range(3):
        table_create(manager=users[0], options={})
    with pytest.raises(ServiceError) as e:
        table_create(manager=users[0], options={})
    assert e.value.code == "too_many_tables"
    with pytest.raises(ServiceError):
        bot_table_create(manager=users[0], options={})
    assert Table.objects.filter(manager=users[0]).count() == 3
    table_create(manager=users[1], options={})  # everyone else still can


def test_a_closed_table_frees_its_place(users, settings):
    settings.OKEY_TABLES_PER_ACCOUNT = 1
    settings.OKEY_TABLES_CREATED_PER_HOUR = 12
    table = table_create(manager=users[0], options={})
    seat_leave(table_id=table.pk, user=users[0])  # the last person left: closed
    table_create(manager=users[0], options={})


def test_creating_tables_is_rate_limited(users, settings):
    settings.OKEY_TABLES_PER_ACCOUNT = 100
    settings.OKEY_TABLES_CREATED_PER_HOUR = 4
    for _ in range(4):
        table = table_create(manager=users[0], options={})
        seat_leave(table_id=table.pk, user=users[0])
    with pytest.raises(ServiceError) as e:
        table_create(manager=users[0], options={})
    assert e.value.code == "tables_too_fast"


def test_an_account_runs_one_game_at_a_time(users, settings, in_memory_layer):
    settings.OKEY_TABLES_PER_ACCOUNT, settings.OKEY_GAMES_PER_ACCOUNT = 3, 1
    game_started(table_full(users))
    lone = table_create(manager=users[0], options={"bots_fill": True})
    with pytest.raises(ServiceError) as e:
        table_start(table_id=lone.pk, user=users[0])
    assert e.value.code == "game_running"
    lone.refresh_from_db()
    assert lone.status == Table.Status.OPEN


def test_an_open_table_that_never_starts_is_closed(
    users, settings, django_capture_on_commit_callbacks
):
    settings.OKEY_OPEN_TABLE_IDLE = timedelta(minutes=30)
    old = table_create(manager=users[0], options={})
    new = table_create(manager=users[1], options={})
    Table.objects.filter(pk=old.pk).update(created=timezone.now() - timedelta(minutes=31))
    with django_capture_on_commit_callbacks():
        assert tables_idle_close() == 1
    old.refresh_from_db(), new.refresh_from_db()
    assert old.status == Table.Status.CLOSED and new.status == Table.Status.OPEN
    assert tables_idle_close() == 0


def test_the_beat_schedule_closes_idle_tables(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["tables-idle-close"]
    assert entry["task"] == "games.tasks.tables_idle_close_task"
