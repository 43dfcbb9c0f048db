"""A mail relay that accepts and never answers stops no table (issue 43: three password resets
once stopped all play, with the mail on the live-play queue and no SMTP timeout).

The site runs in production's layout (tests/deploy/site.py) with EMAIL_URL pointing at a relay
of this test's own that accepts each connection and then says nothing. Two tables of bots play
(every bot move is a task of the live-play worker) while visitors ask for password resets: the
resets answer at once, the moves keep coming, and each mail gives up within its timeout (the
relay sees the client hang up) to be retried later.
"""

import re
import secrets
import time
import urllib.parse
import urllib.request

import pytest

from games.models import Move
from games.table.bots import bot_table_create
from games.table.lifecycle import game_start
from tests.deploy.site import site_run
from tests.silent_server import SilentServer

pytestmark = pytest.mark.redis

EMAIL_TIMEOUT = 2  # seconds, through EMAIL_URL's ?timeout=, as an operator writes it


def password_reset(url: str, email: str) -> int:
    """A visitor's POST of the password-reset form (a CSRF token of their own, as the form's
    cookie and field would carry it); the status without following the redirect."""
    token = secrets.token_hex(16)
    request = urllib.request.Request(
        url + "/accounts/password/reset/",
        data=urllib.parse.urlencode({"email": email, "csrfmiddlewaretoken": token}).encode(),
        headers={"Cookie": f"csrftoken={token}", "Referer": url + "/accounts/password/reset/"},
    )

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        return opener.open(request, timeout=10).status
    except urllib.error.HTTPError as e:
        return e.code


def test_a_hung_mail_relay_stops_no_table(transactional_db, tmp_path, settings, django_user_model):
    relay = SilentServer()
    try:
        with site_run(
            tmp_path,
            settings,
            EMAIL_URL=f"smtp://127.0.0.1:{relay.port}?timeout={EMAIL_TIMEOUT}",
        ) as site:
            people = [
                django_user_model.objects.create_user(f"p{i}", f"p{i}@example.com", "pw-okey-1234")
                for i in range(3)
            ]
            for manager in people[:2]:  # one table of bots per person
                table = bot_table_create(manager=manager, options={})
                table.refresh_from_db()
                assert game_start(table_id=table.pk, expected_version=table.game.version)
            # the bots begin (the site's sweep takes up their first turn, sent to this test's
            # broker, within its period)
            deadline = time.monotonic() + 30
            while Move.objects.count() < 3:
                assert time.monotonic() < deadline, site.logs()
                time.sleep(0.2)

            for person in people:
                started = time.monotonic()
                assert password_reset(site.url, person.email) == 302, site.logs()
                assert time.monotonic() - started < 5  # the page never waits for the relay
            asked = time.monotonic()

            # moves keep flowing while the relay holds the mail
            moves, times = Move.objects.count(), []
            while time.monotonic() - asked < 4 * EMAIL_TIMEOUT + 6:
                time.sleep(0.25)
                now_moves = Move.objects.count()
                if now_moves > moves:
                    times.append(time.monotonic())
                    moves = now_moves
            gaps = [b - a for a, b in zip([asked, *times], times, strict=False)]
            assert len(times) >= 5, (len(times), site.logs())
            assert max(gaps) < 8, (gaps, site.logs())

            # every mail reached the relay, and each gave up within its timeout
            with relay.lock:
                connections = [list(c) for c in relay.connections]
            assert len(connections) >= 3, site.logs()
            ended = [c for c in connections if c[1]]
            assert len(ended) >= 3, (connections, site.logs())
            for accepted, hung_up in ended:
                assert hung_up - accepted < EMAIL_TIMEOUT + 3
            mail_log = (site.run_dir / "mail.log").read_text(errors="replace")
            assert re.search(r"email_send_task.*[Rr]etry", mail_log), mail_log[-3000:]
            worker_log = (site.run_dir / "worker.log").read_text(errors="replace")
            # the task ran there, never on the live-play worker (whose banner only names it)
            assert "email_send_task[" in mail_log and "email_send_task[" not in worker_log
            # the health checks stay as they were: the relay is not part of serving players
            assert urllib.request.urlopen(site.url + "/healthz/ready", timeout=5).status == 200
    finally:
        relay.close()
