"""What players' presence costs a daphne process, and how soon a friend's coming online reaches
their friends (issue 46).

Run from the repository root (its own Redis database; SQLite or DATABASE_URL for the players):
    PRESENCE_REDIS_URL=redis://127.0.0.1:6379/5 \
        .venv/bin/python bench/presence_bench.py [--sockets 2000] [--seconds 60] [--trials 50]

In one process, as one daphne would hold them: --sockets players, each a friend of the next two
(mutual follows in a ring), open the player socket (games.social.socket.PlayerConsumer) through
Channels' test communicator, on the Redis channel layer and Redis presence the site uses. Then:
- the connecting: wall time for them all, in batches of 100;
- idle: this process's CPU over --seconds with every socket open and nothing else to do: the
  presence renewal (one pipeline per REFRESH_SECONDS for all the sockets) and the event loop;
  printed as a share of one core, with one renewal of all the sockets timed alone;
- coming online: --trials players who were offline open their socket one after another; the time
  from the start of the connect until the friend's socket has received the notice, p50 and max.
Redis's own CPU is printed from INFO, but the server is shared with everyone else on the machine.
"""

import argparse
import asyncio
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
os.environ["REDIS_URL"] = os.environ.get("PRESENCE_REDIS_URL", "redis://127.0.0.1:6379/5")
os.environ.setdefault("SOCKETS_PER_ADDRESS", "100000")

from bench.benchdb import bench_database  # noqa: E402


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def redis_cpu(client) -> float:
    info = client.info("cpu")
    return info["used_cpu_user"] + info["used_cpu_sys"]


async def run(args, users) -> None:
    import redis
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator
    from django.conf import settings

    from games.routing import websocket_urlpatterns
    from games.social import presence

    app = URLRouter(websocket_urlpatterns)
    client = redis.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter("presence:*"):
        client.delete(key)

    async def open_socket(user):
        comm = WebsocketCommunicator(app, "/ws/player/?lang=tr")
        comm.scope["user"] = user
        connected, _ = await comm.connect(timeout=30)
        assert connected
        return comm

    idle_users, newcomers = users[: args.sockets], users[args.sockets :]
    start = time.perf_counter()
    socks = []
    for i in range(0, len(idle_users), 100):
        socks += await asyncio.gather(*(open_socket(u) for u in idle_users[i : i + 100]))
    took = time.perf_counter() - start
    print(f"connected {len(socks)} player sockets in {took:.1f} s")
    # each friend's notices of the arrivals: drained, so that the idle window starts quiet
    await asyncio.sleep(2)
    for s in socks:
        while not await s.receive_nothing(timeout=0.001):
            await s.receive_output()

    renewed = {f"bench.{u.pk}": u.pk for u in idle_users}
    c0 = cpu()
    await presence.presence_renew(renewed)
    one = cpu() - c0
    print(
        f"one renewal of {len(renewed)} sockets: {one * 1000:.1f} ms CPU; "
        f"every {presence.REFRESH_SECONDS} s: {one / presence.REFRESH_SECONDS * 100:.3f} % of a core"
    )
    pipe = client.pipeline(transaction=False)
    for channel, user_id in renewed.items():  # the timed renewal's own members go again
        pipe.zrem(f"presence:{user_id}", channel)
    pipe.execute()

    r0, c0, w0 = redis_cpu(client), cpu(), time.perf_counter()
    await asyncio.sleep(args.seconds)
    used, wall, r_used = cpu() - c0, time.perf_counter() - w0, redis_cpu(client) - r0
    print(
        f"idle, {len(socks)} sockets open for {wall:.0f} s: this process {used:.2f} s CPU = "
        f"{used / wall * 100:.2f} % of a core; Redis (shared) {r_used / wall * 100:.2f} %"
    )
    online = presence.presence_online([u.pk for u in idle_users])
    print(f"online by Redis after the window: {len(online)} of {len(idle_users)}")

    # coming online: newcomer k is a friend of idle player k (set up in main)
    lags = []
    for k, newcomer in enumerate(newcomers):
        friend = socks[k]
        t0 = time.perf_counter()
        sock = await open_socket(newcomer)
        while True:
            frame = await friend.receive_from(timeout=10)
            if f"friend-{newcomer.pk}-online" in frame and "presence--on" in frame:
                break
        lags.append(time.perf_counter() - t0)
        await sock.disconnect()
    lags.sort()
    print(
        f"a friend's coming online reached their friend: p50 {statistics.median(lags) * 1000:.0f}"
        f" ms, max {lags[-1] * 1000:.0f} ms over {len(lags)} arrivals"
    )
    for s in socks:
        await s.disconnect()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--sockets", type=int, default=2000)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--trials", type=int, default=50)
    args = p.parse_args()

    import django
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    django.setup()
    print(
        f"Redis: {settings.REDIS_URL}; channel layer: {settings.CHANNEL_LAYERS['default']['BACKEND']}"
    )
    with bench_database():
        from asgiref.sync import async_to_sync
        from django.contrib.auth import get_user_model

        from games.models import Follow

        n = args.sockets + args.trials
        User = get_user_model()
        User.objects.bulk_create(
            User(username=f"presence{i}", email=f"p{i}@example.com") for i in range(n)
        )
        users = list(User.objects.filter(username__startswith="presence").order_by("pk"))
        pairs = set()
        for i in range(args.sockets):  # a ring: each idle player a friend of the next two
            for j in (1, 2):
                pairs.add((users[i].pk, users[(i + j) % args.sockets].pk))
        for k in range(args.trials):  # each newcomer a friend of idle player k
            pairs.add((users[args.sockets + k].pk, users[k].pk))
        Follow.objects.bulk_create(
            [Follow(follower_id=a, followed_id=b) for a, b in pairs]
            + [Follow(follower_id=b, followed_id=a) for a, b in pairs]
        )
        async_to_sync(run)(args, users)


if __name__ == "__main__":
    main()
