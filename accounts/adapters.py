from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from django.conf import settings
from django.contrib.sites.shortcuts import get_current_site
from django.urls import translate_url
from django.utils import translation

from games.invites.services import invite_email_proven

from .tasks import email_send_on_commit


def profile_language(user) -> str | None:
    profile = getattr(user, "profile", None)
    return profile.language if profile else None


class AccountAdapter(DefaultAccountAdapter):
    def is_email_verified(self, request, email):
        # A player who followed an e-mailed table invite has proven that address: signing up
        # with it needs no second confirmation (games.invites.services).
        return super().is_email_verified(request, email) or invite_email_proven(request, email)

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

    def send_mail(self, template_prefix, email, context):
        # As allauth renders it (in the request's language), but sent by a Celery task after
        # the transaction commits (accounts/tasks.py).
        request = allauth_context.request
        ctx = {"request": request, "email": email, "current_site": get_current_site(request)}
        ctx.update(context)
        email_send_on_commit(self.render_mail(template_prefix, email, ctx))
