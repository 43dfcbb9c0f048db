"""What the table manager does from the table page (invite, resend, cancel, name the teams), and
the page an invite link opens.

Following a link never seats anyone by itself (mail scanners open links too): a signed-in
player presses "Take the seat"; a visitor signs up or logs in, and the link's token waits in the
session until they come back to ``invite/continue/``, which seats them.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.errors import ServiceError
from games.invites import services
from games.invites.services import (
    SESSION_KEY,
    invite_accept,
    invite_create,
    invite_decline,
    invite_find,
    invite_refusal,
)
from games.labels import mode_label
from games.models import Invite
from games.names import player_name
from games.table.create import team_names_set
from games.table.reservations import invite_hours
from games.variants import variant_for

# HTTP status of a link that cannot seat anyone: unknown -> 404, spent or too old -> 410
REFUSAL_STATUS = {"invite_unknown": 404, "invite_taken": 410, "invite_expired": 410}


def _seat_index(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@login_required
@require_POST
def invite_new(request, table_id):
    email = request.POST.get("email", "")
    try:
        invite = invite_create(
            table_id=table_id,
            inviter=request.user,
            email=email,
            seat_index=_seat_index(request.POST.get("seat")),
            base=services.site_url(request),
        )
    except ServiceError as e:
        messages.error(request, e.message)
    else:
        messages.success(
            request,
            _("Invite sent to %(email)s for seat %(n)d.")
            % {"email": invite.email, "n": invite.seat_index + 1},
        )
    return _back(request, table_id)


def _invite_of_table(table_id, invite_id) -> int:
    get_object_or_404(Invite, pk=invite_id, table_id=table_id)
    return invite_id


@login_required
@require_POST
def invite_resend(request, table_id, invite_id):
    try:
        invite = services.invite_resend(
            invite_id=_invite_of_table(table_id, invite_id),
            user=request.user,
            base=services.site_url(request),
        )
    except ServiceError as e:
        messages.error(request, e.message)
    else:
        messages.success(
            request,
            _("Invite sent again to %(email)s: the earlier link no longer works.")
            % {"email": invite.email},
        )
    return _back(request, table_id)


@login_required
@require_POST
def invite_cancel(request, table_id, invite_id):
    try:
        invite = services.invite_cancel(
            invite_id=_invite_of_table(table_id, invite_id), user=request.user
        )
    except ServiceError as e:
        messages.error(request, e.message)
    else:
        messages.success(
            request,
            _("The invite to %(email)s is cancelled; seat %(n)d is free.")
            % {"email": invite.email, "n": invite.seat_index + 1},
        )
    return _back(request, table_id)


@login_required
@require_POST
def team_names(request, table_id):
    try:
        team_names_set(
            table_id=table_id,
            user=request.user,
            team_a=request.POST.get("team_a", ""),
            team_b=request.POST.get("team_b", ""),
        )
    except ServiceError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, _("The team names are saved."))
    return _back(request, table_id)


def _back(request, table_id):
    """To the table page, where the message is shown. The invite list also arrives in socket
    frames rendered without a request (no CSRF field), so its buttons post through htmx, which
    sends the page's token in a header: those get a full-page redirect by HX-Redirect."""
    url = reverse("games:table", args=[table_id]) + "#invites"
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def _invite_context(invite: Invite) -> dict:
    table = invite.table
    inviter_seat = table.seats.filter(user_id=invite.inviter_id).first()
    partner = (
        variant_for(table).teams
        and inviter_seat is not None
        and (inviter_seat.index + 2) % 4 == invite.seat_index
    )
    return {
        "invite": invite,
        "table": table,
        "inviter": player_name(invite.inviter),
        "mode_label": mode_label(table.mode),
        "seat_number": invite.seat_index + 1,
        "partner": partner,
        "rules": table.rules,
        "hours": invite_hours(),
    }


def _refused(request, error: ServiceError, invite=None):
    if error.code == "invite_used":  # the same player again: they already have the seat
        messages.info(request, error.message)
        return redirect("games:table", invite.table_id)
    ctx = {"error": error.message, "code": error.code}
    if invite is not None and error.code != "invite_unknown":
        ctx["table"] = invite.table
    return render(request, "games/invite.html", ctx, status=REFUSAL_STATUS.get(error.code, 409))


def _seat_taken(request, invite: Invite):
    request.session.pop(SESSION_KEY, None)
    messages.success(
        request,
        _("Welcome! You sit at seat %(n)d of table %(t)d.")
        % {"n": invite.seat_index + 1, "t": invite.table_id},
    )
    return redirect("games:table", invite.table_id)


@require_http_methods(["GET", "POST"])
def invite_open(request, token):
    """The page an invite link opens: who invites you where; take the seat, or sign up first."""
    invite = invite_find(token)
    user = request.user if request.user.is_authenticated else None
    refusal = invite_refusal(invite, user)
    if refusal is not None:
        return _refused(request, refusal, invite)
    # kept for the way back from sign-up, log-in or e-mail confirmation (invite/continue/)
    request.session[SESSION_KEY] = token
    if request.method == "POST" and request.POST.get("decline"):
        try:
            invite = invite_decline(token=token)
        except ServiceError as e:
            return _refused(request, e, invite)
        request.session.pop(SESSION_KEY, None)
        ctx = {**_invite_context(invite), "declined": True}
        return render(request, "games/invite.html", ctx)
    if request.method == "POST":
        if user is None:
            return redirect(reverse("account_login") + "?" + urlencode({"next": request.path}))
        try:
            invite = invite_accept(token=token, user=user)
        except ServiceError as e:
            return _refused(request, e, invite)
        return _seat_taken(request, invite)
    ctx = _invite_context(invite)
    following = reverse("games:invite_continue")
    ctx["invite_signup_url"] = (
        reverse("account_signup") + "?" + urlencode({"next": following, "email": invite.email})
    )
    ctx["invite_login_url"] = reverse("account_login") + "?" + urlencode({"next": following})
    return render(request, "games/invite.html", ctx)


@login_required
@require_GET
def invite_continue(request):
    """Back from sign-up or log-in: the invite page of the link this browser followed, where
    the seat is taken by a POST. A GET never seats anyone: another site could make a signed-in
    browser follow a link it planted."""
    token = request.session.get(SESSION_KEY)
    if not token:
        messages.info(
            request, _("There is no invitation waiting: open the link from your e-mail again.")
        )
        return redirect("games:lobby")
    return redirect("games:invite", token)
