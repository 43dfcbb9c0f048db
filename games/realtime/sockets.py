"""What every socket of a daphne process shares: how many are open, and how a socket guards itself.

A socket is accepted only while its user and its address hold fewer than OKEY_SOCKETS_PER_USER
and OKEY_SOCKETS_PER_ADDRESS sockets here: one account or one machine cannot tie up a process's
connections and the table reads each socket costs. The counts are this process's own (each
daphne enforces them by itself); they are also what /metrics reports as open sockets. A socket
that sends too much, too fast or too deep is refused or closed before anything reads it.

A socket's database work (a move, its publish on commit, a whole table's render) runs in
``in_db_thread``: Channels' ``database_sync_to_async`` with asgiref's ``thread_sensitive=False``,
which takes a thread from the event loop's default executor instead of the one thread that
Channels otherwise runs all sync code of the process in: there, every table's move would wait
behind every other's queries and commits, and behind each move's publish, which waits for the
loop to send its messages. More sockets than one process serves well are served by more daphne processes (deploy/), as
Channels' deployment docs show.
"""

import time
from collections import Counter, deque
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from django.conf import settings


class SocketCounts:
    def __init__(self):
        self.by_user: Counter = Counter()
        self.by_address: Counter = Counter()
        self.total = 0

    def admit(self, user_id: int | None, address: str | None) -> bool:
        """Count one more socket, if the caps allow it; False (nothing counted) if not."""
        if user_id is not None and self.by_user[user_id] >= settings.OKEY_SOCKETS_PER_USER:
            return False
        if address is not None and self.by_address[address] >= settings.OKEY_SOCKETS_PER_ADDRESS:
            return False
        self.by_user[user_id] += user_id is not None
        self.by_address[address] += address is not None
        self.total += 1
        return True

    def release(self, user_id: int | None, address: str | None) -> None:
        for counts, key in ((self.by_user, user_id), (self.by_address, address)):
            if key is not None:
                counts[key] -= 1
                if counts[key] <= 0:
                    del counts[key]
        self.total -= 1


open_sockets = SocketCounts()


def socket_identity(scope) -> tuple[int | None, str | None]:
    """(user id or None for a visitor, client address or None) of a socket's scope."""
    user = scope.get("user")
    user_id = user.pk if user is not None and user.is_authenticated else None
    client = scope.get("client")
    return user_id, (client[0] if client else None)


MAX_MESSAGE_CHARS = 2000


MAX_JSON_DEPTH = 8


FLOOD_LIMIT = 15  # messages within FLOOD_WINDOW seconds; one more closes the socket


FLOOD_WINDOW = 1.0


CLOSE_FLOOD = 4008  # policy violation, in the application's range: the client does not retry


def scope_language(scope) -> str:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    lang = (query.get("lang") or [""])[0]
    return lang if lang in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


class FloodGuard:
    def __init__(self, limit=FLOOD_LIMIT, window=FLOOD_WINDOW):
        self.limit, self.window, self.times = limit, window, deque()

    def hit(self) -> bool:
        """Count one message; True when the socket is sending too many."""
        now = time.monotonic()
        self.times.append(now)
        while self.times and self.times[0] < now - self.window:
            self.times.popleft()
        return len(self.times) > self.limit


def _too_deep(text: str) -> bool:
    """Whether ``text`` nests brackets deeper than any message of ours: json.loads would
    recurse through them all before anything could refuse the message."""
    depth = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


class CountedSocket:
    """A consumer mixin: the socket is refused, before any read, when its user or its address
    holds as many sockets in this process as they may (games.realtime.sockets). The count is released
    when the consumer ends however it ends: daphne cancels a consumer that is slow to close
    (its disconnect handler never runs then), and a count that outlived its socket would
    refuse that player's next sockets for good."""

    counted = False

    async def __call__(self, scope, receive, send):
        try:
            return await super().__call__(scope, receive, send)
        finally:
            if self.counted:
                open_sockets.release(*self.identity)
                self.counted = False

    async def websocket_connect(self, message):
        self.identity = socket_identity(self.scope)
        self.counted = open_sockets.admit(*self.identity)
        if not self.counted:
            await self.close()
            return
        await super().websocket_connect(message)


class GoneClientSend:
    """A consumer mixin: a send to a client that went away while its frame was being made is
    dropped. daphne (autobahn) raises then; uncaught, it ended the consumer before its
    disconnect handler ran and left the groups joined."""

    async def send(self, *args, **kwargs):
        try:
            await super().send(*args, **kwargs)
        except Disconnected:
            pass  # the disconnect message follows, and is handled as any other


def in_db_thread(fn):
    """``fn`` as a coroutine function run in a thread of the loop's default executor, its stale
    database connections closed before and after as Channels does (see the module)."""
    return database_sync_to_async(fn, thread_sensitive=False)


class DirectDispatch:
    """A consumer mixin: each message goes straight to its handler. Channels' own dispatch
    first closes the stale database connections of its one sync thread: a trip to that thread
    for every message, every move's event to every socket included, for connections no socket
    uses (its database work runs in ``in_db_thread``, which closes its own before and after)."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
