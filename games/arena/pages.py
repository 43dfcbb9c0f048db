"""The arena's pages: the list of tournaments, a tournament's page, join and pause."""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.arena.entrants import entrant_join, entrant_pause
from games.arena.reads import own_view, tournament_context, tournaments_listed
from games.errors import ServiceError
from games.models import Tournament


def tournaments(request):
    return render(request, "games/arena/list.html", {"lists": tournaments_listed()})


def _tournament(tournament_id) -> Tournament:
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        raise Http404
    return t


def tournament(request, tournament_id):
    t = _tournament(tournament_id)
    ctx = tournament_context(t)
    ctx["own"] = own_view(t, request.user)
    return render(request, "games/arena/tournament.html", ctx)


def _answer(request, t, error: ServiceError | None):
    """htmx: the player's box again (with the refusal, if any); a plain form: the page."""
    if request.headers.get("HX-Request"):
        ctx = {"t": t, "own": own_view(t, request.user), "state": tournament_context(t)["state"]}
        ctx["error"] = error.message if error else ""
        html = render_to_string("games/arena/own.html", ctx, request=request)
        # 200 even for a refusal: htmx swaps no answer of an error status, and the box must
        # show why nothing changed
        return HttpResponse(html)
    if error is not None:
        messages.error(request, error.message)
    return redirect("games:tournament", t.pk)


@require_POST
def tournament_join(request, tournament_id):
    t = _tournament(tournament_id)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("games:tournament", args=[t.pk]))
    try:
        entrant_join(tournament_id=t.pk, user=request.user)
    except ServiceError as e:
        return _answer(request, t, e)
    return _answer(request, t, None)


@require_POST
def tournament_pause(request, tournament_id):
    t = _tournament(tournament_id)
    try:
        entrant_pause(tournament_id=t.pk, user=request.user)
    except ServiceError as e:
        return _answer(request, t, e)
    return _answer(request, t, None)
