"""Two submits at the same version, at the same moment: exactly one applies (PostgreSQL)."""

import threading
import time

import pytest
from django.conf import settings
from django.db import connection, connections, transaction

from games import engine
from games.errors import ServiceError
from games.models import Hand, Move
from games.table.changes import table_lock
from games.table.moves import MoveOutcome, move_submit
from games.table.store import move_rows_lock
from tests.games.conftest import game_started, table_full
from tests.games.helpers import hand_state, version_of

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "okeysite.postgresql",
        reason="needs PostgreSQL: set DATABASE_URL=postgres://...",
    ),
]


def race(calls):
    """Run the callables in threads released together; each result or ServiceError."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            results[i] = call()
        except ServiceError as e:
            results[i] = e
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.mark.parametrize("which", ["sql", "orm"])  # games.table.store's two ways to lock the rows
@pytest.mark.parametrize("round_", range(5))
def test_two_moves_at_one_version_apply_once(users, fixed_seed, round_, which, settings):
    settings.OKEY_MOVE_STORE = which
    table = game_started(table_full(users))
    v = version_of(table)
    tiles = [engine.format_tile(t) for t in hand_state(table).racks[0][:2]]

    def discard(tile, key):
        return lambda: move_submit(
            table_id=table.pk,
            user=users[0],
            move={"kind": "discard", "tile": tile},
            expected_version=v,
            idempotency_key=key,
        )

    results = race([discard(tiles[0], "a"), discard(tiles[1], "b")])
    applied = [r for r in results if isinstance(r, MoveOutcome)]
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert len(applied) == 1 and len(refused) == 1
    assert refused[0].code == "stale"
    assert Move.objects.count() == 1 and version_of(table) == v + 1
    assert hand_state(table).seq == 1


def test_one_key_sent_twice_at_once_applies_once(users, fixed_seed):
    table = game_started(table_full(users))
    v = version_of(table)
    tile = engine.format_tile(hand_state(table).racks[0][0])

    def send():
        return move_submit(
            table_id=table.pk,
            user=users[0],
            move={"kind": "discard", "tile": tile},
            expected_version=v,
            idempotency_key="same-key",
        )

    results = race([send, send])
    assert all(isinstance(r, MoveOutcome) for r in results), results
    assert sorted(r.duplicate for r in results) == [False, True]
    assert Move.objects.count() == 1
    assert connection.vendor == "postgresql"


def test_a_move_waiting_for_the_lock_reads_the_hand_its_holder_dealt(users, fixed_seed):
    """The move's reads come after its lock (games.table.store): they must see what the lock's
    holder committed while the move waited, here a new hand."""

    table = game_started(table_full(users))
    first = Hand.objects.get(game__table=table)
    locked, seen = threading.Event(), {}

    def holder():
        try:
            with transaction.atomic():
                table_lock(table.pk)
                locked.set()
                _wait_for_a_lock_wait()
                fields = {f.attname: getattr(first, f.attname) for f in Hand._meta.concrete_fields}
                Hand.objects.create(**{**fields, "id": None, "number": 2})
        finally:
            connections.close_all()

    def waiter():
        try:
            locked.wait(10)
            with transaction.atomic():
                rows = move_rows_lock(table.pk)
                seen.update(number=rows.hand.number, seats=len(rows.seats))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=holder), threading.Thread(target=waiter)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert seen == {"number": 2, "seats": 4}


def _wait_for_a_lock_wait(timeout=10.0):
    """Until another backend waits for a row lock (the waiter is blocked on ours)."""
    with connections["default"].cursor() as c:
        ends = time.monotonic() + timeout
        while time.monotonic() < ends:
            c.execute("SELECT pg_stat_clear_snapshot()")  # else the view keeps its first reading
            c.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            if c.fetchone()[0]:
                return
            time.sleep(0.01)
    raise AssertionError("nobody waited for the lock")
