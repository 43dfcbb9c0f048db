"""A timeout, a sweep and the player's own move at the same moment: exactly one of them is
applied (PostgreSQL, where the game row lock is real)."""

import pytest

from games import engine
from games.errors import ServiceError
from games.models import Move
from games.table.moves import move_submit
from games.timers.sweep import table_due
from games.timers.timeouts import turn_due_play
from tests.games.conftest import game_started, table_full
from tests.games.helpers import hand_state, version_of
from tests.games.table.test_concurrency import pytestmark as concurrency_marks
from tests.games.table.test_concurrency import race
from tests.games.timing import deadline_of

pytestmark = concurrency_marks


@pytest.mark.parametrize("round_", range(5))
def test_a_timeout_racing_the_players_move_leaves_exactly_one_move(users, fixed_seed, round_):
    table = game_started(table_full(users))
    v = version_of(table)
    tile = engine.format_tile(hand_state(table).racks[0][0])
    # the moment the turn runs out (the next turn's deadline, if the move got in, is later)
    moment = deadline_of(table)

    def own_move():
        return move_submit(
            table_id=table.pk,
            user=users[0],
            move={"kind": "discard", "tile": tile},
            expected_version=v,
        )

    def timeout():
        return turn_due_play(table_id=table.pk, expected_version=v, now=moment)

    def sweep():
        return table_due(table_id=table.pk, now=moment)

    results = race([own_move, timeout, sweep])
    assert Move.objects.count() == 1 and version_of(table) == v + 1
    move = Move.objects.get()
    if move.auto:  # the timeout or the sweep got in first: the player's move was stale
        assert isinstance(results[0], ServiceError) and results[0].code == "stale"
    else:
        assert results[1] is False and results[2] is None
    assert hand_state(table).turn == 1 and deadline_of(table) is not None
