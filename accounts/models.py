"""A player's profile: the name shown at tables, the language of the site, and the standings
that the game and rating services keep up to date."""

import re

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

LANGUAGE_CHOICES = [("tr", "Türkçe"), ("en", "English")]
DISPLAY_NAME_MAX = 30


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(_("display name"), max_length=DISPLAY_NAME_MAX)
    language = models.CharField(_("language"), max_length=5, choices=LANGUAGE_CHOICES, default="tr")
    rating_points = models.IntegerField(_("rating points"), default=0)
    games_played = models.PositiveIntegerField(_("games played"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    created = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")
        constraints = [
            # Names are how players tell each other apart at a table, whatever the case.
            models.UniqueConstraint(Lower("display_name"), name="profile_display_name_ci_unique"),
        ]

    def __str__(self):
        return self.display_name

    def get_absolute_url(self):
        return reverse("accounts:profile_detail", args=[self.user_id])


def user_display(user) -> str:
    """How allauth names a user in messages and e-mails (ACCOUNT_USER_DISPLAY)."""
    profile = getattr(user, "profile", None)
    return profile.display_name if profile else user.get_username()


def display_name_taken(name: str, exclude_user_id=None) -> bool:
    others = Profile.objects.filter(display_name__iexact=name.strip())
    if exclude_user_id is not None:
        others = others.exclude(user_id=exclude_user_id)
    return others.exists()


def display_name_free(base: str) -> str:
    """A free display name close to `base`, for users created without the sign-up form
    (createsuperuser, admin, test factories)."""
    base = re.sub(r"\s+", " ", base).strip()[: DISPLAY_NAME_MAX - 4] or "oyuncu"
    name, n = base, 1
    while display_name_taken(name):
        n += 1
        name = f"{base}{n}"
    return name
