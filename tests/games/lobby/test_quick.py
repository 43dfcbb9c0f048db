"""Quick play: one tap seats a player at a table of their mode that is about to start, or opens
one whose empty seats go to bots at the deal."""

from urllib.parse import urlencode

import pytest
from django.urls import reverse

from games.errors import ServiceError
from games.lobby.quick import table_quick_join
from games.models import Seat, Table
from games.table.create import table_create
from games.table.lifecycle import game_start, table_start
from tests.games.conftest import game_started, table_full
from tests.games.helpers import version_of

pytestmark = pytest.mark.django_db


def people_at(table) -> list[int | None]:
    return list(table.seats.order_by("index").values_list("user_id", flat=True))


def test_the_first_player_opens_a_table_that_counts_down_with_its_seats_open(users):
    table = table_quick_join(user=users[0], mode="duz")
    assert table.status == Table.Status.STARTING and table.start_at is not None
    assert table.manager == users[0] and table.options["mode"] == "duz"
    assert people_at(table) == [users[0].pk, None, None, None]
    assert not table.seats.filter(is_bot=True).exists()  # people may still come


def test_the_next_players_of_that_mode_sit_at_it_and_bots_take_the_rest_at_the_deal(users):
    table = table_quick_join(user=users[0], mode="duz")
    assert table_quick_join(user=users[1], mode="duz") == table
    other = table_quick_join(user=users[2], mode="esli")
    assert other != table and other.options["mode"] == "esli"
    assert people_at(table) == [users[0].pk, users[1].pk, None, None]
    # tapping again takes the player back to the table they are at
    assert table_quick_join(user=users[1], mode="duz") == table

    assert game_start(table_id=table.pk, expected_version=version_of(table))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert [s.is_bot for s in table.seats.order_by("index")] == [False, False, True, True]


def test_a_table_the_manager_started_or_a_private_one_is_not_joined(users):
    started = game_started(table_full(users[:2], seats=2))
    private = table_create(manager=users[2], options={"private": True})
    table_start(table_id=private.pk, user=users[2])
    table = table_quick_join(user=users[3], mode="duz")
    assert table not in (started, private)
    assert table.manager == users[3]


def test_bad_input_is_refused_and_changes_nothing(users, django_user_model):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(ServiceError) as e:
        table_quick_join(user=users[0], mode="poker")
    assert e.value.code == "bad_options"
    with pytest.raises(ServiceError) as e:
        table_quick_join(user=AnonymousUser(), mode="duz")
    assert e.value.code == "not_signed_in"
    assert not Table.objects.exists() and not Seat.objects.exists()


def test_a_visitor_who_chose_a_seat_is_seated_after_logging_in(client, users):
    table = table_create(manager=users[0], options={"seats": 2})
    response = client.post(reverse("games:sit", args=[table.pk]), {"seat": "1"})
    following = reverse("games:sit_continue", args=[table.pk])
    assert response.status_code == 302
    assert response["Location"] == reverse("account_login") + "?" + urlencode({"next": following})
    assert people_at(table) == [users[0].pk, None]  # nothing yet
    client.force_login(users[1])
    assert client.get(following)["Location"] == reverse("games:table", args=[table.pk])
    assert people_at(table) == [users[0].pk, users[1].pk]
    # the way back once more (a reload): nothing else happens
    assert client.get(following).status_code == 302
    assert people_at(table) == [users[0].pk, users[1].pk]
