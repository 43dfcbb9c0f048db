"""Any hand can be rebuilt from its seed and its move log, to exactly the stored state."""

import random

import pytest

from games import engine
from games.models import Hand
from games.table.lifecycle import hand_next
from games.table.moves import move_submit
from tests.games.conftest import game_started, table_full
from tests.games.helpers import current_hand, hand_state, random_move, version_of

pytestmark = pytest.mark.django_db


def play_hand_randomly(table, users, rng) -> Hand:
    hand = current_hand(table)
    seat_user = {s.index: s.user for s in table.seats.all()}
    while True:
        state = hand_state(table)
        if state.phase == "over":
            return hand
        move_submit(
            table_id=table.pk,
            user=seat_user[state.turn],
            move=random_move(state, rng),
            expected_version=version_of(table),
        )


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_hands_replay_from_the_move_log(users, seats):
    # two hands of random moves for each number of seats, the second with another first seat
    # and seed; the engine's replay itself is held to many more hands in tests/engine
    rng = random.Random(seats)
    table = game_started(table_full(users, seats=seats, hand_limit=50))
    for _ in range(2):
        hand = play_hand_randomly(table, users, rng)
        hand.refresh_from_db()
        moves = [m.as_engine_dict() for m in hand.moves.order_by("seq")]
        assert [m.seq for m in hand.moves.order_by("seq")] == list(range(1, len(moves) + 1))
        options = table.rules
        replayed = engine.hand_replay(bytes(hand.seed), options, hand.first_seat, moves)
        assert replayed == engine.hand_from_dict(hand.state)
        assert engine.verify_deal(bytes(hand.seed), hand.commitment, replayed, moves)
        assert hand_next(table_id=table.pk, expected_version=version_of(table))
