"""The Celery broker transport: kombu's Redis transport, fixed so that a Redis restart does not
kill the worker. Settings name it by the URL scheme ``okeyredis`` (okeysite/settings.py).

Why (celery 5.7.0, kombu 5.7.0): when the broker connection breaks, the worker's consumer
(``Consumer.on_connection_error_after_connected``) first calls ``Connection.collect()`` and then
``Connection.close()``. ``collect()`` closes the default channel, whose ``close()`` starts by
reading the reply of the BRPOP still pending on the dead socket; that read raises a connection
error, which ``collect()`` ignores, and the channel is left half open (not marked closed, its
unacknowledged messages not restored). ``collect()`` then detaches the transport from its
connection (``transport.client = None``). ``close()`` closes the same channel again; this time it
gets as far as restoring the unacknowledged messages (the tasks the worker holds: acks_late, and
every countdown task waiting for its time), which needs a new Redis pool built from
``transport.client``, now None: ``AttributeError: 'NoneType' object has no attribute 'hostname'``.
That is not a connection error, so nothing ignores it and the worker exits ("Unrecoverable
error"). With bot games running the worker nearly always holds a countdown task, hence 16 deaths
in 17 Redis kills (bench/README.md, Faults).

The fix: a connection error while reading the pending BRPOP reply means there is no reply to
read (the socket is gone, and kombu has already disconnected it), so the close goes on. The first
close then completes while the transport is still attached: the restore of the unacknowledged
messages either succeeds (Redis is back, or was only unreachable) or fails with a connection
error that the caller ignores, and the second close is a no-op on a closed channel. If anything
else still reaches the connection parameters of a detached transport, it raises a connection
error, which every caller on this path ignores, instead of the AttributeError.

Tasks that were not restored are not lost for the game: each deadline is in the database and the
sweep plays it (games.timers.sweep); a Redis that kept its data restores them itself after the
visibility timeout.
"""

from queue import Empty

import redis as redis_py
from kombu.transport import TRANSPORT_ALIASES
from kombu.transport import redis as kombu_redis

SCHEME = "okeyredis"


class Channel(kombu_redis.Channel):
    def close(self):
        if self._in_poll:
            try:
                self._brpop_read()
            except Empty:
                pass
            except self.connection_errors:
                # The socket died with the BRPOP pending: there is no reply to collect, and
                # stopping here would leave the channel half closed (see the module docstring).
                pass
        super().close()

    def _connparams(self, asynchronous=False):
        if self.connection.client is None:
            # A late use of a channel whose transport the connection already let go (its
            # collect()): say so as a connection error, which the callers ignore.
            raise redis_py.ConnectionError("the broker connection is closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel


# kombu picks the transport from the URL's scheme, and a "+socket" URL (a unix socket) always
# names it there, so an alias is the one way to choose this class for both TCP and socket URLs.
TRANSPORT_ALIASES.setdefault(SCHEME, f"{__name__}:Transport")
