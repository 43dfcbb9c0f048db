"""The site's words for messages that allauth and Django's password checks show players.

Their own catalogues mix "parola" with the site's "şifre", write Title Case ("Şifre Belirle",
"Beni Hatırla"), garble the recovery codes' count ("10 adet kurtarma kodu içerisinden 10 sayıda")
and say "Email" beside the site's "E-mail" (issue 42). The site's catalogues (locale/, which
LOCALE_PATHS puts first) translate these messages in its own voice: Turkish in locale/tr, and the
English wording in locale/en. Nothing calls this module; it is here so that `make messages` finds
the messages in the site's source and keeps their translations.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

MESSAGES = (
    # allauth: account pages and forms
    gettext_noop("Remember Me"),
    gettext_noop("Email Addresses"),
    gettext_noop("Add Email"),
    gettext_noop("Make Primary"),
    gettext_noop("Re-send Verification"),
    gettext_noop("Set Password"),
    gettext_noop("Change Password"),
    gettext_noop("Current Password"),
    gettext_noop("New Password"),
    gettext_noop("New Password (again)"),
    gettext_noop("Password Reset"),
    gettext_noop("Sign In"),
    gettext_noop("Sign Out"),
    gettext_noop("Sign Up"),
    # allauth: the second factor
    gettext_noop("Authenticator App"),
    gettext_noop("TOTP Authenticator"),
    gettext_noop("Recovery Codes"),
    ngettext_lazy(
        "There is %(unused_count)s out of %(total_count)s recovery codes available.",
        "There are %(unused_count)s out of %(total_count)s recovery codes available.",
        "unused_count",
    ),
    # Django's password checks, shown at sign-up and on a new password
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("This password is too common."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("Your password can’t be entirely numeric."),
)
