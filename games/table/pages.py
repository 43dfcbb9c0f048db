"""HTTP pages of a table: the table itself, sitting down and leaving, and the POST fallbacks for
what its socket also does (a move, a bot, "I am back"). Every change goes through the same
service as from the socket; a refusal becomes a message."""

import logging
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import engine, metrics
from games.errors import ServiceError
from games.labels import mode_label
from games.models import Table
from games.table import lifecycle
from games.table.bots import bot_add, bot_remove
from games.table.chat_view import chat_hidden_from, chat_lines
from games.table.hints import HintRefused, hint_for, hints_offered
from games.table.moves import move_submit, move_version
from games.table.privacy import table_open_to
from games.table.reads import current_hand, table_rows, table_view
from games.table.render import frame_full as render_frame
from games.table.seats import seat_back, seat_leave, seat_take
from games.variants import variant_for
from games.variants.common import epoch_ms

logger = logging.getLogger(__name__)


def ws_url(table_id: int) -> str:
    return f"/ws/table/{table_id}/?lang={get_language() or 'tr'}"


def table_detail(request, table_id):
    rows = table_rows(table_id)
    if rows is None or not table_open_to(rows.table, request.user):
        raise Http404
    view = table_view(rows, request.user)
    ctx = {
        "table": rows.table,
        "view": view,
        "chat": chat_lines(rows.table.pk, hidden=chat_hidden_from(request.user.pk)),
        "mode_label": mode_label(rows.table.mode),
        "ws_url": ws_url(rows.table.pk),
        "server_now": epoch_ms(timezone.now()),
        "hints_offered": hints_offered(rows.table, rows.seats, request.user),
    }
    return render(request, "games/table.html", ctx)


def _refusal(request, table_id, error: ServiceError):
    metrics.refusal_count(error.code)
    if request.htmx:
        # 200 so that htmx swaps the message in (out of band) next to the table
        html = render_to_string("games/table.html#message", {"message": error.message}, request)
        return HttpResponse(html)
    messages.error(request, error.message)
    return redirect("games:table", table_id)


def _running_card(request, table_id, error: ServiceError):
    """Refused while another game of the player's runs (htmx): not the passing message over the
    header, but which tables, a link to each, a way to leave them, and back here after."""
    metrics.refusal_count(error.code)
    back = reverse("games:table", args=[table_id])
    ctx = {"running": {"message": error.message, "back": back, **error.details}}
    return HttpResponse(render_to_string("games/table.html#game_running", ctx, request))


