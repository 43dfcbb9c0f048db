"""Players and tables for a run, made through the site's own code in the harness process.

Users get a session the way a log-in makes one (django.test.Client.force_login writes the
session row the site reads); ``login_through_form`` also logs one user in through the real
log-in page over HTTP, to show that a cookie from the site works the same. Passwords are unusable
for the rest, so no PBKDF2 runs during setup. Tables are made with the table's services, and the first
hand is dealt at once (the Start countdown's task then finds nothing to do).
"""

from __future__ import annotations

import http.cookies
import re
import urllib.error
import urllib.parse
import urllib.request

PASSWORD = "load-harness-pw-1"


def django_setup(env: dict) -> None:
    import os

    for key in (
        "DATABASE_URL",
        "REDIS_URL",
        "EMAIL_URL",  # production settings (DEBUG=0) refuse to start without it
        "DEBUG",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "OKEY_VAR_DIR",
    ):
        os.environ[key] = env[key]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
    import django

    django.setup()


def users_create(prefix: str, count: int, *, with_password: int = 0) -> list:
    """``count`` users with verified addresses; the first ``with_password`` can log in by form."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    from accounts.models import Profile, display_name_key

    User = get_user_model()
    users = []
    for i in range(count):
        email = f"{prefix}-{i}@load.example.com"
        user = User(username=email, email=email)
        if i < with_password:
            user.set_password(PASSWORD)
        else:
            user.set_unusable_password()
        users.append(user)
    users = User.objects.bulk_create(users)
    EmailAddress.objects.bulk_create(
        EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in users
    )
    # bulk_create sends no post_save, so the profile that every signed-up player has is made
    # here (the site names players from it; a player without one costs a query per read). Their
    # language is that of the pages the harness's sockets show (?lang=en), as for a player who
    # signed up on them: their own parts come rendered in it.
    Profile.objects.bulk_create(
        Profile(user=u, display_name=name, name_key=display_name_key(name), language="en")
        for u in users
        for name in [u.email.split("@")[0]]
    )
    return users


def session_cookie(user) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def login_through_form(base_url: str, email: str, password: str = PASSWORD) -> str:
    """Log in through /accounts/login/ as a browser does; return the session cookie's value."""
    jar = http.cookies.SimpleCookie()

    def request(url, data=None):
        req = urllib.request.Request(url, data=data)
        req.add_header("Cookie", "; ".join(f"{k}={v.value}" for k, v in jar.items()))
        req.add_header("Origin", base_url)
        req.add_header("Referer", url)
        opener = urllib.request.build_opener(NoRedirect)
        try:
            resp = opener.open(req, timeout=30)
        except urllib.error.HTTPError as e:
            resp = e
        for header in resp.headers.get_all("Set-Cookie") or []:
            jar.load(header)
        return resp.status, resp.read().decode("utf-8", "replace")

    url = base_url + "/accounts/login/"
    status, page = request(url)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "login": email, "password": password}
    ).encode()
    status, page = request(url, data)
    if status != 302 or "sessionid" not in jar:
        raise RuntimeError(f"log-in through the form failed: HTTP {status}")
    return jar["sessionid"].value


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def tables_create(
    users: list, *, seats: int = 4, options: dict | None = None, start: bool = True
) -> list[int]:
    """One table per ``seats`` users, full, and (``start``) started and dealt. Returns the
    table ids. Unstarted tables have no deadline, so the server leaves them alone."""
    from games.engine.variants import variant
    from games.table.create import table_create
    from games.table.lifecycle import game_start, table_start
    from games.table.seats import seat_take

    options = options or {}
    # long games by default where the game counts down from a start (Düz and Eşli); a game
    # without a start count (101) takes only its own options
    defaults = variant(options.get("variant", "duz")).make_options()
    long = {"hand_limit": 50, "start_count": 50} if hasattr(defaults, "start_count") else {}
    opts = {**long, **options}
    ids = []
    for k in range(0, len(users) - seats + 1, seats):
        group = users[k : k + seats]
        table = table_create(manager=group[0], options=opts)
        for i in range(1, seats):
            seat_take(table_id=table.pk, user=group[i], index=i)
        if start:
            version = table_start(table_id=table.pk, user=group[0])
            game_start(table_id=table.pk, expected_version=version)
        ids.append(table.pk)
    return ids
