"""A player's profile: the name shown at tables, the language of the site, and the standings
that the game and rating services keep up to date."""

import re
import unicodedata

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

LANGUAGE_CHOICES = [("tr", "Türkçe"), ("en", "English")]
DISPLAY_NAME_MAX = 30
# Unicode categories no display name may hold: controls, format characters (zero-width spaces
# and joiners, the bidi overrides and isolates), private use, surrogates and unassigned code
# points. They are invisible or reorder the text, so "Ali\u200bce" would pass for "Alice".
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})


def display_name_normal(name: str) -> str:
    """The name as stored: NFKC (fullwidth and other compatibility forms folded into the plain
    letters) with runs of white space made one space."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def display_name_key(name: str) -> str:
    """What two names must not share: the normal form, case-folded (and NFKC again, as
    case folding can leave a form that is not normal)."""
    return unicodedata.normalize("NFKC", display_name_normal(name).casefold())


def display_name_hidden_characters(name: str) -> bool:
    return any(unicodedata.category(ch) in REFUSED_CATEGORIES for ch in name)


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(_("display name"), max_length=DISPLAY_NAME_MAX)
    # display_name_key(display_name), kept by save(): unique, so that no two players have
    # names that differ only in case, width or other compatibility forms
    name_key = models.CharField(max_length=4 * DISPLAY_NAME_MAX, unique=True, editable=False)
    language = models.CharField(_("language"), max_length=5, choices=LANGUAGE_CHOICES, default="tr")
    # The Okey rating (Düz and Eşli Okey): its points, the games that moved them, the wins.
    rating_points = models.IntegerField(_("rating points"), default=0)
    games_played = models.PositiveIntegerField(_("games played"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    # The 101 rating (101 and Eşli 101), kept apart from the Okey rating above (Düz and Eşli
    # Okey): accounts.ratings names each rating's columns.
    rating101_points = models.IntegerField(_("101 rating points"), default=0)
    games101_played = models.PositiveIntegerField(_("101 games played"), default=0)
    wins101 = models.PositiveIntegerField(_("101 wins"), default=0)
    created = models.DateTimeField(_("joined"), auto_now_add=True)
    # When the player deleted their account (accounts.deletion): the profile and its user stay as
    # an anonymous stand-in for the results other players' games still show, named "Deleted
    # player" wherever a name is shown (games.names.player_name).
    deleted = models.DateTimeField(_("deleted"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")
        constraints = [
            # Names are how players tell each other apart at a table, whatever the case.
            models.UniqueConstraint(Lower("display_name"), name="profile_display_name_ci_unique"),
        ]

    def __str__(self):
        return self.display_name

    def save(self, *args, **kwargs):
        self.name_key = display_name_key(self.display_name)
        fields = kwargs.get("update_fields")
        if fields is not None and "display_name" in fields:
            kwargs["update_fields"] = {*fields, "name_key"}
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("accounts:profile_detail", args=[self.user_id])


def user_display(user) -> str:
    """How allauth names a user in messages and e-mails (ACCOUNT_USER_DISPLAY)."""
    profile = getattr(user, "profile", None)
    return profile.display_name if profile else user.get_username()


def display_name_taken(name: str, exclude_user_id=None) -> bool:
    others = Profile.objects.filter(name_key=display_name_key(name))
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


# Connected where the model is defined: every user gets a profile from the moment the app's
# models load, with no import inside AppConfig.ready() to do it.
@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def profile_create(sender, instance, created, raw=False, **kwargs):
    # Every user has a profile, however the user was made: code may rely on `user.profile`.
    if created and not raw:
        base = instance.get_username() or ""
        if "@" in base or not base:
            base = (instance.email or base).split("@")[0]
        Profile.objects.get_or_create(
            user=instance, defaults={"display_name": display_name_free(base)}
        )


class Guest(models.Model):
    """A visitor playing without an account (accounts.guests): a real user, so that the table,
    its seats and its moves work for them as for anyone, marked here so that nothing they do is
    rated or kept past their session. Signing up removes the mark."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guest"
    )
    # the session the guest lives in: once it is over (logged out, expired) the cleanup deletes
    # the user and, with it, the tables they made (Table.manager cascades)
    session_key = models.CharField(max_length=40, db_index=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("guest")
        verbose_name_plural = _("guests")

    def __str__(self):
        return f"guest {self.user_id}"


def guest_is(user) -> bool:
    """Is ``user`` a guest? (The reverse one-to-one caches its answer, a miss too, on the user.)"""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return hasattr(user, "guest")
