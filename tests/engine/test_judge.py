"""The judge command, end to end: `python -m games.engine judge` as docs/rules.md specifies."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.judge import judge_answer

REPO = Path(__file__).resolve().parents[2]
VECTORS = Path(__file__).with_name("data") / "judge-vectors.jsonl"  # docs/rules.md's cases
WON = "R12 R13 R1 B12 B13 B1 K1 K2 K3 Y7 Y8 Y9 Y10 Y11"  # melds with indicator Y4


def vectors() -> list[dict]:
    return [json.loads(line) for line in VECTORS.read_text().splitlines() if line.strip()]


def run_judge(text: str, command: str = "judge", **kw) -> list[dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", command],
        input=text,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        **kw,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def agrees(got: dict, expect: dict) -> bool:
    if expect.get("error"):
        return set(got) == {"error"} and isinstance(got["error"], str) and got["error"]
    return got == expect


def test_every_vector_through_the_real_command():
    rows = vectors()
    assert len(rows) >= 38
    text = "".join(
        json.dumps({k: v for k, v in r.items() if k not in ("expect", "note")}) + "\n" for r in rows
    )
    answers = run_judge(text)
    assert len(answers) == len(rows)
    wrong = [(r, a) for r, a in zip(rows, answers, strict=True) if not agrees(a, r["expect"])]
    assert not wrong


def one(request) -> dict:
    return json.loads(judge_answer(request if isinstance(request, str) else json.dumps(request)))


@pytest.mark.parametrize(
    "line",
    [
        "{not json",
        "[1, 2]",
        '"Y4"',
        json.dumps({"tiles": WON}),
        json.dumps({"indicator": "Y4"}),
        json.dumps({"indicator": "Y4", "tiles": WON.replace("K3", "X3")}),
        json.dumps({"indicator": "Y4", "tiles": WON.replace("K3", "K14")}),
        json.dumps({"indicator": "Y4", "tiles": WON + " R5"}),
        json.dumps({"indicator": "Y4", "tiles": WON.split(" ", 1)[1]}),
        json.dumps({"indicator": "Y4", "tiles": WON.split()}),
        json.dumps({"indicator": "F", "tiles": WON}),
        json.dumps({"indicator": 4, "tiles": WON}),
        json.dumps({"indicator": "R12", "tiles": WON.replace("B12", "R12")}),  # three R12
        json.dumps({"indicator": "K1", "tiles": WON, "discard": "K1"}),
        json.dumps({"indicator": "Y4", "tiles": WON, "discard": "Q1"}),
        json.dumps(
            {"indicator": "Y4", "tiles": "F F Y5 Y6 Y7 Y8 Y9 R1 R2 R3 B1 B2 B3 B4", "discard": "F"}
        ),
        json.dumps({"indicator": "Y4", "tiles": WON, "options": {"colour_doubling": "no"}}),
        json.dumps({"indicator": "Y4", "tiles": WON, "options": {"seats": 4}}),
        json.dumps({"indicator": "Y4", "tiles": WON, "options": [True]}),
    ],
)
def test_bad_lines_get_an_error_with_a_reason(line):
    got = one(line)
    assert list(got) == ["error"] and isinstance(got["error"], str) and got["error"]


def test_the_command_goes_on_after_bad_lines_and_skips_blank_ones():
    good = json.dumps({"indicator": "K4", "tiles": WON, "discard": "R9"})
    answers = run_judge(f"nonsense\n\n{good}\n   \n{{}}\n{good}")  # last line without newline
    assert answers == [
        answers[0],
        {"melds": True, "pairs": False, "finish": "normal", "points": 4},
        answers[2],
        {"melds": True, "pairs": False, "finish": "normal", "points": 4},
    ]
    assert "error" in answers[0] and "error" in answers[2]


def test_colour_doubling_off_makes_a_black_indicator_count_single():
    request = {"indicator": "K4", "tiles": WON, "discard": "K5"}
    assert one(request) == {"melds": True, "pairs": False, "finish": "okey", "points": 8}
    request["options"] = {"colour_doubling": False, "indicator_bonus": False}
    assert one(request) == {"melds": True, "pairs": False, "finish": "okey", "points": 4}


def test_a_discard_that_does_not_finish_scores_nothing():
    got = one({"indicator": "Y4", "tiles": WON.replace("Y11", "R4"), "discard": "Y11"})
    assert got == {"melds": False, "pairs": False, "finish": None, "points": 0}


def test_without_a_discard_only_melds_and_pairs_are_answered():
    assert one({"indicator": "Y4", "tiles": WON}) == {"melds": True, "pairs": False}


def test_answers_come_line_by_line_for_a_bot_that_waits():
    proc = subprocess.Popen(
        [sys.executable, "-m", "games.engine", "judge"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=REPO,
        text=True,
    )
    try:
        for tiles, melds in ((WON, True), (WON.replace("Y11", "R4"), False)):
            proc.stdin.write(json.dumps({"indicator": "Y4", "tiles": tiles}) + "\n")
            proc.stdin.flush()
            assert json.loads(proc.stdout.readline())["melds"] is melds
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    assert proc.returncode == 0


def test_the_command_runs_without_django():
    block = (
        "import runpy, sys; sys.modules['django'] = None; sys.argv = ['games.engine', 'judge'];"
        "runpy.run_module('games.engine', run_name='__main__', alter_sys=True)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", block],
        input=json.dumps({"indicator": "Y4", "tiles": WON}) + "\n",
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert proc.stdout.strip() == '{"melds": true, "pairs": false}', proc.stderr


def test_other_arguments_print_the_usage():
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "judgee"], capture_output=True, text=True, cwd=REPO
    )
    assert proc.returncode == 2 and "usage" in proc.stderr
