import hashlib

import pytest

from games import engine
from games.errors import ServiceError
from games.models import Game, Hand, Seat, Table
from games.table.create import table_create
from games.table.lifecycle import game_start, table_start
from games.table.seats import seat_leave, seat_take
from tests.games.conftest import game_started, table_full
from tests.games.helpers import current_hand, deadline_tasks_patch, version_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """Every broadcast and every task sent on commit, in order."""
    calls = []

    def table_changed(table_id, version, lobby=False):
        calls.append(("table", table_id, version))
        if lobby:
            calls.append(("lobby",))

    monkeypatch.setattr("games.table.changes.table_changed_publish", table_changed)
    monkeypatch.setattr("games.table.create.lobby_publish", lambda: calls.append(("lobby",)))
    monkeypatch.setattr("games.table.chat.chat_publish", lambda t, m: calls.append(("chat", t)))
    deadline_tasks_patch(
        monkeypatch,
        lambda args, countdown=None: calls.append((args[0], args[1:], countdown)),
    )
    return calls


def test_table_create_seats_the_manager_and_announces_the_table(
    users, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table = table_create(manager=users[0], options={"seats": 3, "turn_seconds": 20})
    assert table.options["seats"] == 3 and table.options["turn_seconds"] == 20
    assert [s.user for s in table.seats.order_by("index")] == [users[0], None, None]
    assert table.game.version == 1 and table.status == Table.Status.OPEN
    assert sent == [("lobby",)]


@pytest.mark.parametrize(
    "options",
    [{"seats": 5}, {"turn_seconds": 5}, {"mode": "esli", "seats": 3}, {"colour": "red"}],
)
def test_table_create_refuses_options_out_of_range(users, options):
    with pytest.raises(ServiceError) as e:
        table_create(manager=users[0], options=options)
    assert e.value.code == "bad_options"
    assert not Table.objects.exists() and not Game.objects.exists()


def test_seat_take_sits_a_player_and_counts_a_version(
    users, sent, django_capture_on_commit_callbacks
):
    table = table_create(manager=users[0], options={})
    with django_capture_on_commit_callbacks(execute=True):
        version = seat_take(table_id=table.pk, user=users[1], index=2)
    assert version == 2
    assert Seat.objects.get(table=table, index=2).user == users[1]
    assert sent == [("table", table.pk, 2), ("lobby",)]


def test_seat_take_moves_a_player_who_already_sits_there(users):
    table = table_create(manager=users[0], options={})
    seat_take(table_id=table.pk, user=users[1], index=1)
    seat_take(table_id=table.pk, user=users[1], index=3)
    assert list(table.seats.filter(user=users[1]).values_list("index", flat=True)) == [3]


@pytest.mark.parametrize(
    "table_id, index, code",
    [
        (None, 0, "seat_taken"),
        (None, 7, "no_seat"),
        (None, "1", "no_seat"),
        (999999, 1, "no_table"),
    ],
)
def test_seat_take_refusals_change_nothing(users, table_id, index, code):
    table = table_create(manager=users[0], options={})
    with pytest.raises(ServiceError) as e:
        seat_take(table_id=table_id or table.pk, user=users[1], index=index)
    assert e.value.code == code
    assert version_of(table) == 1
    assert not table.seats.filter(user=users[1]).exists()


def test_seat_take_refuses_a_stale_version(users):
    table = table_create(manager=users[0], options={})
    seat_take(table_id=table.pk, user=users[1], index=1)
    with pytest.raises(ServiceError) as e:
        seat_take(table_id=table.pk, user=users[2], index=2, expected_version=1)
    assert e.value.code == "stale"


def test_seat_leave_during_the_countdown_stops_it(users):
    # without bots to fill the seat (with them, see tests/games/test_bots.py)
    table = table_full(users, bots_fill=False)
    table_start(table_id=table.pk, user=users[0])
    version = seat_leave(table_id=table.pk, user=users[3])
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN and table.start_at is None
    # the countdown's task still fires, sees the table moved on and does nothing
    assert not game_start(table_id=table.pk, expected_version=version - 1)
    assert not Hand.objects.exists()


def test_table_start_is_for_the_manager_with_every_seat_taken(users):
    # a table whose empty seats bots may not fill (with them, see tests/games/test_bots.py)
    table = table_create(manager=users[0], options={"seats": 2, "bots_fill": False})
    with pytest.raises(ServiceError) as e:
        table_start(table_id=table.pk, user=users[0])
    assert e.value.code == "seats_empty"
    seat_take(table_id=table.pk, user=users[1], index=1)
    with pytest.raises(ServiceError) as e:
        table_start(table_id=table.pk, user=users[1])
    assert e.value.code == "not_manager"
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_table_start_schedules_the_deal_ten_seconds_later(
    users, sent, django_capture_on_commit_callbacks
):
    table = table_full(users)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        version = table_start(table_id=table.pk, user=users[0])
    table.refresh_from_db()
    assert table.status == Table.Status.STARTING and table.start_at is not None
    assert (table.start_at - table.game.started if table.game.started else None) is None
    assert ("start", (table.pk, version), 10) in sent
    assert ("table", table.pk, version) in sent
    assert not Hand.objects.exists()


def test_game_start_deals_with_a_published_commitment_only(users, fixed_seed):
    table = game_started(table_full(users))
    hand = current_hand(table)
    assert table.status == Table.Status.PLAYING
    assert hand.number == 1 and hand.first_seat == 0
    assert hand.commitment == hashlib.sha256(fixed_seed).hexdigest()
    assert bytes(hand.seed) == fixed_seed
    state = engine.hand_from_dict(hand.state)
    assert [len(r) for r in state.racks] == [15, 14, 14, 14]
    assert fixed_seed.hex() not in str(hand.state)


def test_game_start_twice_deals_once(users):
    table = table_full(users)
    version = table_start(table_id=table.pk, user=users[0])
    assert game_start(table_id=table.pk, expected_version=version)
    assert not game_start(table_id=table.pk, expected_version=version)
    assert Hand.objects.count() == 1


def test_random_seeds_without_the_test_setting(users):
    a = game_started(table_full(users))
    b = game_started(table_full(users))
    assert current_hand(a).seed != current_hand(b).seed
    assert len(bytes(current_hand(a).seed)) == 32


def test_seat_take_refused_once_the_game_is_on(users, django_user_model):
    table = game_started(table_full(users))
    late = django_user_model.objects.create_user(username="late", email="late@example.com")
    with pytest.raises(ServiceError) as e:
        seat_take(table_id=table.pk, user=late, index=0)
    assert e.value.code == "not_open"
