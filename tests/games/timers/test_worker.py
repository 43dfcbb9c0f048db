"""The timer paths on a real Celery worker (celery.contrib.testing) and the session's Redis.

Tasks are sent after commit with their countdowns, exactly as in production; the worker runs
in a thread of this process. To keep the tests short, a turn is made to run out within a second
by moving its start back (``turn_due_in``), and the pauses (bots, next deal, start) are shrunk.
What the worker did is read from the database and from Celery's task_postrun signal.
"""

import time
from datetime import timedelta

import pytest
from celery.exceptions import Retry
from celery.signals import task_postrun
from django.utils import timezone

from games.models import Game, Hand, Move, Seat, Table
from games.table.bots import bot_table_create
from games.table.create import table_create
from games.table.lifecycle import table_start
from games.table.moves import move_submit
from games.table.seats import seat_leave, seat_take
from games.timers.tasks import deadline_due_task, sweep_task
from tests.games.helpers import discard_first, hand_state, version_of
from tests.games.table.test_moves import state_set
from tests.games.timers.test_tasks_game_end import duz_example, esli_example
from tests.games.timing import turn_due_in, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture
def celery_worker(transactional_db, redis_url):
    """A real Celery worker (a thread of this process, solo pool) on the session's Redis (the
    `redis_url` fixture's), with the queue emptied of earlier tests' tasks. The test database is
    a file on SQLite (tests/conftest.py), so the worker's connection sees committed rows."""
    from celery.contrib.testing.worker import start_worker

    from okeysite.celery import app

    assert not app.conf.task_always_eager
    app.control.purge()
    with start_worker(
        app, pool="solo", perform_ping_check=False, loglevel="WARNING", shutdown_timeout=10
    ) as worker:
        yield worker
    app.control.purge()


@pytest.fixture
def task_log():
    """(task name, args, return value) of every task the worker ran, in order."""
    runs = []

    def record(sender=None, args=None, retval=None, **kwargs):
        runs.append((sender.name.rsplit(".", 1)[1], tuple(args or ()), retval))

    task_postrun.connect(record, weak=False)
    yield runs
    task_postrun.disconnect(record)


@pytest.fixture
def quick(settings, monkeypatch):
    """Short pauses: bots, the start countdown, the pause between hands."""
    settings.OKEY_BOT_PAUSE = (0.02, 0.06)
    monkeypatch.setattr("games.table.deadlines.START_SECONDS", 0.3)
    monkeypatch.setattr("games.table.deadlines.NEXT_HAND_SECONDS", 0.3)
    monkeypatch.setattr("games.table.deadlines.NEXT_HAND_AFTER_VOID_SECONDS", 0.3)


def runs_of(log, name, args):
    return [r for n, a, r in list(log) if n == name and a == args]


def test_a_timeout_fires_and_plays(celery_worker, task_log, playing):
    v = version_of(playing)
    turn_due_in(playing, 0.5)
    wait_until(lambda: runs_of(task_log, "deadline_due_task", ("turn", playing.pk, v)))
    move = Move.objects.get()
    assert (move.seat, move.kind, move.auto, move.user) == (0, "discard", True, None)
    assert Seat.objects.get(table=playing, index=0).timeouts_in_row == 1
    assert hand_state(playing).turn == 1


def test_a_move_just_before_the_timeout_wins_and_the_timeout_does_nothing(
    celery_worker, task_log, playing, users
):
    v = version_of(playing)
    turn_due_in(playing, 1.0)
    time.sleep(0.7)
    discard_first(playing, users[0])  # in time, 0.3 s before the deadline
    # the timeout's task still runs at its time, finds the table moved on and does nothing
    assert wait_until(lambda: runs_of(task_log, "deadline_due_task", ("turn", playing.pk, v))) == [
        False
    ]
    assert [(m.seat, m.auto) for m in Move.objects.all()] == [(0, False)]
    assert Seat.objects.get(table=playing, index=0).timeouts_in_row == 0


def test_a_timeout_task_that_comes_early_waits_for_the_deadline(celery_worker, task_log, playing):
    v = version_of(playing)
    turn_due_in(playing, 1.5)
    deadline = Game.objects.get(table=playing).deadline
    deadline_due_task.apply_async(args=("turn", playing.pk, v))  # at once: as from a fast clock
    runs = wait_until(
        lambda: len(r := runs_of(task_log, "deadline_due_task", ("turn", playing.pk, v))) == 3 and r
    )
    # the early one went back to the queue for the rest of the time; at the deadline it and
    # the turn's own task ran, and one of them played
    assert isinstance(runs[0], Retry) and sorted(runs[1:]) == [False, True]
    assert Move.objects.count() == 1 and Move.objects.get().created >= deadline


