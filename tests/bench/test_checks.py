"""The fault harness's database checks (bench/loadlib/checks.py) find what they are meant to:
a lost move, a move applied twice, a tampered state, an overdue turn; and nothing in a clean game."""

import dataclasses
import random
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from bench.loadlib.checks import database_check, database_check_consistent, overdue_deadlines
from games import engine
from games.models import Game, Hand, Move
from tests.games.conftest import SEED_HEX, game_started, table_full
from tests.games.helpers import move_random


@pytest.fixture
def played(db, django_user_model, settings):
    """A dealt four-player table with 12 moves made through move_submit, from a fixed deal: on
    a random one the random moves now and then ended the hand first (a finish), and the next
    move had nothing to choose from."""
    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    users = [
        django_user_model.objects.create_user(username=f"c{i}", email=f"c{i}@example.com")
        for i in range(4)
    ]
    layer = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with override_settings(CHANNEL_LAYERS=layer):
        table = game_started(table_full(users))
        rng = random.Random(7)
        for _ in range(12):
            move_random(table, users, rng)
    return table


def moves_of(table):
    return Move.objects.filter(hand__game__table=table).order_by("seq")


def test_a_clean_game_has_no_problem(played):
    assert database_check([played.pk]) == []


def test_a_lost_move_is_a_gap(played):
    moves_of(played).get(seq=5).delete()
    problems = database_check([played.pk])
    assert any("not contiguous (missing [5]" in p for p in problems)
    assert any("hand version 12 but 11 moves" in p for p in problems)


def test_a_move_applied_twice_breaks_the_replay(played):
    last = moves_of(played).last()
    hand = last.hand
    # the same discard logged again as the next move, and counted in the hand's version
    Move.objects.create(
        hand=hand, seq=last.seq + 1, seat=last.seat, kind=last.kind, tile=last.tile,
        version=last.version + 1,
    )  # fmt: skip
    Hand.objects.filter(pk=hand.pk).update(version=last.seq + 1)
    problems = database_check([played.pk])
    assert any("the replay refuses a move" in p for p in problems), problems


def test_a_state_that_the_moves_do_not_give_is_found(played):
    hand = Hand.objects.get(game__table=played)
    state = engine.hand_from_dict(hand.state)
    racks = list(state.racks)
    racks[0], racks[1] = racks[1], racks[0]  # a state no replay of these moves gives
    hand.state = engine.hand_to_dict(dataclasses.replace(state, racks=tuple(racks)))
    hand.save()
    assert any("does not give the stored state" in p for p in database_check([played.pk]))


def test_versions_must_increase_with_the_moves(played):
    first, second = moves_of(played)[:2]
    Move.objects.filter(pk=first.pk).update(version=second.version)
    assert any("versions repeat or go backwards" in p for p in database_check([played.pk]))


def test_an_overdue_deadline_is_reported_and_a_coming_one_is_not(played):
    Game.objects.filter(table=played).update(deadline=timezone.now() + timedelta(seconds=20))
    assert overdue_deadlines(2, [played.pk]) == []
    Game.objects.filter(table=played).update(deadline=timezone.now() - timedelta(seconds=60))
    late = overdue_deadlines(2, [played.pk])
    assert len(late) == 1 and "s past" in late[0]


def test_the_consistent_check_agrees_on_a_clean_game(played):
    assert database_check_consistent([played.pk]) == []
