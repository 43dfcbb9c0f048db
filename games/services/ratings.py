"""A finished game's rating points, games played and wins, onto each player's Profile."""

from django.db.models import F

from accounts.models import Profile


def profiles_update(table, places, points) -> None:
    """Caller holds the table's lock; each seated person's profile changes once per game.

    Rating points are whole numbers on the profile: a shared place worth half a point (three
    players, an odd number of hands) is rounded half to even.
    """
    for seat in table.seats.filter(user__isnull=False):
        i = seat.index
        Profile.objects.filter(user_id=seat.user_id).update(
            rating_points=F("rating_points") + round(points[i]),
            games_played=F("games_played") + 1,
            wins=F("wins") + (1 if places[i] == 1 else 0),
        )
