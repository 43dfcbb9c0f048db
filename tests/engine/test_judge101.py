"""The judge101 command, end to end: `python -m games.engine judge101` as docs/rules-101.md
specifies, on every vector of tests/engine/data/judge-101-vectors.jsonl."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine.okey101.judge import judge101_answer
from tests.engine.test_judge import agrees, run_judge

VECTORS = Path(__file__).with_name("data") / "judge-101-vectors.jsonl"


def vectors() -> list[dict]:
    return [json.loads(line) for line in VECTORS.read_text().splitlines() if line.strip()]


def test_every_vector_through_the_real_command():
    rows = vectors()
    assert len(rows) == 65
    text = "".join(json.dumps({"op": r["op"], **r["input"]}) + "\n" for r in rows)
    answers = run_judge(text, "judge101")
    assert len(answers) == len(rows)
    wrong = [(r, a) for r, a in zip(rows, answers, strict=True) if not agrees(a, r["expect"])]
    assert not wrong


def one(request) -> dict:
    return json.loads(judge101_answer(request if isinstance(request, str) else json.dumps(request)))


PLAYERS = [{"opened": "melds", "rack": ""}, {"opened": "melds", "rack": "K1"}]


@pytest.mark.parametrize(
    "request_",
    [
        "{not json",
        [1],
        {"op": "nothing"},
        {"op": "open_value", "indicator": "Y4", "tiles": ""},
        {"op": "open_value", "indicator": "Y4", "tiles": "R1 R2 R3", "threshold": 0},
        {"op": "open_value", "indicator": "Y4", "tiles": "R1 R2 R3", "threshold": True},
        {"op": "pairs", "indicator": "Y4", "tiles": "R1 R1", "need": 2.5},
        {"op": "pairs", "indicator": "Y4", "tiles": ["R1", "R1"]},
        {"op": "penalty", "indicator": "Y4", "players": PLAYERS[:1], "finish": None},
        {"op": "penalty", "indicator": "Y4", "players": [{"opened": "some"}] * 2, "finish": None},
        {"op": "penalty", "indicator": "Y4", "players": [{"opened": "none", "x": 1}] * 2},
        {"op": "penalty", "indicator": "Y4", "players": PLAYERS, "finish": {"seat": 2}},
        {"op": "penalty", "indicator": "Y4", "players": PLAYERS, "finish": {"seat": 0, "x": 1}},
        {"op": "penalty", "indicator": "Y4", "players": PLAYERS, "options": {"fast": True}},
        {"op": "penalty", "indicator": "Y4", "players": [{"opened": "none", "penalties": -1}] * 2},
    ],
)
def test_bad_lines_get_an_error_with_a_reason(request_):
    got = one(request_ if isinstance(request_, str) else json.dumps(request_))
    assert list(got) == ["error"] and got["error"]


def test_the_command_goes_on_after_a_bad_line():
    good = json.dumps({"op": "pairs", "indicator": "Y4", "tiles": "R1 R1"})
    first, second = run_judge(f"nonsense\n\n{good}", "judge101")
    assert list(first) == ["error"] and second == {"pairs": 1, "can_open": False}
