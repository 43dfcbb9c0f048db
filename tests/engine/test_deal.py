import hashlib
import hmac
from collections import Counter

import pytest

from games.engine import (
    SeedError,
    TableOptions,
    commitment,
    deal,
    format_tiles,
    full_set,
    hand_apply,
    legal_moves,
    shuffle,
    verify_deal,
)
from games.engine.tiles import FAKE

SEED = bytes(range(32))


def reference_wall(seed: bytes) -> list[int]:
    """dealing.py's docstring, implemented again from the text alone."""
    words = []
    counter = 0

    def word():
        nonlocal counter
        if not words:
            block = hmac.new(seed, counter.to_bytes(8, "big"), hashlib.sha256).digest()
            counter += 1
            words.extend(int.from_bytes(block[k : k + 4], "big") for k in range(0, 32, 4))
        return words.pop(0)

    tiles = [f for f in range(53) for _ in range(2)]
    for i in range(105, 0, -1):
        bound = i + 1
        limit = 2**32 - (2**32 % bound)
        x = word()
        while x >= limit:
            x = word()
        tiles[i], tiles[x % bound] = tiles[x % bound], tiles[i]
    return tiles


def seeds(k):
    return [hashlib.sha256(b"test seed %d" % i).digest() for i in range(k)]


def test_shuffle_follows_the_documented_algorithm():
    for seed in seeds(20) + [SEED]:
        assert list(shuffle(seed)) == reference_wall(seed)


def test_documented_example_wall():
    assert format_tiles(shuffle(SEED)[:8]) == "B2 B3 B9 K9 K7 R4 R1 R2"


def test_shuffle_is_a_permutation_and_depends_on_the_seed():
    a, b = shuffle(seeds(2)[0]), shuffle(seeds(2)[1])
    assert sorted(a) == list(full_set()) == sorted(b)
    assert a != b
    assert shuffle(seeds(2)[0]) == a


@pytest.mark.parametrize("bad", [b"", b"x" * 31, b"x" * 33, "a" * 32, None])
def test_seed_must_be_32_bytes(bad):
    with pytest.raises(SeedError, match="32 bytes"):
        deal(bad, TableOptions(), 0)
    with pytest.raises(SeedError):
        commitment(bad)


def test_commitment_is_sha256_hex():
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("first", [0, 1])
def test_deal_layout(seats, first):
    s = deal(SEED, TableOptions(seats=seats), first)
    wall = list(shuffle(SEED))
    assert s.indicator == wall.pop(0)  # this seed's wall does not start with a fake joker
    order = [(first + k) % seats for k in range(seats)]
    assert s.racks[order[0]] == tuple(wall[:15])
    pos = 15
    for seat in order[1:]:
        assert s.racks[seat] == tuple(wall[pos : pos + 14])
        pos += 14
    assert s.stock == tuple(wall[pos:])
    assert len(s.stock) == 105 - 15 - 14 * (seats - 1)
    assert (s.turn, s.phase, s.first_seat) == (first, "discard", first)
    assert Counter(s.stock) + sum((Counter(r) for r in s.racks), Counter()) + Counter(
        [s.indicator]
    ) == Counter(full_set())


def test_indicator_skips_fake_jokers():
    seed = next(s for s in seeds(2000) if shuffle(s)[0] == FAKE)
    wall = shuffle(seed)
    state = deal(seed, TableOptions(), 0)
    k = next(i for i, f in enumerate(wall) if f != FAKE)
    assert state.indicator == wall[k] != FAKE
    assert FAKE in state.racks[0]  # the skipped fake joker stays in the wall, dealt first


def test_first_seat_must_exist():
    with pytest.raises(ValueError, match="first_seat"):
        deal(SEED, TableOptions(seats=3), 3)


def test_verify_deal():
    o = TableOptions()
    s = deal(SEED, o, 2)
    c = commitment(SEED)
    assert verify_deal(SEED, c, s)
    assert not verify_deal(SEED, commitment(seeds(1)[0]), s)
    assert not verify_deal(seeds(1)[0], commitment(seeds(1)[0]), s)
    assert not verify_deal(b"short", c, s)
    # later in the hand: with the move log, or by what cannot change
    moves = []
    state = s
    for _ in range(9):
        m = legal_moves(state, state.turn)
        move = next((x for x in m if type(x).__name__ == "Draw"), None) or next(
            x for x in m if type(x).__name__ == "Discard"
        )
        moves.append(move)
        state = hand_apply(state, move)
    assert verify_deal(SEED, c, state)
    assert verify_deal(SEED, c, state, moves)
    assert not verify_deal(SEED, c, state, moves[:-1])
    assert not verify_deal(seeds(1)[0], commitment(seeds(1)[0]), state)
