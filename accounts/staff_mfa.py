"""Staff reach the admin only with a second factor.

The admin can void hands, close tables and read every account: a stolen staff password alone must
not open it. A staff member who has no authenticator app enrolled (allauth.mfa's TOTP) is sent to
the enrolment page (which then shows the recovery codes) with a message saying why; an enrolled
one logged in through the site's log-in, which asked for a code after the password (the admin's
own log-in page only redirects there: accounts/admin.py).
"""

from allauth.mfa.models import Authenticator
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _

# The admin's pages that stay open without a second factor: leaving it.
OPEN_ADMIN_VIEWS = {"logout"}


def staff_totp_enrolled(user) -> bool:
    return Authenticator.objects.filter(user=user, type=Authenticator.Type.TOTP).exists()


class StaffSecondFactor:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = request.resolver_match
        if match is None or match.namespace != "admin" or match.url_name in OPEN_ADMIN_VIEWS:
            return None
        user = request.user
        if not (user.is_authenticated and user.is_staff) or staff_totp_enrolled(user):
            return None
        messages.info(
            request,
            _("Staff need a second factor: set up an authenticator app, then the admin opens."),
        )
        return HttpResponseRedirect(reverse("mfa_activate_totp"))
