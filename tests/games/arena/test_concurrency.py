"""Ticks, joins and games ending at the same moment (PostgreSQL, where the row locks are real):
nobody is ever seated at two tables, and every game counts once."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games.arena.entrants import entrant_join, entrant_pause
from games.arena.results import tournament_game_count
from games.arena.rounds import tournament_pair
from games.models import Entrant, Seat, Table
from tests.games.arena.conftest import arena
from tests.games.table.test_concurrency import pytestmark as concurrency_marks
from tests.games.table.test_concurrency import race

pytestmark = concurrency_marks


@pytest.fixture(autouse=True)
def _fresh_allowances():
    cache.clear()


@pytest.mark.parametrize("round_", range(3))
def test_ticks_racing_joins_and_pauses_never_seat_anyone_twice(players, round_):
    t = arena()
    for u in players[:6]:
        entrant_join(tournament_id=t.pk, user=u)
    later = timezone.now() + timedelta(seconds=1)
    results = race(
        [
            lambda: tournament_pair(tournament_id=t.pk, now=later),
            lambda: tournament_pair(tournament_id=t.pk, now=later),
            lambda: entrant_join(tournament_id=t.pk, user=players[6]),
            lambda: entrant_join(tournament_id=t.pk, user=players[7]),
            lambda: entrant_pause(tournament_id=t.pk, user=players[0]),
        ]
    )
    assert not any(isinstance(r, Exception) for r in results), results
    seats = list(Seat.objects.filter(table__tournament=t, user__isnull=False))
    assert len(seats) == len({s.user_id for s in seats})  # nobody at two tables
    for e in Entrant.objects.filter(tournament=t, table__isnull=False):
        assert Seat.objects.filter(table_id=e.table_id, user_id=e.user_id).exists()
    assert Table.objects.filter(tournament=t).count() == results[0] + results[1]


def test_two_games_ending_together_each_count_once(players):
    t = arena()
    for u in players:
        entrant_join(tournament_id=t.pk, user=u)
    assert tournament_pair(tournament_id=t.pk) == 2
    tables = list(Table.objects.filter(tournament=t).order_by("pk"))

    def ended(table):
        users = [s.user_id for s in table.seats.order_by("index")]
        results = {"places": [1, 2, 3, 4], "players": [{"user": u} for u in users]}

        def count():  # as the table's results do: in their transaction
            with transaction.atomic():
                return tournament_game_count(t.pk, table.pk, results)

        return count

    assert race([ended(tables[0]), ended(tables[1])]) == [4, 4]
    assert race([ended(tables[0]), ended(tables[1])]) == [0, 0]  # already counted: nobody there
    assert sorted(Entrant.objects.filter(tournament=t).values_list("points", flat=True)) == [
        0, 0, 1, 1, 2, 2, 4, 4,
    ]  # fmt: skip
