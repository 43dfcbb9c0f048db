from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from accounts import guest_pages
from accounts.guest_pages import guest_signup_page
from accounts.views import leaderboard, set_language
from accounts.yourdata import privacy
from okeysite.sitefiles import favicon, manifest

urlpatterns = [
    # Our set_language also stores the choice in a logged-in player's profile.
    path("i18n/setlang/", set_language, name="set_language"),
    path("", include("okeysite.health_urls")),
    path("favicon.ico", favicon, name="favicon"),
]
urlpatterns += i18n_patterns(
    # in each language (/en/manifest.webmanifest): a phone installs the site in the language of
    # the page it was installed from
    path("manifest.webmanifest", manifest, name="manifest"),
    path("admin/", admin.site.urls),
    # before allauth's own: a guest is sent to the guest sign-up from these (accounts.guest_pages)
    path("accounts/password/set/", guest_pages.password_set, name="account_set_password"),
    path("accounts/password/change/", guest_pages.password_change, name="account_change_password"),
    path("accounts/email/", guest_pages.email, name="account_email"),
    path("accounts/", include("allauth.urls")),
    path("profile/", include("accounts.urls")),
    path("leaderboard/", leaderboard, name="leaderboard"),
    path("privacy/", privacy, name="privacy"),
    path("guest/signup/", guest_signup_page, name="guest_signup"),
    path("", include("games.learn.urls")),
    path("", include("games.urls")),
    prefix_default_language=False,
)
