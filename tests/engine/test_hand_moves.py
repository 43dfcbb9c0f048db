import json

import pytest

from games.engine import (
    DeclarePairs,
    Discard,
    Draw,
    Finish,
    IllegalMove,
    ShowIndicator,
    TableOptions,
    TakeDiscard,
    TakeIndicator,
    deal,
    hand_apply,
    hand_replay,
    legal_moves,
    move_from_dict,
    move_to_dict,
    parse_tile,
)

ALL = [
    Draw(1),
    TakeDiscard(2),
    Discard(0, parse_tile("R7")),
    Finish(3, parse_tile("F")),
    ShowIndicator(0),
    DeclarePairs(1),
    TakeIndicator(2),
]


@pytest.mark.parametrize("move", ALL)
def test_move_dict_round_trip(move):
    d = json.loads(json.dumps(move_to_dict(move)))
    assert move_from_dict(d) == move


def test_move_dict_form():
    assert move_to_dict(Discard(2, parse_tile("K13"))) == {
        "kind": "discard",
        "seat": 2,
        "tile": "K13",
    }
    assert move_to_dict(TakeIndicator(0)) == {"kind": "take_indicator", "seat": 0}


@pytest.mark.parametrize(
    "d, code",
    [
        ("draw", "bad_move"),
        ({}, "bad_move"),
        ({"kind": "pass", "seat": 0}, "bad_move"),
        ({"kind": "draw"}, "bad_move"),
        ({"kind": "draw", "seat": "0"}, "bad_move"),
        ({"kind": "draw", "seat": True}, "bad_move"),
        ({"kind": "draw", "seat": 0, "tile": "R1"}, "bad_move"),
        ({"kind": "discard", "seat": 0}, "bad_move"),
        ({"kind": "discard", "seat": 0, "tile": 7}, "bad_move"),
        ({"kind": "discard", "seat": 0, "tile": "R14"}, "bad_tile"),
        ({"kind": "finish", "seat": 0, "tile": "X1"}, "bad_tile"),
    ],
)
def test_malformed_move_dicts_are_refused(d, code):
    with pytest.raises(IllegalMove) as e:
        move_from_dict(d)
    assert e.value.code == code and e.value.message


def test_replay_from_the_dict_log_gives_the_same_state():
    seed = bytes(range(32))
    o = TableOptions(seats=3)
    s = deal(seed, o, 1)
    log = []
    for _ in range(30):
        moves = legal_moves(s, s.turn)
        m = next((x for x in moves if isinstance(x, Draw)), None) or next(
            x for x in reversed(moves) if isinstance(x, Discard)
        )
        log.append(move_to_dict(m))
        s = hand_apply(s, m)
    assert hand_replay(seed, o, 1, log) == s
    assert hand_replay(seed, o, 1, [move_from_dict(d) for d in log]) == s
    with pytest.raises(IllegalMove):
        hand_replay(seed, o, 1, log + [{"kind": "draw", "seat": (s.turn + 1) % 3}])
