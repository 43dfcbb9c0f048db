from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from .forms import ProfileForm
from .models import LANGUAGE_CHOICES, Profile


@login_required
def profile(request):
    return render(request, "accounts/profile.html", {"profile": request.user.profile, "own": True})


def profile_detail(request, user_id):
    user = get_object_or_404(get_user_model(), pk=user_id, is_active=True)
    own = request.user.is_authenticated and request.user.pk == user.pk
    return render(request, "accounts/profile.html", {"profile": user.profile, "own": own})


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
    """Django's set_language, which also keeps a logged-in player's profile language in step."""
    response = django_set_language(request)
    language = request.POST.get("language")
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
