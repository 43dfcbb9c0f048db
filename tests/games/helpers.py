"""Reading a table's state in tests, and choosing moves the way a careless player would."""

import random

from games import engine
from games.models import Hand, Table
from games.table.deadlines import DEADLINE_TASK
from games.table.moves import move_submit
from okeysite.celery import app as celery_app
from tests.games.plans import plan_move


def current_hand(table: Table) -> Hand:
    return Hand.objects.filter(game__table=table).order_by("-number").first()


def hand_state(table: Table) -> engine.HandState:
    """The current hand's state, of the game the table plays."""
    return table.engine_variant.hand_from_dict(current_hand(table).state)


def version_of(table: Table) -> int:
    table.game.refresh_from_db()
    return table.game.version


def discard_first(table: Table, user):
    """The player to move (``user``) discards the first tile of their rack."""

    state = hand_state(table)
    return move_submit(
        table_id=table.pk,
        user=user,
        move={"kind": "discard", "tile": engine.format_tile(state.racks[state.turn][0])},
        expected_version=version_of(table),
    )


def random_move(state: engine.HandState, rng: random.Random) -> dict:
    """A legal move for the seat to play: mostly draw and discard, sometimes anything legal."""
    legal = engine.legal_moves(state, state.turn)
    finishes = [m for m in legal if isinstance(m, engine.Finish)]
    if finishes:
        return engine.move_to_dict(rng.choice(finishes))
    plain = [m for m in legal if isinstance(m, engine.Draw | engine.TakeDiscard | engine.Discard)]
    pool = plain if plain and rng.random() < 0.9 else legal
    return engine.move_to_dict(rng.choice(pool))


def move_random(table: Table, users, rng: random.Random, **kwargs):
    """The player on turn (``users[seat]`` sits at ``seat``) makes a random legal move."""

    state = hand_state(table)
    return move_submit(
        table_id=table.pk,
        user=users[state.turn],
        move=random_move(state, rng),
        expected_version=version_of(table),
        **kwargs,
    )


def deadline_tasks_patch(monkeypatch, record) -> None:
    """Each deadline task the site sends (by name, games.table.deadlines) goes to
    ``record(args, countdown=...)`` instead of the broker."""

    def send_task(name, args=None, countdown=None, **kwargs):
        assert name == DEADLINE_TASK
        return record(args, countdown=countdown)

    monkeypatch.setattr(celery_app, "send_task", send_task)


def play_moves(table, n):
    """``n`` moves of the current hand, each chosen as a fair player would (tests.games.plans)."""
    seat_user = {s.index: s.user for s in table.seats.all()}
    rules = table.engine_variant
    for _ in range(n):
        state = hand_state(table)
        if rules.family == "okey":
            move = plan_move(state)
        else:  # the planner plays Düz Okey: another game plays its timeout's first move
            move = rules.move_to_dict(rules.auto_moves(state, state.turn)[0])
        move_submit(
            table_id=table.pk,
            user=seat_user[state.turn],
            move={k: v for k, v in move.items() if k != "seat"},
            expected_version=version_of(table),
        )
