"""The periodic sweep: whatever a lost task left undone, found through Game.deadline."""

from datetime import timedelta

import pytest

from games import engine
from games.models import Game, Hand, Move, Table
from games.table.bots import bot_table_create
from games.table.deadlines import NEXT_HAND_AFTER_VOID_SECONDS, arm_ahead
from games.table.lifecycle import table_start
from games.table.moves import move_submit
from games.timers import sweep
from games.timers.sweep import SWEEP_GRACE, sweep_run
from games.timers.tasks import deadline_due_task, sweep_task
from games.timers.timeouts import turn_due_play
from tests.games.conftest import table_full
from tests.games.helpers import (
    current_hand,
    deadline_tasks_patch,
    discard_first,
    hand_state,
    version_of,
)
from tests.games.table.test_moves import state_set
from tests.games.timing import deadline_of, later

pytestmark = pytest.mark.django_db


def sweep_at(moment) -> int:
    return sweep_run(now=moment)


def test_the_sweep_leaves_a_deadline_to_its_task_for_a_moment(playing):
    deadline = deadline_of(playing)
    assert sweep_at(deadline) == 0
    assert sweep_at(deadline + SWEEP_GRACE - timedelta(milliseconds=1)) == 0
    assert not Move.objects.exists()


def test_the_sweep_plays_a_timeout_whose_task_was_lost(playing):
    assert sweep_at(deadline_of(playing) + SWEEP_GRACE) == 1
    move = Move.objects.get()
    assert move.auto and move.seat == 0 and hand_state(playing).turn == 1
    # once done, the next deadline is in the future: a second sweep does nothing
    assert sweep_at(deadline_of(playing) - timedelta(seconds=1)) == 0


def test_the_sweep_deals_when_the_start_task_was_lost(users, fixed_seed):
    table = table_full(users)
    table_start(table_id=table.pk, user=users[0])
    table.refresh_from_db()
    assert sweep_at(table.start_at + SWEEP_GRACE) == 1
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and current_hand(table).number == 1


def test_a_void_hand_is_dealt_again_by_the_sweep_after_the_pause(playing, users):
    state = hand_state(playing)
    move_submit(
        table_id=playing.pk,
        user=users[0],
        move={"kind": "discard", "tile": engine.format_tile(state.racks[0][0])},
        expected_version=version_of(playing),
    )
    state_set(playing, stock=state.stock[:1])
    turn_due_play(table_id=playing.pk, now=later())  # seat 2 times out: stock empty
    hand = current_hand(playing)
    assert hand.over and hand.result["void"]
    pause = NEXT_HAND_AFTER_VOID_SECONDS
    assert deadline_of(playing) == hand.ended + timedelta(seconds=pause)
    assert sweep_at(hand.ended + timedelta(seconds=pause)) == 0  # still the task's moment
    assert sweep_at(hand.ended + timedelta(seconds=pause) + SWEEP_GRACE) == 1
    again = current_hand(playing)
    assert again.number == 2 and again.first_seat == hand.first_seat and not again.over


def test_the_sweep_records_the_results_when_the_end_task_was_lost(users, fixed_seed):
    from .test_tasks_game_end import duz_example

    table, _ = duz_example(users)
    game = Game.objects.get(table=table)
    assert game.results is None and game.deadline == game.ended
    assert sweep_at(game.ended + SWEEP_GRACE) == 1
    game.refresh_from_db()
    assert game.results["points"] == [2, 4, -3, -3] and game.deadline is None


def test_one_broken_table_does_not_stop_the_sweep(users, fixed_seed, monkeypatch):
    tables = [bot_table_create(manager=users[i], options={}) for i in range(2)]
    broken = tables[0].pk
    real = sweep.table_due

    def table_due(*, table_id, now=None):
        if table_id == broken:
            raise RuntimeError("a broken table")
        return real(table_id=table_id, now=now)

    monkeypatch.setattr(sweep, "table_due", table_due)
    assert sweep_at(later()) == 1
    assert not Hand.objects.filter(game__table_id=broken).exists()
    assert Hand.objects.filter(game__table=tables[1]).exists()


def test_a_sweep_racing_the_task_leaves_one_play(playing):
    v = version_of(playing)
    moment = deadline_of(playing) + SWEEP_GRACE
    assert sweep_at(moment) == 1
    # the timeout's own task arrives after the sweep did its work
    assert deadline_due_task.apply(args=("turn", playing.pk, v)).get() is False
    assert Move.objects.count() == 1


def test_the_sweep_task_runs_the_sweep(playing):
    Game.objects.filter(table=playing).update(deadline=later(-60))
    Hand.objects.filter(game__table=playing).update(turn_started=later(-90))
    assert sweep_task.apply().get() == 1
    assert Move.objects.filter(auto=True).exists()


def test_the_beat_schedule_runs_the_sweep_every_few_seconds(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["tables-sweep"]
    assert entry["task"] == sweep_task.name
    assert 1 <= entry["schedule"] <= 10


@pytest.fixture
def turn_tasks(monkeypatch):
    """The turn tasks sent: (table, version, countdown)."""
    sent = []
    deadline_tasks_patch(
        monkeypatch,
        lambda args, countdown=None: args[0] == "turn" and sent.append((*args[1:], countdown)),
    )
    return sent


def test_a_persons_turn_gets_its_task_from_the_sweep_once_it_is_near(
    playing, users, turn_tasks, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        out = discard_first(playing, users[0])
    assert turn_tasks == []  # 30 s away: nothing is sent with the move
    deadline = deadline_of(playing)
    ahead = timedelta(seconds=arm_ahead())
    # sweeps every few seconds: the one that first reaches the deadline sends it, once
    moment = deadline - ahead - timedelta(seconds=10)
    while moment < deadline:
        sweep_at(moment)
        moment += timedelta(seconds=3)
    assert len(turn_tasks) == 1
    table_id, version, countdown = turn_tasks[0]
    assert (table_id, version) == (playing.pk, out.version)
    assert 0 < countdown <= ahead.total_seconds()


def test_a_bots_turn_is_sent_with_the_move(
    playing, users, turn_tasks, django_capture_on_commit_callbacks
):
    from games.models import Seat

    Seat.objects.filter(table=playing, index=1).update(is_bot=True, user=None)
    with django_capture_on_commit_callbacks(execute=True):
        out = discard_first(playing, users[0])
    # the bot's short pause is no far deadline: its task goes with the move
    assert [(t, v) for t, v, _ in turn_tasks] == [(playing.pk, out.version)]
    assert turn_tasks[0][2] <= 3


def test_a_sweep_that_lost_its_reach_still_sends_a_near_deadline(
    playing, turn_tasks, django_capture_on_commit_callbacks
):
    from django.core.cache import cache

    cache.clear()
    sweep_at(deadline_of(playing) - timedelta(seconds=5))
    assert [v for _, v, _ in turn_tasks] == [version_of(playing)]
