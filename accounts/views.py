from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404
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
from .ratings import RATING_DEFAULT, RATINGS, Rating, profile_standing, profile_standings


@login_required
def profile(request):
    user = request.user
    ctx = {"profile": user.profile, "own": True, "recent_games": recent_games(user)}
    ctx["standings"] = profile_standings(user.profile)
    ctx["recent_hands"] = recent_hands(user, viewer=user)
    ctx["sanctions"] = sanctions_in_force(user)
    ctx["guest"] = guest_is(user)
    return render(request, "accounts/profile.html", ctx)


def profile_detail(request, user_id):
    user = get_object_or_404(get_user_model(), pk=user_id, is_active=True)
    own = request.user.is_authenticated and request.user.pk == user.pk
    ctx = {"profile": user.profile, "own": own, "recent_games": recent_games(user)}
    ctx["standings"] = profile_standings(user.profile)
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
    """Players who have finished a game of the chosen rating (``?rating=``: Okey, the default,
    or 101), by its points (then its wins, then fewer of its games)."""
    name = request.GET.get("rating") or RATING_DEFAULT
    if name not in RATINGS:
        raise Http404(_("The site keeps no such rating."))
    rating = RATINGS[name]
    players = (
        Profile.objects.filter(
            **{f"{rating.games}__gt": 0}, user__is_active=True, user__guest__isnull=True
        )
        .select_related("user")
        .order_by(f"-{rating.points}", f"-{rating.wins}", rating.games, "display_name")
    )
    page = Paginator(players, LEADERBOARD_PAGE).get_page(request.GET.get("page"))
    first = page.start_index()
    rows = [
        {"rank": first + i, "profile": p, "is_you": p.user_id == request.user.pk}
        for i, p in enumerate(page.object_list)
    ]
    mine = None
    if request.user.is_authenticated and not any(r["is_you"] for r in rows):
        me = Profile.objects.filter(user=request.user, **{f"{rating.games}__gt": 0}).first()
        if me is not None:
            mine = {"rank": _rank_of(me, rating), "profile": me, "is_you": True}
    for r in rows + ([mine] if mine else []):
        r["standing"] = profile_standing(r["profile"], rating)
    ctx = {"rows": rows, "page": page, "mine": mine, "rating": rating}
    # the switch: a link to each rating's board, the chosen one marked as the current page
    ctx["ratings"] = [
        {"rating": r, "url": _leaderboard_url(r), "current": r is rating} for r in RATINGS.values()
    ]
    ctx["page_query"] = "" if rating.name == RATING_DEFAULT else f"rating={rating.name}&"
    return render(request, "accounts/leaderboard.html", ctx)


def _leaderboard_url(rating: Rating) -> str:
    url = reverse("leaderboard")
    return url if rating.name == RATING_DEFAULT else f"{url}?rating={rating.name}"


def _rank_of(me: Profile, rating: Rating) -> int:
    """1 + the players ahead of ``me`` in the leaderboard's order of ``rating``."""
    points, wins, games = (getattr(me, f) for f in (rating.points, rating.wins, rating.games))
    ahead = Profile.objects.filter(
        **{f"{rating.games}__gt": 0}, user__is_active=True, user__guest__isnull=True
    ).filter(
        Q(**{f"{rating.points}__gt": points})
        | Q(**{rating.points: points, f"{rating.wins}__gt": wins})
        | Q(**{rating.points: points, rating.wins: wins, f"{rating.games}__lt": games})
    )
    return ahead.count() + 1
