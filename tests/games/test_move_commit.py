"""A move that is its own transaction sends its COMMIT with its writes (rows_batched(last=True)):
it is committed, its on_commit work runs, and a move inside a larger transaction still leaves
the commit, or the rollback, to that transaction."""

import random

import psycopg._connection_base as connection_base
import pytest
from django.db import IntegrityError, transaction

from games import broadcast, services
from games.models import Move
from games.services import moves
from games.services.rows import row_insert

from .conftest import game_started, table_full
from .helpers import hand_state, move_random, random_move, version_of
from .test_concurrency import pytestmark as concurrency_marks

pytestmark = concurrency_marks  # PostgreSQL, real transactions


@pytest.fixture
def commands(monkeypatch):
    """The transaction commands psycopg sends by itself (BEGIN, COMMIT, ROLLBACK)."""
    sent = []
    real = connection_base.BaseConnection._exec_command

    def spy(self, command, result_format=0):
        sent.append(bytes(command))
        return real(self, command, result_format)

    monkeypatch.setattr(connection_base.BaseConnection, "_exec_command", spy)
    return sent


@pytest.fixture
def broadcasts(monkeypatch):
    seen = []
    monkeypatch.setattr(broadcast, "table_changed", lambda table_id, v: seen.append((table_id, v)))
    return seen


def test_a_move_commits_with_its_writes_and_then_broadcasts(
    users, fixed_seed, commands, broadcasts
):
    table = game_started(table_full(users))
    before = Move.objects.count()
    del commands[:], broadcasts[:]
    outcome = move_random(table, users, random.Random(2))
    assert commands == [b"BEGIN"]  # no COMMIT of its own: it went with the writes
    assert Move.objects.count() == before + 1
    assert broadcasts == [(table.pk, outcome.version)]  # the on_commit callbacks ran
    assert version_of(table) == outcome.version


def test_a_move_inside_a_larger_transaction_is_rolled_back_with_it(users, fixed_seed, broadcasts):
    table = game_started(table_full(users))
    before, version = Move.objects.count(), version_of(table)
    del broadcasts[:]
    with pytest.raises(RuntimeError), transaction.atomic():
        move_random(table, users, random.Random(2))
        raise RuntimeError("the rest of the transaction failed")
    assert Move.objects.count() == before and version_of(table) == version
    assert broadcasts == []


def test_a_failing_write_leaves_nothing_behind(users, fixed_seed, broadcasts, monkeypatch):
    """The batch that carries the COMMIT fails on its last write: the hand and the game are
    as they were, and nothing is broadcast."""
    table = game_started(table_full(users))
    first = move_random(table, users, random.Random(2))
    before, version = Move.objects.count(), version_of(table)
    del broadcasts[:]

    def clashing(move):  # the move's place in the log is already taken
        move.seq = first.seq
        row_insert(move)

    monkeypatch.setattr(moves, "row_insert", clashing)
    state = hand_state(table)
    move = random_move(state, random.Random(3))
    move.pop("seat")
    with pytest.raises(IntegrityError):
        services.move_submit(
            table_id=table.pk, user=users[state.turn], move=move, expected_version=version
        )
    assert Move.objects.count() == before and version_of(table) == version
    assert hand_state(table) == state
    assert broadcasts == []
