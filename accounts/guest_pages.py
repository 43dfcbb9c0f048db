"""A guest's own page: signing up in one step (accounts.guests); and the account pages a guest
is sent there from instead."""

from functools import wraps
from urllib.parse import urlencode

from allauth.account import views as allauth_views
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from games.errors import ServiceError
from games.models import Seat
from games.table.create import UNFINISHED

from .forms import GuestSignupForm
from .guests import guest_signup
from .models import guest_is


@login_required
def guest_signup_page(request):
    """The guest's e-mail, name and password: they become a player, still logged in, and go on
    where they were (``next``: their table) or to their profile."""
    if not guest_is(request.user):
        return redirect("accounts:profile")
    form = GuestSignupForm(
        request.POST or None,
        user=request.user,
        initial={"display_name": request.user.profile.display_name},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            guest_signup(
                request,
                email=data["email"],
                password=data["password1"],
                display_name=data["display_name"],
            )
        except ServiceError as e:
            messages.error(request, e.message)
        else:
            messages.success(
                request,
                _(
                    "Welcome! Your games are yours to keep from now on. We have sent you an "
                    "e-mail: follow its link to confirm your address."
                ),
            )
            return redirect(_next_page(request))
    following = _safe_next(request)
    return render(request, "accounts/guest_signup.html", {"form": form, "next": following})


def _safe_next(request) -> str:
    following = request.GET.get("next", "")
    if url_has_allowed_host_and_scheme(following, allowed_hosts={request.get_host()}):
        return following
    return ""


def _next_page(request) -> str:
    """Where a guest who just signed up goes on: where they came from, else the table of the
    game they are in, else their profile."""
    table = Seat.objects.filter(user=request.user, table__status__in=UNFINISHED)
    table = table.order_by("-table_id").values_list("table_id", flat=True).first()
    if _safe_next(request):
        return _safe_next(request)
    if table is not None:
        return reverse("games:table", args=[table])
    return reverse("accounts:profile")


def guests_sign_up_first(view):
    """An account page a guest must not use as such (``view``: setting a password, adding an
    e-mail address): a guest who did so had an account that the guests' cleanup then deleted,
    password and all. A guest is sent to the one-step sign-up instead, which makes them a full
    account; anyone else gets ``view``."""

    @wraps(view)
    def guarded(request, *args, **kwargs):
        if guest_is(request.user):
            url = reverse("guest_signup")
            following = request.GET.get("next", "")
            return redirect(f"{url}?{urlencode({'next': following})}" if following else url)
        return view(request, *args, **kwargs)

    return guarded


password_set = guests_sign_up_first(allauth_views.password_set)
password_change = guests_sign_up_first(allauth_views.password_change)
email = guests_sign_up_first(allauth_views.email)
