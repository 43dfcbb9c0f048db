"""The social pages and forms: follow, unfollow, block and unblock a player (from their profile
or a table), report them, the friends list with its one-click invitations, and the button that
takes a friend's invitation. A refusal comes back as a message on the page it came from, and
changes nothing."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.errors import ServiceError
from games.invites.services import invite_accept, site_url
from games.models import Report, Table
from games.names import player_name
from games.social.blocks import block_add, block_remove
from games.social.follows import follow_add, follow_remove
from games.social.friends import friends_read, invite_table
from games.social.invitations import friend_invite
from games.social.notices import TEMPLATE
from games.social.rematch import rematch_accept, rematch_decline, rematch_read
from games.social.reports import NOTE_MAX, report_make
from games.table.privacy import table_open_to


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _back(request, user_id):
    """Where a form came from (a table, the friends list), else the player's profile."""
    target = request.POST.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(reverse("accounts:profile_detail", args=[user_id]))


def _act(request, user_id, service, done: str):
    try:
        service(user=request.user, other_id=user_id)
    except ServiceError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, done)
    return _back(request, user_id)


def _name(user_id) -> str:
    user = get_user_model().objects.filter(pk=user_id).select_related("profile").first()
    return player_name(user) if user is not None else ""


@login_required
@require_POST
def player_follow(request, user_id):
    return _act(request, user_id, follow_add, _("You follow %(name)s.") % {"name": _name(user_id)})


@login_required
@require_POST
def player_unfollow(request, user_id):
    return _act(
        request,
        user_id,
        follow_remove,
        _("You no longer follow %(name)s.") % {"name": _name(user_id)},
    )


@login_required
@require_POST
def player_block(request, user_id):
    return _act(
        request,
        user_id,
        block_add,
        _(
            "You blocked %(name)s: their chat and invitations no longer reach you, and quick "
            "play does not seat you together. They are not told."
        )
        % {"name": _name(user_id)},
    )


@login_required
@require_POST
def player_unblock(request, user_id):
    return _act(
        request,
        user_id,
        block_remove,
        _("You unblocked %(name)s.") % {"name": _name(user_id)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def player_report(request, user_id):
    """The report form: why, a note, and the table it concerns (from the table's link)."""
    reported = get_object_or_404(get_user_model(), pk=user_id, is_active=True)
    table_id = _int(request.POST.get("table") or request.GET.get("table"))
    table = Table.objects.filter(pk=table_id).first() if table_id else None
    if table is not None and not table_open_to(table, request.user):
        table = None  # a private table the reporter was not at: as if none were named
    error = None
    if request.method == "POST":
        try:
            report_make(
                reporter=request.user,
                reported_id=reported.pk,
                reason=request.POST.get("reason"),
                note=request.POST.get("note", ""),
                table_id=table.pk if table else None,
            )
        except ServiceError as e:
            error = e.message
        else:
            messages.success(
                request,
                _("Thank you: staff will look at your report. %(name)s is not told who made it.")
                % {"name": player_name(reported)},
            )
            if table is not None:
                return redirect("games:table", table.pk)
            return redirect("accounts:profile_detail", reported.pk)
    ctx = {
        "reported": reported,
        "reported_name": player_name(reported),
        "table": table,
        "reasons": Report.Reason.choices,
        "chosen": request.POST.get("reason", ""),
        "note": request.POST.get("note", ""),
        "note_max": NOTE_MAX,
        "error": error,
    }
    return render(request, "social/report.html", ctx, status=400 if error else 200)


@login_required
def friends(request):
    """Friends, who of them is online and where; a one-click invitation to your open table."""
    ctx = {"friends": friends_read(request.user), "invite_table": invite_table(request.user)}
    return render(request, "social/friends.html", ctx)


@login_required
@require_POST
def friend_invite_page(request, user_id):
    try:
        invite = friend_invite(
            inviter=request.user,
            friend_id=user_id,
            table_id=_int(request.POST.get("table")),
            base=site_url(request),
        )
    except ServiceError as e:
        messages.error(request, e.message)
    else:
        messages.success(
            request,
            _("%(name)s is invited to seat %(n)d.")
            % {"name": _name(user_id), "n": invite.seat_index + 1},
        )
    return redirect("games:friends")


@login_required
@require_POST
def invitation_accept(request, token):
    """The invitation's "Sit down" (htmx, from a notice on any page): to the table."""
    try:
        invite = invite_accept(token=token, user=request.user)
    except ServiceError as e:
        html = render_to_string(f"{TEMPLATE}#refusal", {"message": e.message})
        return HttpResponse(html)
    url = reverse("games:table", args=[invite.table_id])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def rematch(request, table_id):
    """The rematch panel of a finished table, for this viewer (fetched by the page)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not table_open_to(table, request.user):
        raise Http404
    return _rematch_panel(request, table)


def _rematch_panel(request, table, message=None):
    r = rematch_read(table, request.user)
    if r is None:
        return HttpResponse("")
    return render(request, "social/rematch.html#panel", {"r": r, "message": message})


@login_required
@require_POST
def rematch_answer(request, table_id, accept: bool):
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not table_open_to(table, request.user):
        raise Http404
    try:
        (rematch_accept if accept else rematch_decline)(table_id=table.pk, user=request.user)
    except ServiceError as e:
        table.refresh_from_db()
        return _rematch_panel(request, table, e.message)
    table.refresh_from_db()
    return _rematch_panel(request, table)
