from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from accounts.views import leaderboard, set_language
from accounts.yourdata import privacy
from okeysite.sitefiles import favicon, manifest

urlpatterns = [
    # Our set_language also stores the choice in a logged-in player's profile.
    path("i18n/setlang/", set_language, name="set_language"),
    path("", include("okeysite.health_urls")),
    path("manifest.webmanifest", manifest, name="manifest"),
    path("favicon.ico", favicon, name="favicon"),
]
urlpatterns += i18n_patterns(
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("profile/", include("accounts.urls")),
    path("leaderboard/", leaderboard, name="leaderboard"),
    path("privacy/", privacy, name="privacy"),
    path("", include("games.urls")),
    prefix_default_language=False,
)
