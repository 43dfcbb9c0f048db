"""Guests: a visitor plays the first hand and practice games against bots without an account.

A guest is a real user (so that seats, moves and the table's pages work as for anyone) with a
``Guest`` row: logged in for this session only, with a generated display name and no usable
password. Nothing a guest plays is rated (they only ever sit at their own practice tables, with
bots), they cannot chat, invite, or make rated or invite-only tables, and the leaderboard leaves
them out. When their session is over (logged out, expired) the periodic cleanup deletes the user,
and with it their tables (``Table.manager`` cascades). Signing up turns the guest into a real
account in one step (``guest_signup``), keeping them logged in and their table.

New guests are limited per client address (``OKEY_GUESTS_PER_ADDRESS`` an hour): each is a row
and a session, and a script must not be able to make them by the thousand.
"""

import secrets
from datetime import timedelta
from importlib import import_module

from allauth.account.models import EmailAddress
from allauth.account.utils import setup_user_email
from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model, login, update_session_auth_hash
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import ServiceError
from games.table.publish import lobby_publish

from .models import Guest, Profile, display_name_free, guest_is

GUEST_BACKEND = "django.contrib.auth.backends.ModelBackend"
RATE_WINDOW = 3600  # seconds: OKEY_GUESTS_PER_ADDRESS is per hour


def guest_refusal() -> ServiceError:
    """What a guest is told where only accounts may go (chat, invites, rated tables)."""
    return ServiceError(
        "guest_not_allowed",
        _("Guests play practice games against bots: sign up to do this."),
    )


def _rate_check(address: str) -> None:
    """Count a new guest from ``address``; refuse once the hour's allowance is used. The counter
    lives in the cache that every web process shares (the log-in limits' too)."""
    key = f"guests:{address}"
    cache.add(key, 0, timeout=RATE_WINDOW)
    try:
        made = cache.incr(key)
    except ValueError:  # expired between add and incr: this is the window's first
        cache.set(key, 1, timeout=RATE_WINDOW)
        made = 1
    if made > settings.OKEY_GUESTS_PER_ADDRESS:
        raise ServiceError(
            "guests_too_many",
            _(
                "Too many visitors have played as guests from your address lately: try again in an hour, or sign up."
            ),
        )


def guest_start(request):
    """Log the visitor in as a new guest for this session (a signed-in player stays who they
    are); the guest user. Refused (ServiceError) past the address's allowance."""
    if request.user.is_authenticated:
        return request.user
    _rate_check(request.META.get("REMOTE_ADDR", ""))
    User = get_user_model()
    with transaction.atomic():
        user = User(username=f"guest-{secrets.token_hex(8)}")
        user.set_unusable_password()
        user.save()  # the profile follows (accounts.models.profile_create)
        profile = user.profile
        profile.display_name = display_name_free(
            _("Guest %(n)s") % {"n": secrets.randbelow(9000) + 1000}
        )
        language = (getattr(request, "LANGUAGE_CODE", "") or "tr")[:2]
        profile.language = language if language in ("tr", "en") else "tr"
        profile.save(update_fields=["display_name", "language"])
        login(request, user, backend=GUEST_BACKEND)
        request.session.set_expiry(int(settings.OKEY_GUEST_SESSION.total_seconds()))
        if not request.session.session_key:
            request.session.save()
        Guest.objects.create(user=user, session_key=request.session.session_key)
    return user


def guest_signup(request, *, email: str, password: str, display_name: str):
    """Turn the guest of this request into an account: their e-mail (to be confirmed, as at every
    sign-up), password and display name; they stay logged in, with their tables."""
    user = request.user
    if not guest_is(user):
        raise ServiceError("not_guest", _("You already have an account."))
    with transaction.atomic():
        user.email = email
        user.set_password(password)
        user.save(update_fields=["email", "password"])
        profile = Profile.objects.get(user=user)
        profile.display_name = display_name
        profile.save(update_fields=["display_name"])  # with its name_key
        Guest.objects.filter(user=user).delete()
        setup_user_email(request, user, [])
        address = EmailAddress.objects.get_primary(user)
    # after the commit: the confirmation's mail is sent by a task on commit (AccountAdapter)
    address.send_confirmation(request, signup=True)
    update_session_auth_hash(request, user)  # the new password must not log them out
    request.session.set_expiry(None)  # an account's session, no longer a guest's
    return user


def _session_holds(session_key: str, user_id: int) -> bool:
    """Does the session ``session_key`` still exist, unexpired, with ``user_id`` logged in?"""
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    return store.load().get(SESSION_KEY) == str(user_id)


def guests_kept(user_ids) -> set[int]:
    """The guests among ``user_ids`` who can log in on their own: a usable password, or an
    address they confirmed. They are accounts now, whatever page they took to get there, and
    are never deleted as guests."""
    User = get_user_model()
    users = User.objects.filter(pk__in=user_ids)
    with_password = users.exclude(password__startswith=UNUSABLE_PASSWORD_PREFIX).exclude(
        password=""
    )
    verified = EmailAddress.objects.filter(user_id__in=user_ids, verified=True)
    return set(with_password.values_list("pk", flat=True)) | set(
        verified.values_list("user_id", flat=True)
    )


def guests_cleanup(*, now=None, limit: int = 500) -> int:
    """Delete the guests whose session is over, and their tables; how many. Any guest older than
    OKEY_GUEST_SESSION (plus a margin) goes too, whatever their session says. A beat task runs
    it every few minutes. A guest who set a password or confirmed an address (``guests_kept``)
    is not deleted: they become an account, as if they had signed up."""
    now = now or timezone.now()
    cutoff = now - settings.OKEY_GUEST_SESSION - timedelta(minutes=5)
    over = []
    for guest in Guest.objects.order_by("created")[:limit]:
        if guest.created < cutoff or not _session_holds(guest.session_key, guest.user_id):
            over.append(guest.user_id)
    kept = guests_kept(over)
    gone = [pk for pk in over if pk not in kept]
    if kept:
        Guest.objects.filter(user_id__in=kept).delete()
    if gone:
        with transaction.atomic():
            get_user_model().objects.filter(pk__in=gone, guest__isnull=False).delete()
            transaction.on_commit(lobby_publish)
    return len(gone)
