"""A player's data export (KVKK art. 11, GDPR art. 15 and 20): everything the site keeps about
them, as one JSON document they download from their profile.

The games part is games.personal_data': their results, the hands they played with their own moves
(never another player's tiles), the chat lines they wrote and the invites they sent.
"""

from allauth.account.models import EmailAddress
from django.utils import timezone

from games.personal_data import player_games_export

from .allowances import allowance_spend
from .ratings import profile_standings

FORMAT = "okey-export/1"
# Exports one account may download per EXPORT_WINDOW seconds: each reads every hand they
# played, and a page that asked again and again must not tie up a web process.
EXPORTS_PER_WINDOW = 3
EXPORT_WINDOW = 3600


def _when(value):
    return value.isoformat() if value is not None else None


def account_export(user) -> dict:
    profile = user.profile
    return {
        "format": FORMAT,
        "exported": _when(timezone.now()),
        "account": {
            "id": user.pk,
            "joined": _when(user.date_joined),
            "last_login": _when(user.last_login),
            "email_addresses": [
                {"email": e.email, "verified": e.verified, "primary": e.primary}
                for e in EmailAddress.objects.filter(user=user).order_by("id")
            ],
        },
        "profile": {
            "display_name": profile.display_name,
            "language": profile.language,
            # the Okey rating (Düz and Eşli Okey), as the export always gave it, then each
            # rating by name, the Okey one again among them
            "rating_points": profile.rating_points,
            "games_played": profile.games_played,
            "wins": profile.wins,
            "ratings": {
                s.rating.name: {"rating_points": s.points, "games_played": s.games, "wins": s.wins}
                for s in profile_standings(profile)
            },
            "created": _when(profile.created),
        },
        **player_games_export(user),
    }


def export_allowed(user) -> bool:
    """Counts this export against the account's allowance; False once it is spent."""
    return allowance_spend(f"account-export:{user.pk}", EXPORTS_PER_WINDOW, EXPORT_WINDOW)
