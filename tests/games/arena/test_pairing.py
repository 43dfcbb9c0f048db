"""The arena's pairing as a pure function: tables of four by nearby standing, no repeat of a
table when the pool allows, never a blocked pair together, bots only when allowed, and nobody
seated twice."""

import random

from games.arena.pairing import Waiting, pool_pair


def pool(n, *, waited=0.0, mates=None):
    mates = mates or {}
    return [Waiting(user_id=i, rank=i, mates=frozenset(mates.get(i, ())), waited=waited)
            for i in range(n)]  # fmt: skip


def seated(tables):
    return [u for t in tables for u in t if u is not None]


def test_eight_players_make_two_tables_by_standing_best_with_weakest_in_seat_order():
    tables = pool_pair(pool(8))
    assert len(tables) == 2
    # standings 0..3 and 4..7; seats go best, second, fourth, third (Eşli: 1st+4th vs 2nd+3rd)
    assert tables == [(0, 1, 3, 2), (4, 5, 7, 6)]


def test_nobody_is_ever_seated_twice_and_leftovers_wait():
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randrange(0, 60)
        players = [
            Waiting(user_id=i, rank=rng.randrange(100), waited=rng.random() * 40,
                    mates=frozenset(rng.sample(range(n), min(3, n))) - {i})
            for i in range(n)
        ]  # fmt: skip
        forbidden = {frozenset(rng.sample(range(n), 2)) for _ in range(n // 5)} if n > 1 else set()
        tables = pool_pair(players, forbidden=forbidden, bots=rng.random() < 0.5)
        ids = seated(tables)
        assert len(ids) == len(set(ids))
        assert all(len(t) == 4 for t in tables)
        for t in tables:  # a blocked pair never shares a table
            people = [u for u in t if u is not None]
            assert not any(frozenset((a, b)) in forbidden for a in people for b in people if a != b)


def test_the_same_table_is_not_made_again_when_the_pool_allows():
    # two tables just finished together: 0-3 sat together, 4-7 sat together
    mates = {i: set(range(4)) - {i} for i in range(4)} | {
        i: set(range(4, 8)) - {i} for i in range(4, 8)
    }
    tables = pool_pair(pool(8, mates=mates, waited=1.0))
    assert len(tables) == 2
    for t in tables:
        assert len({u < 4 for u in t}) == 2, "each new table mixes the two old ones"


def test_four_who_just_played_together_wait_for_others_then_play_again():
    mates = {i: set(range(4)) - {i} for i in range(4)}
    assert pool_pair(pool(4, mates=mates, waited=5.0), repeat_wait=20) == []
    assert pool_pair(pool(4, mates=mates, waited=25.0), repeat_wait=20) == [(0, 1, 3, 2)]


def test_a_blocked_player_is_never_seated_with_their_blocker_when_another_pairing_exists():
    forbidden = {frozenset((0, 1))}
    tables = pool_pair(pool(8), forbidden=forbidden)
    assert len(tables) == 2
    for t in tables:
        assert not {0, 1} <= set(t)
    # one of them changes places with the nearest player of the other table, 4
    assert sorted(map(sorted, tables)) == [[0, 2, 3, 4], [1, 5, 6, 7]]


def test_a_blocked_pair_in_a_pool_of_four_does_not_play_without_bots():
    assert pool_pair(pool(4), forbidden={frozenset((2, 3))}) == []


def test_with_bots_the_blocked_pair_sit_at_different_tables_after_waiting():
    tables = pool_pair(pool(4, waited=30), forbidden={frozenset((2, 3))}, bots=True, bot_wait=20)
    assert sorted(seated(tables)) == [0, 1, 2, 3]
    for t in tables:
        assert not {2, 3} <= set(t)


def test_bots_only_when_allowed_and_only_after_the_wait():
    assert pool_pair(pool(3, waited=60)) == []
    assert pool_pair(pool(3, waited=5), bots=True, bot_wait=20) == []
    assert pool_pair(pool(3, waited=25), bots=True, bot_wait=20) == [(0, 1, 2, None)]


def test_the_players_left_over_are_the_ones_who_came_back_last():
    players = [Waiting(user_id=i, rank=i, waited=30 - i) for i in range(6)]
    tables = pool_pair(players)
    assert sorted(seated(tables)) == [0, 1, 2, 3]


def test_an_empty_pool_makes_nothing():
    assert pool_pair([]) == []
    assert pool_pair([], bots=True) == []
