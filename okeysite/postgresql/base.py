"""Django's PostgreSQL backend, with a health check that runs only on a connection left idle.

With CONN_HEALTH_CHECKS, Django tries a persistent connection (``SELECT 1``) the first time it
is used after each ``close_old_connections``, and Channels calls that before and after every
database thread call: every move paid one round trip more than its own four, about a twentieth
of daphne's CPU for the move. A connection that answered a moment ago is as good as one that
has just answered ``SELECT 1``, so the check is skipped within ``HEALTH_CHECK_AFTER_IDLE``
seconds of the connection's last answer (pgbouncer does the same, with its server_check_delay
of 30 s). Should the server go away inside that window, the next statement fails as it would
have without the check; Django then marks the connection (errors_occurred), tries it at the
next ``close_old_connections`` and replaces it.
"""

import time

from django.db.backends.postgresql import base

HEALTH_CHECK_AFTER_IDLE = 5.0  # seconds


class DatabaseWrapper(base.DatabaseWrapper):
    _answered_at = float("-inf")  # time.monotonic() of the server's last answer we know of

    def connect(self):
        super().connect()
        self._answered_at = time.monotonic()

    def close_if_health_check_failed(self):
        if (
            self.connection is not None
            and self.health_check_enabled
            and not self.health_check_done
            and time.monotonic() - self._answered_at < HEALTH_CHECK_AFTER_IDLE
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
        if self.connection is not None and self.health_check_done:
            self._answered_at = time.monotonic()

    def _commit(self):
        super()._commit()
        self._answered_at = time.monotonic()
