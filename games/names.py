"""How a person is named on the site: their profile's display name, else their login's first
part; "Deleted player" for an account its player deleted (accounts.deletion). Bots and empty
seats have no name here; the renderer names them in the viewer's language."""

from django.utils.translation import gettext as _


def player_name(user) -> str:
    if user is None:
        return ""
    profile = getattr(user, "profile", None)
    if profile is not None and profile.deleted:
        return _("Deleted player")
    name = getattr(profile, "display_name", "") if profile is not None else ""
    return name or user.get_username().split("@")[0]
