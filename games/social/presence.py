"""Who is online: the players with a page of the site open, from the sockets of every daphne.

Each player's presence is one sorted set in Redis, ``presence:<user id>``: a member for each of
their open sockets (its channel name, unique across processes), scored with the moment it stops
counting. A socket's process renews its own sockets' members every REFRESH_SECONDS, all of them in
one pipeline (one trip however many sockets); a socket that closes counts LINGER_SECONDS more, so
that going from one page to the next is not leaving and coming back.
A player is online while a member's score is in the future: when a daphne dies, its sockets'
members go stale within STALE_SECONDS without anyone removing them.

Nothing in one process's memory decides who is online: only which sockets this process renews.
Who may see whom is games.social.follows' (friends only, and never across a block).
"""

import asyncio
import logging
import time

import redis
import redis.asyncio as aioredis
from django.conf import settings

logger = logging.getLogger(__name__)

STALE_SECONDS = 60
REFRESH_SECONDS = 20
LINGER_SECONDS = 5

_clients: dict = {}  # event loop -> its asyncio Redis client
_sync_client = None
_renewers: dict = {}  # event loop -> (its renewal task, {channel name: user id})


def _key(user_id: int) -> str:
    return f"presence:{user_id}"


def _client() -> aioredis.Redis:
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        client = _clients[loop] = aioredis.from_url(settings.REDIS_URL)
    return client


def _sync() -> redis.Redis:
    global _sync_client
    if _sync_client is None:
        _sync_client = redis.Redis.from_url(settings.REDIS_URL)
    return _sync_client


def _renewed() -> dict[str, int]:
    """This loop's sockets to renew; the renewal task starts with the first."""
    loop = asyncio.get_running_loop()
    entry = _renewers.get(loop)
    if entry is None or entry[0].done():
        sockets = entry[1] if entry else {}
        entry = _renewers[loop] = (asyncio.ensure_future(_renew_forever(sockets)), sockets)
    return entry[1]


async def _renew_forever(sockets: dict[str, int]) -> None:
    while True:
        await asyncio.sleep(REFRESH_SECONDS)
        try:
            await presence_renew(sockets)
        except Exception:  # Redis away: the members go stale, and come back with it
            logger.warning("presence renewal failed", exc_info=True)


async def presence_renew(sockets: dict[str, int]) -> None:
    """Push the members of ``sockets`` (channel -> user id) STALE_SECONDS on: one trip."""
    if not sockets:
        return
    until = time.time() + STALE_SECONDS
    pipe = _client().pipeline(transaction=False)
    for channel, user_id in list(sockets.items()):
        pipe.zadd(_key(user_id), {channel: until})
        pipe.pexpire(_key(user_id), int(STALE_SECONDS * 1000))
    await pipe.execute()


async def presence_arrive(user_id: int, channel: str) -> bool:
    """A socket of ``user_id`` opened; True when it made them online (none was live before)."""
    _renewed()[channel] = user_id
    now = time.time()
    pipe = _client().pipeline(transaction=True)
    pipe.zremrangebyscore(_key(user_id), "-inf", now)
    pipe.zcard(_key(user_id))
    pipe.zadd(_key(user_id), {channel: now + STALE_SECONDS})
    pipe.pexpire(_key(user_id), int(STALE_SECONDS * 1000))
    _removed, before, *_ = await pipe.execute()
    return before == 0


async def presence_depart(user_id: int, channel: str) -> None:
    """A socket of ``user_id`` closed. Its member lingers LINGER_SECONDS: a player who goes
    from one page to the next closes a socket and opens another, and is not gone meanwhile.
    Whether it left them offline is known once that time is over (``presence_gone``)."""
    _renewed().pop(channel, None)
    pipe = _client().pipeline(transaction=False)
    pipe.zadd(_key(user_id), {channel: time.time() + LINGER_SECONDS}, xx=True)
    pipe.pexpire(_key(user_id), int(STALE_SECONDS * 1000))
    await pipe.execute()


async def presence_gone(user_id: int) -> bool:
    """After a departure: wait out the linger, then whether the player has no live socket."""
    await asyncio.sleep(LINGER_SECONDS + 0.5)
    return await _client().zcount(_key(user_id), time.time(), "+inf") == 0


def presence_online(user_ids) -> set[int]:
    """Which of ``user_ids`` are online now (from any page, any process): one trip."""
    ids = list(user_ids)
    if not ids:
        return set()
    now = time.time()
    pipe = _sync().pipeline(transaction=False)
    for user_id in ids:
        pipe.zcount(_key(user_id), now, "+inf")
    try:
        counts = pipe.execute()
    except redis.RedisError:
        logger.warning("presence read failed", exc_info=True)
        return set()
    return {user_id for user_id, n in zip(ids, counts, strict=True) if n}
