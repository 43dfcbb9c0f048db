"""A finished game's rating points, games played and wins, onto each player's Profile, and one
PlayerResult per player for the profile's recent games."""

from django.db.models import F

from accounts.models import Profile
from games.models import PlayerResult


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