def _done(request, url_name, *args):
    """After a change: htmx pages go to ``url_name`` themselves; plain forms are redirected."""
    url = reverse(url_name, args=args)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def _seat_index(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


# The seat a visitor chose before logging in or signing up, taken on the way back.
SIT_KEY = "okey_sit"


@require_POST
def table_sit(request, table_id):
    """Take a seat. A visitor who is not signed in is sent to log in (or sign up) and is seated
    on the way back (``table_sit_continue``): one step from a shared table link."""
    index = _seat_index(request.POST.get("seat"))
    if not request.user.is_authenticated:
        request.session[SIT_KEY] = {"table": table_id, "seat": index}
        following = reverse("games:sit_continue", args=[table_id])
        url = reverse("account_login") + "?" + urlencode({"next": following})
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = url
            return response
        return redirect(url)
    try:
        seat_take(table_id=table_id, user=request.user, index=index)
    except ServiceError as e:
        if e.code == "game_running" and request.htmx:
            return _running_card(request, table_id, e)
        return _refusal(request, table_id, e)
    return _done(request, "games:table", table_id)


@login_required
@require_GET
def table_sit_continue(request, table_id):
    """Back from log-in or sign-up: the seat chosen before, if it is still free."""
    chosen = request.session.pop(SIT_KEY, None)
    if chosen and chosen.get("table") == table_id:
        try:
            seat_take(table_id=table_id, user=request.user, index=chosen.get("seat"))
        except ServiceError as e:
            messages.error(request, e.message)
    return redirect("games:table", table_id)


@login_required
@require_POST
def table_leave(request, table_id):
    """Leave the seat (during a game: give the game up); then the lobby, or the page the form
    came from when it says so (the Start refused at another table, to start there now)."""
    try:
        seat_leave(table_id=table_id, user=request.user)
    except ServiceError as e:
        return _refusal(request, table_id, e)
    following = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(following, allowed_hosts={request.get_host()}):
        return redirect(following)
    return _done(request, "games:lobby")


@login_required
@require_POST
def table_start(request, table_id):
    try:
        lifecycle.table_start(table_id=table_id, user=request.user)
    except ServiceError as e:
        if e.code == "game_running" and request.htmx:
            return _running_card(request, table_id, e)
        return _refusal(request, table_id, e)
    if request.htmx:
        return HttpResponse(status=204)  # the countdown reaches every page through its socket
    return redirect("games:table", table_id)


@login_required
@require_POST
def table_back(request, table_id):
    """ "I'm back": the player's away seat is theirs to play again."""
    try:
        seat_back(table_id=table_id, user=request.user)
    except ServiceError as e:
        return _refusal(request, table_id, e)
    if request.htmx:
        return HttpResponse(status=204)  # the new view reaches every page through its socket
    return redirect("games:table", table_id)


@login_required
@require_POST
def table_bot(request, table_id):
    """The manager seats a bot on a free seat (action=add) or frees a bot's seat (remove)."""
    index = _seat_index(request.POST.get("seat"))
    try:
        if request.POST.get("action") == "remove":
            bot_remove(table_id=table_id, user=request.user, index=index)
        else:
            # a form without the choice (an older page) seats a bot of the table's strength
            strength = request.POST.get("strength") or None
            bot_add(table_id=table_id, user=request.user, index=index, strength=strength)
    except ServiceError as e:
        return _refusal(request, table_id, e)
    if request.htmx:
        return HttpResponse(status=204)
    return redirect("games:table", table_id)


@login_required
@require_POST
def table_move(request, table_id):
    """The same move as over the socket, for a plain form or an htmx POST."""
    move = {"kind": request.POST.get("kind", "")}
    if request.POST.get("tile"):
        move["tile"] = request.POST["tile"]
    # without a version a forged or garbled form would apply a move out of turn, such as
    # declaring pairs, unchecked (move_version)
    version = move_version(request.POST.get("version"))
    if version is None:
        refusal = _("That move does not say which version of the table it was for.")
        return _refusal(request, table_id, ServiceError("malformed", refusal))
    try:
        move_submit(
            table_id=table_id,
            user=request.user,
            move=move,
            expected_version=version,
            idempotency_key=request.POST.get("key") or None,
        )
    except ServiceError as e:
        # a refusal is an everyday event: one line, no traceback
        logger.info("move refused", extra={"table": table_id, "code": e.code})
        return _refusal(request, table_id, e)
    if request.htmx:
        rows = table_rows(table_id)
        if rows is None:
            raise Http404
        return HttpResponse(render_frame(table_view(rows, request.user)))
    return redirect("games:table", table_id)


@login_required
@require_GET
def table_tray(request, table_id):
    """The opening tray's running value (?g=R1 R2 R3&g=...&pairs=1) for the asker's own hand,
    at a table whose game has a tray (101): the value of each group and whether the opening is
    enough, before the player lays it."""
    table = get_object_or_404(Table.objects.select_related("game"), pk=table_id)
    tray = variant_for(table).family.tray
    seat = table.seats.filter(user=request.user).first() if request.user.is_authenticated else None
    hand = current_hand(table)
    if tray is None or seat is None or hand is None or hand.over:
        return JsonResponse({"error": _("You have no rack at this table.")}, status=400)
    state = table.engine_variant.hand_from_dict(hand.state)
    groups = [g.split() for g in request.GET.getlist("g")[:22]]
    pairs = request.GET.get("pairs") == "1"
    return JsonResponse(tray(state, seat.index, groups, pairs))


@require_GET
def rack_arrange(request, table_id):
    """Seri diz / Çift diz (?how=runs|pairs): the engine's grouping of the asker's own rack."""
    how = request.GET.get("how")
    arrange = {"runs": engine.arrange_runs, "pairs": engine.arrange_pairs}.get(how)
    if arrange is None:
        raise Http404
    table = get_object_or_404(Table, pk=table_id)
    seat = table.seats.filter(user=request.user).first() if request.user.is_authenticated else None
    hand = current_hand(table)
    if seat is None or hand is None:
        return JsonResponse({"error": _("You have no rack at this table.")}, status=400)
    # every game's state has its racks and okey: the arrangement is the same for all of them
    state = table.engine_variant.hand_from_dict(hand.state)
    groups, leftovers = arrange(state.racks[seat.index], state.okey)
    return JsonResponse(
        {
            "hand": hand.pk,
            "groups": [[engine.format_tile(t) for t in g] for g in groups],
            "leftovers": [engine.format_tile(t) for t in leftovers],
        }
    )


@login_required
@require_GET
def table_hint(request, table_id):
    """A practice game's hint for the player on turn: the bot's advice and the rack arranged."""
    try:
        hint = hint_for(table_id, request.user)
    except HintRefused as e:
        # 200 for htmx, which swaps only a success into the hint panel
        status = 200 if request.htmx else 403
        return render(request, "games/hint.html", {"message": e.message}, status=status)
    return render(request, "games/hint.html", {"hint": hint})
