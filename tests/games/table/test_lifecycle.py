"""games.table.lifecycle: the changes of a table's status, and the deadline each one leaves."""

from dataclasses import replace
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games import engine
from games.engine import Finish, parse_tile, parse_tiles
from games.models import Game, Table
from games.staff.services import hand_void_redeal
from games.table.changes import table_bump, table_lock
from games.table.deadlines import NEXT_HAND_SECONDS, deadline_of
from games.table.lifecycle import hand_end, table_shut, table_start
from games.timers.sweep import table_due
from tests.games.conftest import game_started, table_full
from tests.games.helpers import current_hand, hand_state

pytestmark = pytest.mark.django_db

MELD_RACK = "R1 R2 R3 R4 R5 Y1 Y2 Y3 B1 B2 B3 K1 K2 K3 K9"


def finishing(table) -> engine.HandState:
    """The hand's state after seat 0 finishes with K9 on the indicator (blue indicator: V=2)."""
    hand = current_hand(table)
    state = replace(
        engine.hand_from_dict(hand.state),
        racks=(parse_tiles(MELD_RACK), *hand_state(table).racks[1:]),
        indicator=parse_tile("B9"),
        okey=parse_tile("B10"),
    )
    hand.state = engine.hand_to_dict(state)
    hand.save(update_fields=["state"])
    return engine.hand_apply(state, Finish(0, parse_tile("K9")))


def end_hand(table, new_state) -> bool:
    """What the move path does with a move that ended the hand: hand_end, one bump."""
    with transaction.atomic():
        game, table = table_lock(table.pk)
        hand = current_hand(table)
        hand.state = engine.hand_to_dict(new_state)
        over = hand_end(game, table, hand, new_state, timezone.now())
        hand.save()
        table_bump(game, lobby=over, hand=hand)
    return over


def test_a_hand_that_is_not_the_last_counts_and_the_next_deal_is_due(playing):
    new = finishing(playing)
    assert end_hand(playing, new) is False
    hand, game = current_hand(playing), Game.objects.get(table=playing)
    assert hand.over and hand.ended is not None
    assert hand.result == engine.hand_to_dict(new)["result"] and hand.result["finisher"] == 0
    gstate = engine.game_from_dict(game.state)
    assert gstate.counts == (18, 22, 22, 22) and gstate.hands_played == 1 and not gstate.over
    assert game.status == Game.Status.PLAYING
    assert Table.objects.get(pk=playing.pk).status == Table.Status.PLAYING
    pause = NEXT_HAND_SECONDS
    assert deadline_of(game, playing) == (hand.ended + timedelta(seconds=pause), "next")


def test_the_last_hand_ends_the_game_and_its_results_are_due(users, fixed_seed, in_memory_layer):
    table = game_started(table_full(users, hand_limit=1))
    assert end_hand(table, finishing(table)) is True
    game, table = Game.objects.get(table=table), Table.objects.get(pk=table.pk)
    assert game.status == Game.Status.OVER and table.status == Table.Status.FINISHED
    assert game.results is None and engine.game_from_dict(game.state).over
    assert deadline_of(game, table) == (game.ended, "end")
    assert table_due(table_id=table.pk) == "end"
    assert Game.objects.get(table=table).results["places"][0] == 1
    assert deadline_of(Game.objects.get(table=table), table) == (None, None)


def test_a_hand_stopped_by_staff_ends_as_the_engine_voids_it(playing, django_user_model):
    staff = django_user_model.objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    state = engine.hand_apply(hand_state(playing), engine.ShowIndicator(0))
    hand = current_hand(playing)
    hand.state = engine.hand_to_dict(state)
    hand.save(update_fields=["state"])
    hand_void_redeal(table_id=playing.pk, staff=staff)
    hand.refresh_from_db()
    voided = engine.hand_void(state)
    assert hand.over and hand.result == {**engine.hand_to_dict(voided)["result"], "staff": True}
    assert hand.result["shower"] == 0 and hand.result["deltas"] == [0, 0, 0, 0]
    # the stored state stays what its moves made: the move log replays to it
    assert engine.hand_from_dict(hand.state) == state
    gstate = engine.game_from_dict(Game.objects.get(table=playing).state)
    assert gstate.history == (voided.result,) and gstate.counts == (20, 20, 20, 20)
    assert gstate.next_first_seat == hand.first_seat


def test_every_status_has_its_deadline(users, fixed_seed, in_memory_layer):
    table = table_full(users)

    def kind():
        return deadline_of(Game.objects.get(table=table), Table.objects.get(pk=table.pk))[1]

    assert kind() is None  # open: nothing happens until Start
    table_start(table_id=table.pk, user=users[0])
    assert kind() == "start"
    assert table_due(table_id=table.pk, now=timezone.now() + timedelta(days=1)) == "start"
    assert kind() == "turn"
    with transaction.atomic():
        game, t = table_lock(table.pk)
        table_shut(game, t, timezone.now())
        table_bump(game, lobby=True)
    assert kind() is None and Game.objects.get(table=table).deadline is None


def test_the_hand_counter_says_why_it_differs_after_a_void_hand(
    client, playing, users, django_user_model
):
    """Issue 42: "Hand 4 · 3 of 8" after a void hand went unexplained."""
    staff = django_user_model.objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    client.force_login(users[0])
    url = f"/en/table/{playing.pk}/"
    html = client.get(url).content.decode()
    assert "Hand 1 · 1 of 8" in html and "that count" not in html
    hand_void_redeal(table_id=playing.pk, staff=staff)
    html = client.get(url).content.decode()
    assert "Hand 2 · 1 of 8 that count (a void hand does not)" in html
