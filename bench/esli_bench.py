"""What issue 6 adds to the server's work: invites, Eşli frames, staff actions, the replay.

Run from the repository root:
    .venv/bin/python bench/esli_bench.py [--rounds 200]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/okey_esli .venv/bin/python bench/esli_bench.py

It creates a throwaway test database (SQLite file, or `test_<name>` on PostgreSQL) and times:
- invite_create (lock, checks, token, row, e-mail rendered) and invite_accept, one pair per round;
- the frame a socket renders for an open Eşli table with three invites pending: for the manager
  (who also gets the invite list) and for a spectator (reserved seats only);
- the frame for a player during an Eşli hand (team totals), beside the same for a Düz table;
- hand_void_redeal (void, new seed, deal, StaffAction) on a running hand;
- the admin replay's rebuild of a whole hand from its seed and move log.
E-mail goes to Django's in-memory outbox and Celery runs eagerly, so no broker is needed.
Wall time on a shared machine: run it twice and read the better numbers.
"""

import argparse
import logging
import os
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] * 1000


def line(name, values):
    print(
        f"{name:<40} n={len(values):5d}  p50 {pct(values, 0.5):6.2f} ms"
        f"  p95 {pct(values, 0.95):6.2f} ms  mean {statistics.mean(values) * 1000:6.2f} ms"
    )


def timed(out, fn):
    t0 = time.perf_counter()
    result = fn()
    out.append(time.perf_counter() - t0)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()

    import django
    from django.conf import settings

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # one account makes every table of the bench: no per-account table limits here
    settings.OKEY_TABLES_PER_ACCOUNT = settings.OKEY_TABLES_CREATED_PER_HOUR = 10**9
    django.setup()

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import AnonymousUser
    from django.core import mail
    from django.db import connection
    from django.test.utils import setup_test_environment

    from games import engine
    from games.invites import services as invites
    from games.models import Hand, Table
    from games.staff.replay import replay_states
    from games.staff.services import hand_void_redeal
    from games.table.create import table_create
    from games.table.lifecycle import game_start, table_start
    from games.table.moves import move_submit
    from games.table.reads import table_rows, table_view
    from games.table.render import frame_full
    from games.table.seats import seat_take
    from okeysite.celery import app
    from tests.games.helpers import random_move

    invites.INVITES_PER_HOUR = 10**9  # one manager sends them all here
    logging.getLogger("celery").setLevel(logging.WARNING)
    # frames are rendered without a request, as the socket does: no CSRF token in them
    warnings.filterwarnings("ignore", message=".*csrf_token.*")
    setup_test_environment()  # locmem e-mail
    app.conf.task_always_eager = True  # the e-mail task in the caller; timed tasks are not sent
    name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    print(f"database: {connection.vendor} ({name})")
    try:
        User = get_user_model()
        users = [
            User.objects.create_user(f"bench{i}", f"b{i}@example.com", "x", is_staff=i == 0)
            for i in range(4)
        ]
        create, accept = [], []
        for r in range(args.rounds):
            table = table_create(manager=users[0], options={"mode": "esli"})
            inv = timed(
                create,
                lambda t=table, r=r: invites.invite_create(
                    table_id=t.pk, inviter=users[0], email=f"p{r}@example.com", seat_index=2
                ),
            )
            token = mail.outbox[-1].body.split("/invite/")[1].split("/")[0]
            timed(accept, lambda token=token: invites.invite_accept(token=token, user=users[1]))
            assert Table.objects.get(pk=inv.table_id).seats.get(index=2).user == users[1]
        line("invite_create (+ e-mail rendered)", create)
        line("invite_accept", accept)

        table = table_create(manager=users[0], options={"mode": "esli"})
        for seat in (1, 2, 3):
            invites.invite_create(
                table_id=table.pk, inviter=users[0], email=f"s{seat}@example.com", seat_index=seat
            )
        manager, spectator = [], []
        fresh = Table.objects.select_related("game").get(pk=table.pk)
        for _ in range(args.rounds):
            for viewer, out in ((users[0], manager), (AnonymousUser(), spectator)):
                timed(
                    out,
                    lambda v=viewer: frame_full(table_view(table_rows(fresh.pk), v)),
                )
        line("frame, open Eşli table, manager", manager)
        line("frame, open Eşli table, spectator", spectator)

        rng = random.Random(6)
        frames = {"esli": [], "duz": []}
        voids, replays = [], []
        for mode in ("esli", "duz"):
            table = table_create(manager=users[0], options={"mode": mode})
            for i in (1, 2, 3):
                seat_take(table_id=table.pk, user=users[i], index=i)
            v = table_start(table_id=table.pk, user=users[0])
            game_start(table_id=table.pk, expected_version=v)
            for _ in range(max(1, args.rounds // 20)):
                for _ in range(12):  # a dozen moves into the hand, then staff void and redeal
                    hand = Hand.objects.filter(game__table=table).order_by("-number").first()
                    state = engine.hand_from_dict(hand.state)
                    version = Table.objects.get(pk=table.pk).game.version
                    move_submit(
                        table_id=table.pk,
                        user=users[state.turn],
                        move=random_move(state, rng),
                        expected_version=version,
                    )
                    fresh = Table.objects.select_related("game").get(pk=table.pk)
                    timed(
                        frames[mode],
                        lambda f=fresh: frame_full(table_view(table_rows(f.pk), users[1])),
                    )
                    if hand.over or state.phase == "over":
                        break
                timed(voids, lambda t=table: hand_void_redeal(table_id=t.pk, staff=users[0]))
        options = engine.TableOptions(mode="esli")
        for hand in Hand.objects.filter(over=True, game__table__options__mode="esli"):
            moves = [m.as_engine_dict() for m in hand.moves.order_by("seq")]
            timed(replays, lambda h=hand, m=moves: replay_states(h, options, m, len(m)))
        line("frame, Eşli hand, player", frames["esli"])
        line("frame, Düz hand, player", frames["duz"])
        line("hand_void_redeal", voids)
        line("replay rebuild of a voided hand", replays)
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main()
