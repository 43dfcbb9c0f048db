"""A player's arenas in their data export, and what deleting the account does to them."""

import pytest
from django.core.cache import cache

from accounts.deletion import account_delete
from accounts.export import account_export
from games.arena.entrants import entrant_join
from games.arena.reads import standings
from games.models import Entrant
from tests.games.arena.conftest import arena

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_allowances():
    cache.clear()


def test_the_export_lists_the_players_tournaments_with_their_results(players):
    t = arena(name="Pazar arenası")
    entrant_join(tournament_id=t.pk, user=players[0])
    Entrant.objects.filter(user=players[0]).update(
        points=6,
        games=2,
        wins=1,
        results=[{"table": 1, "place": 1, "points": 4, "fire": False, "left": False}],  # fmt: skip
    )
    (line,) = account_export(players[0])["tournaments"]
    assert line["name"] == "Pazar arenası" and line["points"] == 6 and line["games"] == 2
    assert line["results"][0]["place"] == 1
    assert account_export(players[1])["tournaments"] == []


def test_a_deleted_account_leaves_the_pool_and_its_standing_stays_anonymous(players):
    t = arena()
    entrant_join(tournament_id=t.pk, user=players[0])
    Entrant.objects.filter(user=players[0]).update(points=9)
    account_delete(players[0])
    e = Entrant.objects.get(user=players[0])
    assert not e.active and e.points == 9
    (row,) = standings(t)
    assert row.name == "Silinmiş oyuncu" or row.name == "Deleted player"
    assert "arena1" not in row.name
