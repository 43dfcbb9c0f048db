"""The ratings a profile keeps, one per kind of game: Okey (Düz and Eşli Okey) and 101 (101 and
Eşli 101). Each is three of the profile's columns: its points, the games that moved them and the
wins among those games. A game's variant names the rating it rates into
(``games.variants.SiteVariant.rating``); the leaderboard ranks by one rating at a time
(``?rating=101``), the profile and the player's data export show them all."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Rating:
    name: str  # SiteVariant.rating, the leaderboard's ?rating=, the data export's key
    label: str | Promise  # what the profile and the leaderboard's switch call it
    about: str | Promise  # the leaderboard's line on what moves it
    points: str  # the Profile's columns that keep it
    games: str
    wins: str


RATINGS = {
    r.name: r
    for r in (
        Rating(
            "okey",
            _("Okey"),
            _(
                "Players by Okey rating points: each finished game of Düz or Eşli Okey adds or "
                "takes points by place (Eşli: by team)."
            ),
            "rating_points",
            "games_played",
            "wins",
        ),
        Rating(
            "101",
            _("101"),
            _(
                "Players by 101 rating points: each finished game of 101 or Eşli 101 adds or "
                "takes points by place (Eşli 101: by team)."
            ),
            "rating101_points",
            "games101_played",
            "wins101",
        ),
    )
}
RATING_DEFAULT = "okey"


def rating_named(name: str) -> Rating:
    """The rating called ``name``; KeyError for one the site does not keep."""
    return RATINGS[name]


@dataclass(frozen=True)
class Standing:
    """One player's place in one rating: their points, games and wins in it."""

    rating: Rating
    points: int
    games: int
    wins: int


def profile_standing(profile, rating: Rating) -> Standing:
    return Standing(
        rating,
        getattr(profile, rating.points),
        getattr(profile, rating.games),
        getattr(profile, rating.wins),
    )


def profile_standings(profile) -> tuple[Standing, ...]:
    """The player's standing in every rating, Okey first."""
    return tuple(profile_standing(profile, r) for r in RATINGS.values())
