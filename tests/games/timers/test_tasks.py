"""Which task each change sends after commit, with which version and countdown; and that the
tasks are thin calls that do nothing when the table has moved on."""

import pytest
from django.test import TestCase

from bench.loadlib.procs import program_commands
from games.models import Game, Move
from games.table.bots import bot_table_create
from games.table.lifecycle import game_start, table_start
from games.timers.tasks import deadline_due_task
from games.timers.timeouts import turn_due_play
from tests.games.conftest import table_full
from tests.games.helpers import deadline_tasks_patch, discard_first, version_of
from tests.games.timing import deadline_of, later, turn_due_in

pytestmark = pytest.mark.django_db

KINDS = ["start", "turn", "next", "end"]


@pytest.fixture
def sent(monkeypatch):
    """Every deadline task sent: (kind, (table, version), countdown)."""
    calls = []

    def record(args, countdown):
        kind, *rest = args
        calls.append((kind, tuple(rest), countdown))

    deadline_tasks_patch(monkeypatch, record)
    return calls


@pytest.fixture
def sweep_reach_long(settings):
    """A sweep interval long enough that a 30-second turn is within its reach: the move itself
    then sends the turn's task (the way bot turns and short turns always are)."""
    settings.OKEY_SWEEP_SECONDS = 15


def test_start_deal_and_every_move_send_the_task_for_the_next_deadline(
    users, fixed_seed, sent, sweep_reach_long, django_capture_on_commit_callbacks
):
    table = table_full(users)
    with django_capture_on_commit_callbacks(execute=True):
        v = table_start(table_id=table.pk, user=users[0])
    assert sent == [("start", (table.pk, v), 10)]
    with django_capture_on_commit_callbacks(execute=True):
        game_start(table_id=table.pk, expected_version=v)
    assert sent[-1] == ("turn", (table.pk, v + 1), 30)
    with django_capture_on_commit_callbacks(execute=True):
        out = discard_first(table, users[0])
    assert sent[-1] == ("turn", (table.pk, out.version), 30)


def test_a_persons_turn_beyond_the_sweeps_reach_sends_no_task_but_stores_the_deadline(
    users, fixed_seed, sent, django_capture_on_commit_callbacks
):
    table = table_full(users)
    with django_capture_on_commit_callbacks(execute=True):
        v = table_start(table_id=table.pk, user=users[0])
    with django_capture_on_commit_callbacks(execute=True):
        game_start(table_id=table.pk, expected_version=v)
    with django_capture_on_commit_callbacks(execute=True):
        discard_first(table, users[0])
    assert sent == [("start", (table.pk, v), 10)]
    assert deadline_of(table) is not None  # the sweep sends the task when it comes near


def test_a_whole_turn_played_for_a_seat_sends_one_task(
    playing, sent, sweep_reach_long, django_capture_on_commit_callbacks
):
    turn_due_play(table_id=playing.pk, now=deadline_of(playing))  # seat 1 discards
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_due_play(table_id=playing.pk, now=deadline_of(playing))
    assert Move.objects.filter(seat=1).count() == 2  # a draw and a discard
    assert sent == [("turn", (playing.pk, version_of(playing)), 30)]


