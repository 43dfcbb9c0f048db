"""The lobby's pages: the list of tables, a new table, quick play."""

import logging

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.guests import guest_start
from accounts.models import guest_is
from games.errors import ServiceError
from games.lobby.forms import TableForm
from games.lobby.quick import table_quick_join
from games.lobby.reads import lobby_tables, my_tables
from games.table.bots import bot_table_create
from games.table.create import table_create

logger = logging.getLogger(__name__)


def lobby(request):
    guest = guest_is(request.user)
    form = TableForm() if request.user.is_authenticated and not guest else None
    return render(
        request,
        "games/lobby.html",
        {
            "tables": lobby_tables(request.user),
            "my_tables": my_tables(request.user),
            "form": form,
            "guest": guest,
        },
    )


@login_required
@require_POST
def table_new(request):
    form = TableForm(request.POST)
    if form.is_valid():
        try:
            if request.POST.get("bots"):  # "Watch four bots play": bots on every seat
                table = bot_table_create(manager=request.user, options=form.cleaned_data)
            else:
                table = table_create(manager=request.user, options=form.cleaned_data)
        except ServiceError as e:
            form.add_error(None, e.message)
        else:
            return redirect("games:table", table.pk)
    ctx = {
        "tables": lobby_tables(request.user),
        "my_tables": my_tables(request.user),
        "form": form,
    }
    return render(request, "games/lobby.html", ctx, status=400)


@require_POST
def quick_play(request):
    """One tap: a seat at a table of the chosen mode that is about to start (see
    games.lobby.quick). A visitor plays as a guest (accounts.guests): a practice game, alone
    with bots."""
    try:
        guest_start(request)
    except ServiceError as e:
        return refused_page(request, e, status=429)
    try:
        table = table_quick_join(
            user=request.user,
            mode=request.POST.get("mode", "duz"),
            turn_seconds=_whole(request.POST.get("turn_seconds")),  # a guest's practice pace
        )
    except ServiceError as e:
        if e.code == "game_running":
            return running_page(request, e, back=reverse("games:lobby"))
        messages.error(request, e.message)
        return redirect("games:lobby")
    return redirect("games:table", table.pk)


def _whole(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def running_page(request, error: ServiceError, *, back: str) -> HttpResponse:
    """Refused while another game of the player's runs: which tables, a link to each and a way
    to leave them (as a table's Start shows it), then ``back`` here."""
    running = {"message": error.message, "back": back, **error.details}
    return render(request, "games/running.html", {"running": running}, status=409)


def refused_page(request, error: ServiceError, status: int = 400) -> HttpResponse:
    """A refusal shown as a page of its own, with its status (a flood of guests: 429)."""
    return render(request, "games/refused.html", {"message": error.message}, status=status)
