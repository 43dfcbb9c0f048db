"""The move path's rows read without the ORM's query building (games.services.rows) are the
rows the ORM reads: every field, converted the same way, on SQLite and on PostgreSQL."""

import random

import pytest
from django.db import transaction
from django.utils import timezone

from games import services
from games.models import Game, Hand, Seat, Table
from games.services.rows import (
    move_rows_locked,
    row_update,
    row_with_parent_locked,
    rows_batched,
    rows_where,
)
from games.snapshots import _store, snapshot_get, snapshot_hand_state, snapshots_clear

from .conftest import game_started, table_full
from .helpers import hand_state, move_random, version_of


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


@pytest.fixture
def two_tables(db, users, fixed_seed, in_memory_layer):
    """A table whose second hand is on (JSON states, a seed, times, a first hand over) and a
    second table beside it, so that a read that ignores its filter shows up."""
    table = game_started(table_full(users))
    Table.objects.filter(pk=table.pk).update(start_at=timezone.now())
    rng = random.Random(8)
    while hand_state(table).phase != "over":  # the first hand, played out
        move_random(table, users, rng)
    services.hand_next(table_id=table.pk, expected_version=version_of(table))
    other = game_started(table_full(users[:2], seats=2))
    return table, other


def test_a_locked_game_and_its_table_are_the_orms(two_tables):
    table, _ = two_tables
    with transaction.atomic():
        game = row_with_parent_locked(Game, Table, table.pk)
        orm = Game.objects.select_related("table").get(table_id=table.pk)
        assert fields_of(game) == fields_of(orm)
        assert fields_of(game.table) == fields_of(orm.table)
        assert game.table.options == orm.table.options and isinstance(game.table.options, dict)
        assert game.table.start_at is not None and game.table.start_at.tzinfo is not None
        assert not game._state.adding and not game.table._state.adding


def test_a_missing_game_is_none(two_tables):
    with transaction.atomic():
        assert row_with_parent_locked(Game, Table, 10**9) is None


def test_rows_where_are_the_orms_in_order(two_tables):
    table, other = two_tables
    latest = rows_where(Hand, "game_id", table.game.pk, "-number", limit=1)
    assert [fields_of(h) for h in latest] == [
        fields_of(Hand.objects.filter(game=table.game).order_by("-number").first())
    ]
    assert latest[0].number == 2 and isinstance(latest[0].state, dict)
    assert bytes(latest[0].seed) == bytes(Hand.objects.get(pk=latest[0].pk).seed)
    every = rows_where(Hand, "game_id", table.game.pk, "number")
    assert [h.number for h in every] == [1, 2]
    assert [h.over for h in every] == [True, False]
    seats = rows_where(Seat, "table_id", other.pk, "index")
    assert [fields_of(s) for s in seats] == [
        fields_of(s) for s in Seat.objects.filter(table=other).order_by("index")
    ]
    assert len(seats) == 2


def test_a_moves_reads_are_the_orms(two_tables):
    table, other = two_tables
    with transaction.atomic():
        game, hand, seats = move_rows_locked(table.pk)
        orm = Game.objects.select_related("table").get(table_id=table.pk)
        assert fields_of(game) == fields_of(orm) and fields_of(game.table) == fields_of(orm.table)
        latest = Hand.objects.filter(game=orm).order_by("-number").first()
        assert hand.number == 2 and fields_of(hand) == fields_of(latest)
        assert [fields_of(s) for s in seats] == [
            fields_of(s) for s in Seat.objects.filter(table=table).order_by("index")
        ]
        # the other table's rows stay out
        assert {s.table_id for s in seats} == {table.pk} and len(seats) == 4
        assert move_rows_locked(10**9) == (None, None, [])


def test_a_moves_read_leaves_out_only_the_state_its_caller_holds(two_tables):
    table, _ = two_tables
    latest = Hand.objects.filter(game=table.game).order_by("-number").first()
    first = Hand.objects.get(game=table.game, number=1)
    with transaction.atomic():
        _, hand, _ = move_rows_locked(table.pk, (latest.pk, latest.version, latest.commitment))
        assert hand.state is None  # the caller's copy is the current one
        assert {k: v for k, v in fields_of(hand).items() if k != "state"} == {
            k: v for k, v in fields_of(latest).items() if k != "state"
        }
        # another version of that hand, or another hand: the state is read
        for known in (
            (latest.pk, latest.version - 1, latest.commitment),
            (first.pk, latest.version, latest.commitment),
            (latest.pk, latest.version, first.commitment),  # the id of another deal
            None,
        ):
            _, hand, _ = move_rows_locked(table.pk, known)
            assert hand.state == latest.state, known


def test_a_move_applies_to_the_stored_hand_when_this_process_showed_an_older_one(two_tables, users):
    """A move made elsewhere (another daphne, the worker) left this process's snapshot one
    version behind: the next move here must start from the stored state, not the snapshot's.
    Every move changes the turn or the phase, so the second move is one the older state
    refuses."""
    table, _ = two_tables
    rng = random.Random(3)
    snapshots_clear()
    snap = snapshot_get(table.pk)
    (hand_id, version, _), held = snapshot_hand_state(table.pk)
    move_random(table, users, rng)
    snapshots_clear()  # this process holds the snapshot from before that move again
    _store(snap)
    assert snapshot_hand_state(table.pk)[0][:2] == (hand_id, version)
    moved = hand_state(table)
    assert (moved.turn, moved.phase) != (held.turn, held.phase)
    move_random(table, users, rng)
    assert hand_state(table).seq == held.seq + 2
    assert Hand.objects.get(pk=hand_id).version == version + 2


def test_batched_writes_land_together_when_the_block_ends(two_tables):
    table, _ = two_tables
    hand = Hand.objects.filter(game=table.game).order_by("-number").first()
    game = Game.objects.get(pk=table.game.pk)
    with transaction.atomic():
        with rows_batched():
            hand.version += 7
            row_update(hand, ("version",))
            game.version += 7
            row_update(game, ("version",))
            # nothing is written before the block's end
            assert Hand.objects.get(pk=hand.pk).version == hand.version - 7
        assert Hand.objects.get(pk=hand.pk).version == hand.version
        assert Game.objects.get(pk=game.pk).version == game.version


def test_batched_writes_are_dropped_when_the_block_raises(two_tables):
    table, _ = two_tables
    hand = Hand.objects.filter(game=table.game).order_by("-number").first()
    before = hand.version
    with pytest.raises(RuntimeError), transaction.atomic(), rows_batched():
        hand.version += 7
        row_update(hand, ("version",))
        raise RuntimeError("refused")
    assert Hand.objects.get(pk=hand.pk).version == before
