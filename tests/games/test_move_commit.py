"""A move is one transaction: once it commits, its event is published; a move inside a larger
transaction is committed or rolled back with it; a write that fails leaves nothing behind and
publishes nothing."""

import random

import pytest
from django.db import IntegrityError, transaction

from games import broadcast, services, store
from games.events import MoveEvent
from games.models import Move

from .conftest import game_started, table_full
from .helpers import hand_state, move_random, random_move, version_of
from .test_concurrency import pytestmark as concurrency_marks

pytestmark = concurrency_marks  # PostgreSQL, real transactions


@pytest.fixture
def published(monkeypatch):
    seen = []
    monkeypatch.setattr(broadcast, "event_publish", seen.append)
    return seen


def test_a_move_commits_and_then_publishes_its_event(users, fixed_seed, published):
    table = game_started(table_full(users))
    before = Move.objects.count()
    del published[:]
    outcome = move_random(table, users, random.Random(2))
    assert Move.objects.count() == before + 1
    assert published == [outcome.event]
    assert isinstance(outcome.event, MoveEvent) and outcome.event.version == outcome.version
    assert version_of(table) == outcome.version


def test_a_move_inside_a_larger_transaction_is_rolled_back_with_it(users, fixed_seed, published):
    table = game_started(table_full(users))
    before, version = Move.objects.count(), version_of(table)
    del published[:]
    with pytest.raises(RuntimeError), transaction.atomic():
        move_random(table, users, random.Random(2))
        raise RuntimeError("the rest of the transaction failed")
    assert Move.objects.count() == before and version_of(table) == version
    assert published == []


def test_a_failing_write_leaves_nothing_behind(users, fixed_seed, published, monkeypatch):
    """The move's row clashes with one already in the log: the hand and the game are as they
    were, and nothing is published."""
    table = game_started(table_full(users))
    first = move_random(table, users, random.Random(2))
    before, version = Move.objects.count(), version_of(table)
    del published[:]
    save = store.move_save

    def clashing(hand, game, move, **kwargs):  # the move's place in the log is already taken
        move.seq = first.seq
        save(hand, game, move, **kwargs)

    monkeypatch.setattr(store, "move_save", clashing)
    state = hand_state(table)
    move = random_move(state, random.Random(3))
    move.pop("seat")
    with pytest.raises(IntegrityError):
        services.move_submit(
            table_id=table.pk, user=users[state.turn], move=move, expected_version=version
        )
    assert Move.objects.count() == before and version_of(table) == version
    assert hand_state(table) == state
    assert published == []
