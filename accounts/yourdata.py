"""Your data: the privacy notice, deleting one's account, and downloading one's data.

Deleting is confirmed by the account's password, or, for an account without a usable password,
by a link e-mailed to its address (accounts.deletion.deletion_tokens). Wrong passwords are
counted, a few per account every few minutes, so that a session left open is no way to guess
the password it was opened with.
"""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.core.mail import EmailMessage
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import base36_to_int, int_to_base36
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import ServiceError

from .allowances import allowance_spend
from .deletion import account_delete, deletion_tokens
from .export import account_export, export_allowed
from .tasks import email_send_on_commit

# Wrong passwords on the deletion form: this many per window per account, then it waits.
PASSWORD_TRIES = 5
PASSWORD_WINDOW = 300
# Links e-mailed for an account without a password: this many per window, not a mail flood.
LINKS_SENT = 3
LINKS_WINDOW = 3600


def privacy(request):
    return render(
        request,
        "accounts/privacy.html",
        {
            "controller": settings.PRIVACY_CONTROLLER,
            "contact": settings.PRIVACY_CONTACT,
            "chat_days": settings.OKEY_CHAT_KEEP.days,
            "idle_minutes": int(settings.OKEY_OPEN_TABLE_IDLE.total_seconds() // 60),
            "session_days": settings.SESSION_COOKIE_AGE // 86400,
            "guest_hours": int(settings.OKEY_GUEST_SESSION.total_seconds() // 3600),
            "csrf_days": settings.CSRF_COOKIE_AGE // 86400,
        },
    )


@login_required
def delete_account(request):
    user = request.user
    by_password = user.has_usable_password()
    error = None
    if request.method == "POST" and by_password:
        if not _password_try_allowed(user):
            error = _("Too many wrong passwords: try again in a few minutes.")
        elif not user.check_password(request.POST.get("password", "")):
            error = _("That is not your password.")
        else:
            return _deleted(request, user)
    elif request.method == "POST" and user.email:
        if not allowance_spend(f"account-delete-links:{user.pk}", LINKS_SENT, LINKS_WINDOW):
            error = _("We sent you this link a few times already: try again in an hour.")
        else:
            _link_send(request, user)
            sent = _("We sent a link to %(email)s: open it to delete your account.")
            messages.info(request, sent % {"email": user.email})
            return redirect("accounts:profile")
    status = 400 if error else 200
    ctx = {"by_password": by_password, "error": error}
    return render(request, "accounts/delete.html", ctx, status=status)


def delete_confirm(request, uidb36, token):
    """The e-mailed link: a page with one button (a GET never deletes: mail scanners follow
    links), then the deletion, in whatever browser it was opened."""
    try:
        user = get_user_model().objects.get(pk=base36_to_int(uidb36), is_active=True)
    except (ValueError, get_user_model().DoesNotExist):
        user = None
    if user is None or not deletion_tokens.check_token(user, token):
        return render(request, "accounts/delete_link.html", {"invalid": True}, status=400)
    if request.method == "POST":
        return _deleted(request, user)
    return render(request, "accounts/delete_link.html", {"email": user.email})


def _deleted(request, user):
    try:
        account_delete(user)
    except ServiceError as e:
        messages.error(request, e.message)
        return redirect("games:lobby")
    if request.user.is_authenticated and request.user.pk == user.pk:
        logout(request)
    messages.success(request, _("Your account was deleted. Goodbye!"))
    return redirect("games:lobby")


def _password_try_allowed(user) -> bool:
    return allowance_spend(f"account-delete-tries:{user.pk}", PASSWORD_TRIES, PASSWORD_WINDOW)


def _link_send(request, user) -> None:
    path = reverse(
        "accounts:delete_confirm",
        args=[int_to_base36(user.pk), deletion_tokens.make_token(user)],
    )
    with translation.override(user.profile.language):
        ctx = {"url": request.build_absolute_uri(path), "name": user.profile.display_name}
        subject = _("[Okey] Confirm the deletion of your account")
        body = render_to_string("accounts/email/delete_link.txt", ctx)
    email_send_on_commit(EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email]))


@login_required
@require_POST
def export(request):
    """The player's data as a JSON file to download (POST: it counts against an allowance)."""
    user = request.user
    if not export_allowed(user):
        messages.error(
            request, _("You downloaded your data a few times already: try again in an hour.")
        )
        return redirect("accounts:profile")
    data = account_export(user)
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="okey-data-{user.pk}-{stamp}.json"'
    response["Cache-Control"] = "no-store"
    return response