def test_a_duplicated_task_does_nothing(celery_worker, task_log, playing):
    v = version_of(playing)  # before the task is sent: the worker may play it at once
    turn_due_in(playing, -1)  # overdue: its task is sent at once
    for _ in range(2):  # the same message twice more (a redelivery, a second sender)
        deadline_due_task.apply_async(args=("turn", playing.pk, v))
    done = wait_until(
        lambda: len(r := runs_of(task_log, "deadline_due_task", ("turn", playing.pk, v))) == 3 and r
    )
    assert sorted(done) == [False, False, True]
    assert Move.objects.count() == 1


def test_the_sweep_recovers_a_timeout_whose_task_was_lost(celery_worker, task_log, playing):
    # the turn ran out a minute ago and its task is gone (nothing is in the queue)
    past = timezone.now() - timedelta(seconds=60)
    Hand.objects.filter(game__table=playing).update(turn_started=past - timedelta(seconds=30))
    Game.objects.filter(table=playing).update(deadline=past)
    time.sleep(0.3)
    assert not Move.objects.exists()
    sweep_task.delay()  # what beat sends every few seconds
    assert wait_until(lambda: runs_of(task_log, "sweep_task", ())) == [1]
    move = Move.objects.get()
    assert move.auto and move.seat == 0


def test_four_bots_finish_a_game(celery_worker, task_log, quick, users):
    started = time.monotonic()
    table = bot_table_create(manager=users[0], options={"hand_limit": 2})
    wait_until(lambda: [a for n, a, r in list(task_log) if a[:1] == ("end",) and r], 90)
    took = time.monotonic() - started
    game = Game.objects.get(table=table)
    assert game.status == "over" and game.results["hands"] == 2
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    assert Hand.objects.filter(game=game, over=True).count() >= 2
    assert not Move.objects.filter(hand__game=game, auto=False).exists()
    kinds = {a[0] for n, a, _ in task_log if n == "deadline_due_task"}
    assert kinds == {"start", "turn", "next", "end"}
    print(f"four bots, 2 hands: {Move.objects.count()} moves in {took:.1f} s")


def test_a_void_hand_is_dealt_again_by_the_worker(celery_worker, task_log, quick, playing, users):
    state = hand_state(playing)
    discard_first(playing, users[0])
    state_set(playing, stock=state.stock[:1])  # one tile left in the stock
    move_submit(table_id=playing.pk, user=users[1], move={"kind": "draw"}, expected_version=None)
    discard_first(playing, users[1])  # the stock is empty: void
    first = Hand.objects.get(game__table=playing, number=1)
    assert first.over and first.result["void"]
    v = version_of(playing)
    assert wait_until(lambda: runs_of(task_log, "deadline_due_task", ("next", playing.pk, v))) == [
        True
    ]
    again = Hand.objects.get(game__table=playing, number=2)
    assert again.first_seat == first.first_seat and not again.over


def profiles(users):
    return [
        (p.rating_points, p.games_played, p.wins)
        for p in (type(u).objects.get(pk=u.pk).profile for u in users)
    ]


def test_game_end_totals_on_the_worker_match_the_hand_worked_examples(
    celery_worker, task_log, quick, users, fixed_seed, settings, monkeypatch
):
    # both examples of test_tasks_game_end.py; the end task runs on the worker. The examples
    # deal their second hand themselves: the worker's own next deal must not come first (it
    # did, 0.3 s after the hand's end, in a busy run, and the example's deal found it done)
    monkeypatch.setattr("games.table.deadlines.NEXT_HAND_SECONDS", 60)
    table, version = duz_example(users)
    assert wait_until(
        lambda: runs_of(task_log, "deadline_due_task", ("end", table.pk, version))
    ) == [True]
    game = Game.objects.get(table=table)
    assert game.results["counts"] == [20, 19, 28, 28]
    assert game.results["points"] == [2, 4, -3, -3]
    assert profiles(users) == [(2, 1, 0), (4, 1, 1), (-3, 1, 0), (-3, 1, 0)]

    table, version = esli_example(users)
    assert wait_until(
        lambda: runs_of(task_log, "deadline_due_task", ("end", table.pk, version))
    ) == [True]
    game = Game.objects.get(table=table)
    assert game.results["teams"] == [28, 52] and game.results["points"] == [2, -2, 2, -2]
    assert profiles(users) == [(4, 2, 1), (2, 2, 1), (-1, 2, 1), (-5, 2, 0)]


def test_the_start_countdown_deals_on_the_worker_with_a_bot_for_a_leaver(
    celery_worker, task_log, quick, users
):
    table = table_create(manager=users[0], options={})
    seat_take(table_id=table.pk, user=users[1], index=1)
    table_start(table_id=table.pk, user=users[0])
    seat_leave(table_id=table.pk, user=users[1])  # during the countdown
    hand = wait_until(lambda: Hand.objects.filter(game__table=table).first())
    assert hand.number == 1
    seats = Seat.objects.filter(table=table).order_by("index")
    assert [(s.user_id is not None, s.is_bot) for s in seats] == [(True, False)] + [
        (False, True)
    ] * 3
