"""The end of a game: final counts, places, Düz or Eşli totals and rating points, stored with the
game, and each person's profile updated exactly once.

The last hand's move only marks the game over; ``game_results_record`` runs right after in a
task (its deadline is the moment the game ended, see games.table.deadlines), or in the sweep
if that task was lost. Exactly once: the results are written in the same transaction as the
profile updates, under the game's lock, and only while the game has none.
"""

from dataclasses import replace

from django.db import transaction
from django.db.models import F
from django.dispatch import Signal

from accounts.models import Profile
from accounts.ratings import Rating, rating_named
from games import engine
from games.models import Game, PlayerResult
from games.names import player_name
from games.table.changes import table_bump, table_lock
from games.variants import variant_for

# Sent once per game, in the transaction that wrote its results, under the table's lock, with
# ``game`` and ``table``: the rooms built on the table (an arena's standings) count the game
# there, exactly once, without the table knowing them.
game_results_written = Signal()


def _leavers_lose(rules: engine.Variant, state, left: set[int]):
    """The game as the ratings see it when the seats in ``left`` were given up while it ran
    (docs/rules.md, "Leaving a rated game"): each leaver's count is raised above every count
    that stayed, so that in Düz the leavers take the last places (in the order of their own
    counts) and in Eşli a leaver's team loses. When both Eşli teams have a leaver, neither team
    is favoured: the game rates as a draw. The engine's own places and points then apply."""
    if not left:
        return state
    field = rules.scores_field  # a count in Düz Okey, a total in 101: lower is better in both
    counts = list(getattr(state, field))
    if rules.team_totals is not None and {i % 2 for i in left} == {0, 1}:
        return replace(state, **{field: (0,) * len(counts)})
    above = sum(abs(c) for c in counts) + 1  # higher than any team total or count that stayed
    raised = tuple(c + above if i in left else c for i, c in enumerate(counts))
    return replace(state, **{field: raised})


def game_results(rules: engine.Variant, state, seats, *, rated: bool = True) -> dict:
    """What the results page shows (``state``: the game, of the game ``rules`` plays by): per
    seat its place, final count (or 101 total) and rating points; the team totals where the
    variant has teams; and who sat where, as they were when the game ended. A seat given up while
    the game ran (``Seat.left_by``) shows its leaver, placed as the game's loser. An unrated game
    (practice, or no hand played) has no rating points to show: all are 0."""
    seats = sorted(seats, key=lambda s: s.index)
    left = game_leavers(seats)
    rating = _leavers_lose(rules, state, left)
    places = rules.game_places(rating)
    # whole points, as the profiles store them, that sum to zero in every game nobody left
    points = rules.game_rating_whole(rating) if rated else (0,) * state.n
    if rated and left:
        # a leaver pays the worst that playing on could have cost (docs/rules.md), which is
        # never less than the game's own points for their place; the difference is not shared
        # out: nobody gains by another's leaving more than the game itself gave them
        worst = rules.leaver_points(state.options)
        points = tuple(worst if i in left else p for i, p in enumerate(points))
    results = {
        "places": list(places),
        "points": list(points),
        "rated": rated,
        "counts": list(getattr(state, rules.scores_field)),
        "hands": state.hands_played,
        "players": [_player(s, s.index in left) for s in seats],
    }
    if left:
        results["left"] = sorted(left)
    if rules.team_totals is not None:
        results["teams"] = list(rules.team_totals(state))
    return results


def game_leavers(seats) -> set[int]:
    """The seats given up while the game ran: a leaver's (``Seat.left_by``) that no person has
    taken since."""
    return {s.index for s in seats if s.left_by_id and not s.user_id}


def _player(seat, left: bool) -> dict:
    """Who sat at ``seat`` at the game's end, or who left it: a person's name as it was; a
    bot's is rendered in the viewer's language."""
    if left:
        return {"user": seat.left_by_id, "bot": False, "name": player_name(seat.left_by)}
    name = player_name(seat.user) if seat.user_id else ""
    return {"user": seat.user_id, "bot": seat.is_bot, "name": name}


def game_results_record(*, table_id, expected_version=None) -> bool:
    """Store a finished game's results and update its players' profiles; does nothing (False)
    if the game is not over, already has its results, or moved on from ``expected_version``."""
    with transaction.atomic():
        game, table = table_lock(table_id)
        if expected_version is not None and game.version != expected_version:
            return False
        if game.status != Game.Status.OVER or game.results is not None or not game.state:
            return False
        if table.status == table.Status.CLOSED:  # closed by staff: not rated (services.staff)
            return False
        results_write(game, table)
        table_bump(game, lobby=True)
        return True


def results_write(game: Game, table) -> None:
    """Write the results of a game that is over and update its players' profiles (caller holds
    the lock, has checked there are no results yet, and bumps the version). A game ended by
    staff before any hand counted, or a practice game (``policy.practice``), is recorded but
    rates nobody; a game someone left is rated however few hands were played (its leavers
    lose, docs/rules.md)."""
    rules = table.engine_variant
    state = rules.game_from_dict(game.state)
    seats = list(table.seats.select_related("user__profile", "left_by__profile"))
    counted = bool(state.hands_played) or bool(game_leavers(seats))
    rated = counted and not table.policy.practice
    game.results = game_results(rules, state, seats, rated=rated)
    if rated:
        r = game.results
        rating = rating_named(variant_for(table).rating)
        profiles_update(game, seats, rating, r["places"], r["points"], r["counts"])
    game_results_written.send(sender=Game, game=game, table=table)


def profiles_update(game, seats, rating: Rating, places, points, counts) -> None:
    """Caller holds the table's lock; the profile of each person seated at the end, or who left
    a seat while the game ran, changes once per game: the points, games and wins of the one
    ``rating`` the game's variant rates into, the others' left as they were.

    ``points`` are whole and sum to zero (``engine.game_rating_whole``: a shared place worth a
    fraction is rounded by largest remainder). A win is a first place that someone else did not
    share: when every seat ties (an Eşli draw), nobody has won.
    """
    everyone_first = all(p == 1 for p in places)
    for seat in seats:
        user_id = seat.user_id or seat.left_by_id
        if user_id is None:
            continue
        i = seat.index
        won = places[i] == 1 and not everyone_first
        Profile.objects.filter(user_id=user_id).update(
            **{
                rating.points: F(rating.points) + points[i],
                rating.games: F(rating.games) + 1,
                rating.wins: F(rating.wins) + (1 if won else 0),
            }
        )
        PlayerResult.objects.create(
            game=game,
            user_id=user_id,
            seat=i,
            place=places[i],
            points=points[i],
            count=counts[i],
            ended=game.ended,
        )
