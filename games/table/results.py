"""The end of a game: final counts, places, Düz or Eşli totals and rating points, stored with the
game, and each person's profile updated exactly once.

The last hand's move only marks the game over; ``game_results_record`` runs right after in a
task (its deadline is the moment the game ended, see games.table.deadlines), or in the sweep
if that task was lost. Exactly once: the results are written in the same transaction as the
profile updates, under the game's lock, and only while the game has none.
"""

from django.db import transaction
from django.db.models import F

from accounts.models import Profile
from games import engine
from games.models import Game, PlayerResult
from games.names import player_name
from games.table.changes import table_bump, table_lock


def game_results(state: engine.GameState, seats) -> dict:
    """What the results page shows: per seat its place, final count and rating points; the team
    totals in Eşli; and who sat where, as they were when the game ended."""
    places = engine.game_places(state)
    # whole points, as the profiles store them, that sum to zero in every game
    points = engine.game_rating_whole(state)
    results = {
        "places": list(places),
        "points": list(points),
        "counts": list(state.counts),
        "hands": state.hands_played,
        "players": [
            # a person's name as it was; a bot's is rendered in the viewer's language
            {"user": s.user_id, "bot": s.is_bot, "name": player_name(s.user) if s.user_id else ""}
            for s in sorted(seats, key=lambda s: s.index)
        ],
    }
    if state.options.partnership:
        results["teams"] = list(engine.team_totals(state))
    return results


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
    rates nobody."""
    state = engine.game_from_dict(game.state)
    seats = list(table.seats.select_related("user__profile"))
    game.results = game_results(state, seats)
    if state.hands_played and not table.policy.practice:
        r = game.results
        profiles_update(game, table, r["places"], r["points"], r["counts"])


def profiles_update(game, table, places, points, counts) -> None:
    """Caller holds the table's lock; each seated person's profile changes once per game.

    ``points`` are whole and sum to zero (``engine.game_rating_whole``: a shared place worth a
    fraction is rounded by largest remainder). A win is a first place that someone else did not
    share: when every seat ties (an Eşli draw), nobody has won.
    """
    everyone_first = all(p == 1 for p in places)
    for seat in table.seats.filter(user__isnull=False):
        i = seat.index
        won = places[i] == 1 and not everyone_first
        Profile.objects.filter(user_id=seat.user_id).update(
            rating_points=F("rating_points") + points[i],
            games_played=F("games_played") + 1,
            wins=F("wins") + (1 if won else 0),
        )
        PlayerResult.objects.create(
            game=game,
            user_id=seat.user_id,
            seat=i,
            place=places[i],
            points=points[i],
            count=counts[i],
            ended=game.ended,
        )
