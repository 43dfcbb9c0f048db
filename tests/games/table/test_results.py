"""A game's results as the ratings see them: a player who leaves a rated game while it runs
scores as its loser (docs/rules.md, "Leaving a rated game"); a practice game shows no points."""

import pytest
from django.utils import timezone

from games.errors import ServiceError
from games.models import Game, PlayerResult, Seat, Table
from games.table.create import table_create
from games.table.lifecycle import table_start
from games.table.reads import table_rows, table_view
from games.table.results import results_write
from games.table.seats import seat_leave
from tests.games.conftest import game_started, table_full

pytestmark = pytest.mark.django_db


def game_over(table, counts, hands=2):
    """The game as if it had ended after ``hands`` hands with ``counts``; its results written."""
    game = Game.objects.get(table=table)
    game.state = {**game.state, "counts": counts, "hands_played": hands, "over": True}
    game.ended = timezone.now()
    results_write(game, Table.objects.get(pk=table.pk))
    return game.results


def rating(user):
    user.profile.refresh_from_db()
    return user.profile.rating_points


def test_a_duz_leaver_takes_the_last_place_even_with_the_best_count(users, fixed_seed):
    table = game_started(table_full(users))
    seat_leave(table_id=table.pk, user=users[1])
    seat = Seat.objects.get(table=table, index=1)
    assert seat.user is None and seat.is_bot and seat.left_by == users[1]
    results = game_over(table, [10, 2, 15, 20])  # the leaver's 2 would have won
    assert results["places"] == [1, 4, 2, 3]
    # 2 hands: +2H, +H, -H for the others; the leaver -2 x 8, the last place over the whole game
    assert results["points"] == [4, -16, 2, -2]
    assert results["players"][1] == {"user": users[1].pk, "bot": False, "name": "player2"}
    assert rating(users[1]) == -16 and rating(users[0]) == 4
    assert PlayerResult.objects.get(user=users[1]).place == 4


def test_an_esli_leavers_team_loses(users, fixed_seed):
    table = game_started(table_full(users, mode="esli"))
    seat_leave(table_id=table.pk, user=users[2])  # team A: seats 0 and 2
    results = game_over(table, [1, 20, 1, 20], hands=8)  # team A far ahead
    assert results["points"] == [-8, 8, -8, 8]
    assert (rating(users[0]), rating(users[1]), rating(users[2])) == (-8, 8, -8)


def test_leavers_on_both_esli_teams_make_a_draw(users, fixed_seed):
    table = game_started(table_full(users, mode="esli"))
    seat_leave(table_id=table.pk, user=users[2])
    seat_leave(table_id=table.pk, user=users[1])
    results = game_over(table, [1, 20, 1, 20], hands=8)
    assert results["points"] == [0, -8, -8, 0]  # a draw for the others; each leaver loses
    assert rating(users[2]) == -8 and rating(users[0]) == 0


def test_without_bots_a_leavers_seat_is_played_by_the_timeouts(users, fixed_seed):
    table = game_started(table_full(users, bots_fill=False))
    seat_leave(table_id=table.pk, user=users[3])
    seat = Seat.objects.get(table=table, index=3)
    assert seat.away and not seat.is_bot and seat.left_by == users[3]
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_the_last_person_to_leave_ends_the_game_and_loses_it(users, fixed_seed):
    table = game_started(table_create(manager=users[0], options={"seats": 2}))
    game = Game.objects.get(table=table)
    game.state = {**game.state, "counts": [3, 18], "hands_played": 1}
    game.save(update_fields=["state"])
    seat_leave(table_id=table.pk, user=users[0])
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and not game.results.get("staff")
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    # the last place over the whole game (8 hands), not over the one hand played
    assert game.results["places"] == [2, 1] and rating(users[0]) == -8
    hand = game.hands.get()
    assert hand.over and hand.result["left"] and "staff" not in hand.result


def test_leaving_in_the_first_hand_costs_the_worst_result_of_playing_it_out(users, fixed_seed):
    """Issue 42, bug 4: leaving a rated game against bots in its first hand ended it unrated."""
    table = game_started(table_create(manager=users[0], options={"bots_fill": True}))
    seat_leave(table_id=table.pk, user=users[0])
    game = Game.objects.get(table=table)
    assert game.status == Game.Status.OVER and game.results["rated"] is True
    assert game.results["points"][0] == -16  # 4 players: -2 x 8 hands
    assert rating(users[0]) == -16
    assert PlayerResult.objects.get(user=users[0]).points == -16


@pytest.mark.parametrize(
    ("seats", "mode", "worst"), [(4, "duz", -2), (3, "duz", -1), (2, "duz", -1), (4, "esli", -1)]
)
def test_leaving_never_costs_less_than_the_last_place_of_the_whole_game(
    users, fixed_seed, seats, mode, worst
):
    """Whenever a player leaves and however the game then goes, the worst result of playing it
    out (the last place over all its hands) is what they get."""
    options = {"seats": seats, "mode": mode, "hand_limit": 5}
    table = game_started(table_full(users[:seats], **options))
    seat_leave(table_id=table.pk, user=users[1])
    for hands, counts in ((1, [20, -3, 20, 20]), (5, [30, 2, 40, 41])):
        Game.objects.filter(table=table).update(results=None)
        PlayerResult.objects.filter(game__table=table).delete()
        results = game_over(table, counts[:seats], hands=hands)
        assert results["points"][1] == worst * 5


def test_leaving_a_practice_game_costs_nothing(users, fixed_seed):
    table = game_started(
        table_create(manager=users[0], options={"practice": True, "bots_fill": True})
    )
    seat_leave(table_id=table.pk, user=users[0])
    game = Game.objects.get(table=table)
    assert game.results["rated"] is False and rating(users[0]) == 0


def test_a_practice_game_shows_no_rating_points(users, fixed_seed):
    table = game_started(table_create(manager=users[0], options={"seats": 2, "practice": True}))
    results = game_over(table, [3, 18])
    assert results["rated"] is False and results["points"] == [0, 0]
    assert rating(users[0]) == 0


def test_a_game_left_is_no_longer_the_managers_running_game(users, settings, fixed_seed):
    settings.OKEY_TABLES_PER_ACCOUNT, settings.OKEY_GAMES_PER_ACCOUNT = 3, 1
    running = game_started(table_full(users))
    lone = table_create(manager=users[0], options={"bots_fill": True})
    with pytest.raises(ServiceError) as e:
        table_start(table_id=lone.pk, user=users[0])
    assert e.value.code == "game_running"
    assert e.value.details == {"running": [{"table": running.pk, "seated": True}], "seated": True}
    assert str(running.pk) in str(e.value.message)
    seat_leave(table_id=running.pk, user=users[0])
    table_start(table_id=lone.pk, user=users[0])
    assert Table.objects.get(pk=lone.pk).status == Table.Status.STARTING


def test_a_practice_game_stored_before_the_rated_flag_shows_no_rating_points(users, fixed_seed):
    """Results written before "rated" was stored carry the points the old code gave a practice
    game; its final table must not show them."""
    table = game_started(table_create(manager=users[0], options={"seats": 2, "practice": True}))
    results = game_over(table, [3, 18])
    old = {k: v for k, v in results.items() if k != "rated"} | {"points": [2, -2]}
    Game.objects.filter(table=table).update(results=old)
    view = table_view(table_rows(table.pk), users[0])
    assert view.game_result.rated is False
