"""A signed-in player's pages are in their profile's language, wherever the link came from: `/`
typed in, a link in an e-mail, a bookmark. The profile holds the player's choice (the language
switch and the profile form both write it). The site's default language has no prefix in its
addresses, so such an address says nothing about a language: for a player whose profile is in
another, it is sent on, once, to the same page in theirs. An address with a prefix (`/en/...`)
names its language and is left as it is. Before, only the page right after log-in followed the
profile, and `/` stayed Turkish for an English player."""

from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.shortcuts import redirect
from django.urls import Resolver404, resolve
from django.utils import translation


class ProfileLanguageMiddleware:
    """After the log-in's and the locale's middleware: a signed-in player's GET of a page at an
    address without a language prefix is redirected to it in their profile's language, when
    that is not the default (htmx requests are left alone: they fetch parts of a page already
    shown). The profile is the one base.html shows the player's name from: no extra query."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        wanted = _profile_language(request)
        unprefixed = translation.get_language_from_path(request.path_info) is None
        if wanted and wanted != settings.LANGUAGE_CODE and unprefixed:
            here = request.get_full_path()
            there = url_in_language(here, wanted)
            if there != here:
                return redirect(there)
        return self.get_response(request)


def _profile_language(request) -> str | None:
    if request.method != "GET" or request.headers.get("HX-Request"):
        return None
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    profile = getattr(user, "profile", None)
    language = getattr(profile, "language", None)
    return language if language in dict(settings.LANGUAGES) else None


def url_in_language(url: str, language: str) -> str:
    """``url`` (a path, or an absolute URL of this site) as the page in ``language``: the
    default language's pages have no prefix, the others' ``/<code>/``. A path that is no
    page in that language (outside the translated patterns) is returned unchanged."""
    parts = urlsplit(url)
    path = parts.path or "/"
    shown = translation.get_language_from_path(path)
    if shown is not None:
        path = path[len(shown) + 1 :] or "/"
    if language != settings.LANGUAGE_CODE:
        path = f"/{language}{path}"
    with translation.override(language):
        try:
            resolve(path)
        except Resolver404:
            return url
    return urlunsplit(("", "", path, parts.query, parts.fragment))