def test_a_task_that_cannot_be_sent_leaves_the_move_done(
    playing, users, monkeypatch, sweep_reach_long, django_capture_on_commit_callbacks, caplog
):
    def broker_down(*args, **kwargs):
        raise ConnectionError("broker down")

    deadline_tasks_patch(monkeypatch, broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        out = discard_first(playing, users[0])
    assert out.version == version_of(playing) and "could not send" in caplog.text
    assert deadline_of(playing) is not None  # the sweep will find it


def test_the_timeout_task_plays_once_and_a_repeat_does_nothing(playing):
    turn_due_in(playing, -1)
    v = version_of(playing)
    assert deadline_due_task.apply(args=("turn", playing.pk, v)).get() is True
    assert deadline_due_task.apply(args=("turn", playing.pk, v)).get() is False
    assert Move.objects.count() == 1 and Move.objects.get().auto


def test_a_timeout_task_that_comes_early_does_nothing(playing):
    v = version_of(playing)
    assert deadline_due_task.apply(args=("turn", playing.pk, v)).get() is False
    assert not Move.objects.exists() and version_of(playing) == v


def test_the_start_task_for_a_stale_version_does_nothing(users, fixed_seed):
    table = table_full(users)
    v = table_start(table_id=table.pk, user=users[0])
    assert deadline_due_task.apply(args=("start", table.pk, v - 1)).get() is False
    assert deadline_due_task.apply(args=("start", table.pk, v)).get() is True
    assert deadline_due_task.apply(args=("start", table.pk, v)).get() is False


def test_eager_mode_sends_no_timed_task(users, fixed_seed, celery_eager, monkeypatch):
    calls = []
    deadline_tasks_patch(monkeypatch, lambda *a, **k: calls.append(a))
    table = table_full(users)
    with TestCase.captureOnCommitCallbacks(execute=True):
        table_start(table_id=table.pk, user=users[0])
    assert calls == [] and deadline_of(table) is not None


@pytest.mark.parametrize("kind", KINDS)
def test_a_task_for_a_table_that_is_gone_does_nothing(kind):
    assert deadline_due_task.apply(args=(kind, 987654, 3)).get() is False


def test_a_task_of_a_kind_no_longer_known_does_nothing(playing):
    turn_due_in(playing, -1)
    v = version_of(playing)
    assert deadline_due_task.apply(args=("teatime", playing.pk, v)).get() is False
    assert not Move.objects.exists() and version_of(playing) == v


def test_a_table_of_bots_plays_a_whole_game_by_the_tasks_its_changes_send(users, fixed_seed, sent):
    with TestCase.captureOnCommitCallbacks(execute=True):
        table = bot_table_create(manager=users[0], options={"hand_limit": 2})
    done = set()
    for _ in range(1000):
        if not sent:
            break
        kind, (table_id, version), _countdown = sent.pop(0)
        Game.objects.filter(table_id=table_id).update(deadline=later(-1))  # its time has come
        with TestCase.captureOnCommitCallbacks(execute=True):
            if deadline_due_task.apply(args=(kind, table_id, version)).get():
                done.add(kind)
    assert done == set(KINDS)
    assert Game.objects.get(table=table).results is not None


def test_a_hands_review_waits_for_its_own_worker_behind_live_play():
    """A review (the hard bot judging every discard of a hand) goes to its own queue, which
    only its own worker serves, at a lower CPU priority, in `make run` and in production: a
    bot's turn, a timeout or the next deal never waits behind one."""
    from celery import Celery
    from django.conf import settings

    # the site's task settings on kombu's in-memory broker, which routes as Redis's does
    app = Celery("queues", broker="memory://", set_as_current=False)
    app.config_from_object(settings, namespace="CELERY")
    app.conf.task_always_eager = False
    with app.connection_for_write() as conn:
        channel = conn.default_channel
        for queue in app.amqp.queues.values():  # as each worker declares its own on starting
            queue.bind(channel).declare()
        app.send_task("games.tasks.hand_review_task", args=(1,), connection=conn)
        app.send_task("games.tasks.deadline_due_task", args=("turn", 1, 5), connection=conn)
        app.send_task("games.tasks.deadline_due_task", args=("next", 2, 9), connection=conn)
        waiting = {
            q: channel.queue_declare(q, passive=True).message_count for q in ("celery", "reviews")
        }
    assert waiting == {"celery": 2, "reviews": 1}  # each task in one queue only
    # the processes of production and of `make run` (deploy/dev.conf includes programs.conf)
    for config in ("deploy/supervisord.conf", "deploy/dev.conf"):
        commands = program_commands(config=config)
        assert "-Q reviews" in commands["reviews"]
        assert commands["reviews"].startswith("nice -n 10 ")
        assert "-Q celery " in commands["worker"]  # live play only
