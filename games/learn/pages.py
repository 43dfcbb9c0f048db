"""The learning pages: the rules for players, the first hand and its coach."""

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.guests import guest_start
from accounts.models import guest_is
from games.errors import ServiceError
from games.learn.coaching import coach_key, coach_view
from games.learn.examples import EXAMPLES, OKEY
from games.learn.lesson import lesson_start


def rules(request):
    """The rules for players (docs/rules.md is the contract; this is its tour, with tiles)."""
    return render(request, "learn/rules.html", {"ex": EXAMPLES, "okey": OKEY})


@require_POST
def first_hand(request):
    """Sit the visitor (a guest if they have no account) at their first-hand table."""
    try:
        guest_start(request)
    except ServiceError as e:
        return render(request, "games/refused.html", {"message": e.message}, status=429)
    try:
        table = lesson_start(request.user)
    except ServiceError as e:
        if e.code == "game_running":  # the card a table's Start shows: where, and a way out
            running = {"message": e.message, "back": reverse("learn:rules"), **e.details}
            return render(request, "games/running.html", {"running": running}, status=409)
        messages.error(request, e.message)
        return redirect("learn:rules")
    return redirect("games:table", table.pk)


@require_GET
def coach(request, table_id):
    """The coach's panel at a first-hand table, for the player who sits there. The page asks
    when it loads and whenever the table's socket brings a change, with the ``key`` of what it
    shows: nothing changed, 204 and no swap. Once the hand's end is shown, the same again with
    286, htmx's word for "stop asking" (it swaps a 286 like a 200, so the panel stays as it
    was)."""
    now = coach_key(table_id, request.user)
    if now is None:
        raise Http404
    key, over = now
    seen = request.GET.get("key") == key
    if seen and not over:
        return HttpResponse(status=204)
    view = coach_view(table_id, request.user)
    ctx = {"coach": view, "guest": guest_is(request.user)}
    return render(request, "learn/coach.html", ctx, status=286 if seen else 200)
