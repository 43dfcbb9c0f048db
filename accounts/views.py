from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from games.profiles import player_relation, recent_games, recent_hands, sanctions_in_force

from .forms import ProfileForm
from .languages import url_in_language
from .models import LANGUAGE_CHOICES, Profile, guest_is


@login_required
def profile(request):
    user = request.user
    ctx = {"profile": user.profile, "own": True, "recent_games": recent_games(user)}
    ctx["recent_hands"] = recent_hands(user, viewer=user)
    ctx["sanctions"] = sanctions_in_force(user)
    ctx["guest"] = guest_is(user)
    return render(request, "accounts/profile.html", ctx)


def profile_detail(request, user_id):
    user = get_object_or_404(get_user_model(), pk=user_id, is_active=True)
    own = request.user.is_authenticated and request.user.pk == user.pk
    ctx = {"profile": user.profile, "own": own, "recent_games": recent_games(user)}
    ctx["recent_hands"] = recent_hands(user, viewer=request.user)
    ctx["relation"] = player_relation(request.user, user)
    # from a seat at a table: a report made here names that table (the report's page checks it)
    table = request.GET.get("table", "")
    ctx["table_id"] = int(table) if table.isdigit() and len(table) < 12 else None
    if own:
        ctx["sanctions"] = sanctions_in_force(user)
    return render(request, "accounts/profile.html", ctx)


@login_required
def profile_edit(request):
    profile_obj: Profile = request.user.profile
    form = ProfileForm(request.POST or None, instance=profile_obj)
    if request.method == "POST" and form.is_valid():
        form.save()
        language = form.cleaned_data["language"]
        # The profile's language is the site's language for this player from now on: answer in
        # it, at its URL, and remember it in the cookie as the switcher does.
        with translation.override(language):
            messages.success(request, _("Your profile was saved."))
            response = redirect(reverse("accounts:profile"))
        language_cookie_set(response, language)
        return response
    return render(request, "accounts/profile_edit.html", {"form": form, "profile": profile_obj})


@require_POST
def set_language(request):
    """Switch the site's language and land on the same page in it; a logged-in player's
    profile language follows.

    Django's own view translates ``next`` with ``translate_url``, which resolves it in the
    language active here: Turkish, the unprefixed default, so an ``/en/...`` page never
    resolved and English -> Turkish went back to the same English page."""
    language = request.POST.get("language")
    if language not in dict(settings.LANGUAGES):
        return django_set_language(request)  # its answer to a language it does not know
    target = request.POST.get("next") or request.headers.get("referer") or "/"
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = redirect(url_in_language(target, language))
    language_cookie_set(response, language)
    if request.user.is_authenticated and language in dict(LANGUAGE_CHOICES):
        Profile.objects.filter(user=request.user).update(language=language)
    return response


def language_cookie_set(response, language):
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


# --- ratings: the leaderboard ------------------------------------------

LEADERBOARD_PAGE = 50


def leaderboard(request):
    """Players who have finished a game, by rating points (then wins, then fewer games)."""
    players = (
        Profile.objects.filter(games_played__gt=0, user__is_active=True, user__guest__isnull=True)
        .select_related("user")
        .order_by("-rating_points", "-wins", "games_played", "display_name")
    )
    page = Paginator(players, LEADERBOARD_PAGE).get_page(request.GET.get("page"))
    first = page.start_index()
    rows = [
        {"rank": first + i, "profile": p, "is_you": p.user_id == request.user.pk}
        for i, p in enumerate(page.object_list)
    ]
    mine = None
    if request.user.is_authenticated and not any(r["is_you"] for r in rows):
        me = Profile.objects.filter(user=request.user, games_played__gt=0).first()
        if me is not None:
            mine = {"rank": _rank_of(me), "profile": me, "is_you": True}
    return render(request, "accounts/leaderboard.html", {"rows": rows, "page": page, "mine": mine})


def _rank_of(me: Profile) -> int:
    """1 + the players ahead of ``me`` in the leaderboard's order."""
    ahead = Profile.objects.filter(games_played__gt=0, user__is_active=True).filter(
        Q(rating_points__gt=me.rating_points)
        | Q(rating_points=me.rating_points, wins__gt=me.wins)
        | Q(rating_points=me.rating_points, wins=me.wins, games_played__lt=me.games_played)
    )
    return ahead.count() + 1
