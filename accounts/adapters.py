from allauth.account.adapter import DefaultAccountAdapter
from django.urls import translate_url


def profile_language(user) -> str | None:
    profile = getattr(user, "profile", None)
    return profile.language if profile else None


class AccountAdapter(DefaultAccountAdapter):
    def get_login_redirect_url(self, request):
        # A player who chose a language in their profile gets the site in it after logging in.
        url = super().get_login_redirect_url(request)
        language = profile_language(request.user)
        return translate_url(url, language) if language else url
