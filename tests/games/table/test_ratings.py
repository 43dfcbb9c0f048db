"""Ratings per game (issue 44): a game moves the one rating its variant rates into (Düz and Eşli
Okey the Okey rating, 101 and Eşli 101 the 101 rating) and leaves the other as it was."""

import importlib

import pytest
from django.apps import apps
from django.utils import timezone

from accounts.models import Profile
from accounts.ratings import RATINGS, profile_standing
from games.models import Game, PlayerResult, Table
from games.table.results import results_write
from games.variants import VARIANTS
from tests.games.conftest import game_started, table_full

pytestmark = pytest.mark.django_db


def game_over(table, scores, hands=2):
    """The game as if it had ended after ``hands`` hands with ``scores`` (counts, or 101's
    totals); its results written."""
    game = Game.objects.get(table=table)
    field = table.engine_variant.scores_field
    game.state = {**game.state, field: scores, "hands_played": hands, "over": True}
    game.ended = timezone.now()
    results_write(game, Table.objects.get(pk=table.pk))
    game.save()  # as game_results_record does, for the migration below to read them
    return game.results


def standings(user):
    profile = Profile.objects.get(user=user)
    return {name: profile_standing(profile, r) for name, r in RATINGS.items()}


def test_each_variant_rates_into_a_rating_the_profiles_keep():
    assert all(v.rating in RATINGS for v in VARIANTS.values())
    # Düz and Eşli share one rating, and so do 101 and Eşli 101: one rating per game
    assert VARIANTS["duz"].rating == VARIANTS["esli"].rating == "okey"
    assert VARIANTS["101"].rating == VARIANTS["esli101"].rating == "101"


@pytest.mark.parametrize(
    ("variant", "scores", "moved", "kept"),
    [
        ("duz", [10, 2, 15, 20], "okey", "101"),  # Düz by count: seat 1 first
        ("esli", [20, 2, 20, 2], "okey", "101"),  # Eşli: team B (seats 1, 3) wins
        ("101", [300, 40, 150, 200], "101", "okey"),  # 101 by total, the lowest first
        ("esli101", [300, 40, 150, 20], "101", "okey"),  # team B 60 against team A 450
    ],
)
def test_a_game_moves_its_own_rating_and_leaves_the_other(
    users, fixed_seed, variant, scores, moved, kept
):
    for u in users:  # a standing in the other rating that the game must not touch
        Profile.objects.filter(user=u).update(
            **{RATINGS[kept].points: 7, RATINGS[kept].games: 3, RATINGS[kept].wins: 1}
        )
    table = game_started(table_full(users, variant=variant))
    results = game_over(table, scores)
    assert results["rated"] and any(results["points"])
    for i, u in enumerate(users):
        s = standings(u)
        assert (s[moved].points, s[moved].games) == (results["points"][i], 1)
        assert s[moved].wins == (1 if results["places"][i] == 1 else 0)
        assert (s[kept].points, s[kept].games, s[kept].wins) == (7, 3, 1)
    assert standings(users[1])[moved].wins == 1 and standings(users[1])[moved].points > 0


def test_the_migration_moves_the_101_games_played_before_into_the_101_rating(users, fixed_seed):
    """Before issue 44 every game moved the one rating; the migration takes each 101 game's
    points, game and win out of the Okey columns and into the 101 ones, from its stored
    results, and puts them back when migrated backwards."""
    duz = game_over(game_started(table_full(users, variant="duz")), [10, 2, 15, 20])
    one = game_over(game_started(table_full(users, variant="101")), [300, 40, 150, 200])
    # as the code before issue 44 left the profiles: both games in the Okey rating
    for i, u in enumerate(users):
        won = int(duz["places"][i] == 1) + int(one["places"][i] == 1)
        Profile.objects.filter(user=u).update(
            rating_points=duz["points"][i] + one["points"][i],
            games_played=2,
            wins=won,
            rating101_points=0,
            games101_played=0,
            wins101=0,
        )
    assert PlayerResult.objects.filter(game__table__variant="101").count() == 4
    migration = importlib.import_module("accounts.migrations.0007_profile_rating_101")
    migration.forwards(apps, None)
    for i, u in enumerate(users):
        s = standings(u)
        assert (s["okey"].points, s["okey"].games) == (duz["points"][i], 1)
        assert s["okey"].wins == int(duz["places"][i] == 1)
        assert (s["101"].points, s["101"].games) == (one["points"][i], 1)
        assert s["101"].wins == int(one["places"][i] == 1)
    migration.backwards(apps, None)
    assert standings(users[1])["okey"].games == 2 and standings(users[1])["101"].games == 0
