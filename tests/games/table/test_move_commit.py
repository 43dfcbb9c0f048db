"""A move is one transaction: once it commits, its event is published; a move inside a larger
transaction is committed or rolled back with it; a write that fails leaves nothing behind and
publishes nothing."""

import random

import pytest
from django.db import IntegrityError, transaction

from games.models import Move
from games.table.moves import move_submit
from games.table.publish import move_event
from games.table.reads import MoveEvent
from games.table.store import move_save
from tests.games.conftest import game_started, table_full
from tests.games.helpers import hand_state, move_random, random_move, version_of
from tests.games.table.test_concurrency import pytestmark as concurrency_marks

pytestmark = concurrency_marks  # PostgreSQL, real transactions


@pytest.fixture
def published(monkeypatch):
    seen = []
    monkeypatch.setattr("games.table.moves.move_publish", seen.append)
    return seen


def test_a_move_commits_and_then_publishes_its_event(users, fixed_seed, published):
    table = game_started(table_full(users))
    before = Move.objects.count()
    del published[:]
    outcome = move_random(table, users, random.Random(2))
    assert Move.objects.count() == before + 1
    assert published == [outcome]
    event = move_event(outcome)
    assert isinstance(event, MoveEvent) and event.version == outcome.version
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
    save = move_save

    def clashing(hand, game, move, **kwargs):  # the move's place in the log is already taken
        move.seq = first.seq
        save(hand, game, move, **kwargs)

    monkeypatch.setattr("games.table.moves.move_save", clashing)
    state = hand_state(table)
    move = random_move(state, random.Random(3))
    move.pop("seat")
    with pytest.raises(IntegrityError):
        move_submit(table_id=table.pk, user=users[state.turn], move=move, expected_version=version)
    assert Move.objects.count() == before and version_of(table) == version
    assert hand_state(table) == state
    assert published == []
