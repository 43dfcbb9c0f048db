"""A guest's own page: signing up in one step (accounts.guests)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from games.errors import ServiceError

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
            messages.success(request, _("Welcome! Your games are yours to keep from now on."))
            return redirect("accounts:profile")
    return render(request, "accounts/guest_signup.html", {"form": form})
