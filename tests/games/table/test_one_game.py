"""One game at a time (OKEY_GAMES_PER_ACCOUNT): a player in a game that counts down or runs is
refused a seat at another table, a start with them seated, quick play and the first hand, each
with the same refusal, which names every table where their games run (issue 42, bugs 2 and 6)."""

import pytest

from games.errors import ServiceError
from games.learn.lesson import lesson_start
from games.lobby.quick import table_quick_join
from games.models import Seat, Table
from games.table.bots import bot_table_create
from games.table.create import table_create
from games.table.lifecycle import table_start
from games.table.seats import seat_leave, seat_take
from tests.games.conftest import game_started, table_full

pytestmark = pytest.mark.django_db


@pytest.fixture
def one_game(settings):
    settings.OKEY_TABLES_PER_ACCOUNT, settings.OKEY_GAMES_PER_ACCOUNT = 5, 1


def refused(call, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as e:
        call(**kwargs)
    return e.value


def test_a_player_in_a_game_cannot_sit_at_another_table(users, one_game, fixed_seed):
    running = game_started(table_full(users[:2], seats=2))
    other = table_create(manager=users[2], options={"seats": 2})
    e = refused(seat_take, table_id=other.pk, user=users[1], index=1)
    assert e.code == "game_running"
    assert e.details["running"] == [{"table": running.pk, "seated": True}]
    assert not Seat.objects.filter(table=other, user=users[1]).exists()
    # once they have left that game, the seat is theirs
    seat_leave(table_id=running.pk, user=users[1])
    seat_take(table_id=other.pk, user=users[1], index=1)


def test_a_start_with_a_player_who_is_in_a_game_elsewhere_is_refused(users, one_game, fixed_seed):
    table = table_create(manager=users[0], options={"seats": 2})
    seat_take(table_id=table.pk, user=users[1], index=1)  # before their other game began
    game_started(table_full([users[1], users[2]], seats=2))
    e = refused(table_start, table_id=table.pk, user=users[0])
    assert e.code == "player_in_game" and "player2" in str(e.message)
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN


def test_quick_play_in_a_game_is_refused_and_names_every_running_table(users, settings, fixed_seed):
    settings.OKEY_TABLES_PER_ACCOUNT, settings.OKEY_GAMES_PER_ACCOUNT = 5, 2
    first = game_started(table_full(users[:2], seats=2))
    watched = bot_table_create(manager=users[0], options={"seats": 2})
    e = refused(table_quick_join, user=users[0], mode="duz")
    assert e.code == "game_running"
    assert e.details["running"] == [
        {"table": watched.pk, "seated": False},
        {"table": first.pk, "seated": True},
    ]
    assert str(first.pk) in str(e.message) and str(watched.pk) in str(e.message)


def test_the_first_hand_is_refused_while_another_game_runs(users, one_game, fixed_seed):
    running = game_started(table_full(users[:2], seats=2))
    e = refused(lesson_start, user=users[0])
    assert e.code == "game_running" and e.details["running"][0]["table"] == running.pk
    assert not Table.objects.filter(options__lesson=True).exists()


def test_the_first_hand_under_way_is_not_refused_as_another_game(users, one_game):
    lesson = lesson_start(users[0])
    assert lesson_start(users[0]) == lesson
