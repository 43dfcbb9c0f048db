from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.urls import translate_url
from django.utils import translation


def profile_language(user) -> str | None:
    profile = getattr(user, "profile", None)
    return profile.language if profile else None


class AccountAdapter(DefaultAccountAdapter):
    def login(self, request, user):
        super().login(request, user)
        # From here on the player gets the language of their profile: the "logged in" message
        # of this request and the page it redirects to.
        language = profile_language(user)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language

    def get_login_redirect_url(self, request):
        url = super().get_login_redirect_url(request)
        language = profile_language(request.user)
        if not language:
            return url
        # translate_url resolves in the active language: use the one the URL is written in.
        with translation.override(
            translation.get_language_from_path(url) or settings.LANGUAGE_CODE
        ):
            return translate_url(url, language)
