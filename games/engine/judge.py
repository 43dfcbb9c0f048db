"""The judge command (docs/rules.md, "The judge command"): JSON lines in, one JSON line out each.

`judge_answer` turns one line into its answer and never raises for bad input: a line that is not
valid gets {"error": "<reason>"} and the next line is read as usual. `judge_stream` is the loop
over standard input; it answers every complete line it has and flushes whenever the input has
nothing more ready, so a bot can talk to it line by line and a script can pipe in thousands of
hands without a write per line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import BinaryIO

from .finish import best_kind, finish_value
from .melds import key_can_meld, rack_key, too_many_copies
from .pairs import key_can_pairs
from .tiles import FACES, FAKE, TileError, format_tile, okey_of, overused, parse_tile

HAND_SIZE = 14
OPTIONS = {"colour_doubling": True, "indicator_bonus": True}
_CODES = {format_tile(f): f for f in range(FACES)}


class JudgeError(ValueError):
    """A line the judge cannot answer; the message is the reason it gives."""


def _tile(text: object, what: str) -> int:
    if not isinstance(text, str):
        raise JudgeError(f"{what} must be a tile as text, like 'Y4' or 'F'")
    code = _CODES.get(text)
    return code if code is not None else parse_tile(text)


def _tiles(text: object) -> list[int]:
    if not isinstance(text, str):
        raise JudgeError("tiles must be text: 14 tiles separated by spaces")
    codes = _CODES
    out = [codes.get(t) for t in text.split()]
    if None in out:
        out = [parse_tile(t) for t in text.split()]
    if len(out) != HAND_SIZE:
        raise JudgeError(f"a hand has {HAND_SIZE} tiles, this one has {len(out)}")
    return out


def _options(raw: object) -> dict[str, bool]:
    if raw is None:
        return OPTIONS
    if not isinstance(raw, dict):
        raise JudgeError("options must be a JSON object")
    for key, value in raw.items():
        if key not in OPTIONS:
            raise JudgeError(f"unknown option {key!r}: the judge knows {', '.join(OPTIONS)}")
        if not isinstance(value, bool):
            raise JudgeError(f"option {key!r} must be true or false")
    return {**OPTIONS, **raw}


def judge(request: object) -> dict:
    """The answer to one decoded request; raises JudgeError or TileError for bad input."""
    if not isinstance(request, dict):
        raise JudgeError("each line must be a JSON object with indicator and tiles")
    if "indicator" not in request or "tiles" not in request:
        raise JudgeError("a line needs both 'indicator' and 'tiles'")
    indicator = _tile(request["indicator"], "indicator")
    if indicator == FAKE:
        raise JudgeError("a fake joker cannot be the indicator")
    tiles = _tiles(request["tiles"])
    discard = request.get("discard")
    has_discard = discard is not None
    options = _options(request.get("options"))
    seen = [*tiles, indicator]
    if has_discard:
        discard = _tile(discard, "discard")
        seen.append(discard)
    if too_many_copies(seen):
        names = ", ".join(format_tile(f) for f in overused(seen))
        raise JudgeError(f"more than two copies of {names} counting the indicator and the discard")

    okey = okey_of(indicator)
    key, okeys = rack_key(tiles, okey)
    melds = key_can_meld(key, okeys)
    pairs = key_can_pairs(key, okeys)
    answer: dict = {"melds": melds, "pairs": pairs}
    if has_discard:
        kind = best_kind(melds, pairs, discard == okey)
        answer["finish"] = kind
        answer["points"] = finish_value(kind, indicator, options["colour_doubling"])
    return answer


def judge_answer(line: bytes | str) -> str:
    """One input line to one output line (without the newline)."""
    try:
        request = json.loads(line)
    except (ValueError, RecursionError) as exc:
        return json.dumps({"error": f"bad JSON: {exc}"})
    try:
        return _encode(judge(request))
    except (JudgeError, TileError) as exc:
        return json.dumps({"error": str(exc)})


_JSON = {True: "true", False: "false", None: "null"}


def _encode(answer: dict) -> str:
    """json.dumps of an answer, written out: its few shapes are known, and json.dumps is a
    large part of the time of a line."""
    text = f'{{"melds": {_JSON[answer["melds"]]}, "pairs": {_JSON[answer["pairs"]]}'
    if "finish" not in answer:
        return text + "}"
    kind = answer["finish"]
    kind = "null" if kind is None else f'"{kind}"'
    return f'{text}, "finish": {kind}, "points": {answer["points"]}}}'


def judge_stream(
    inp: BinaryIO, out: BinaryIO, judge_answer: Callable[[bytes], str] = judge_answer
) -> None:
    """Answer every non-blank line of `inp` on `out`, in order (with ``judge_answer``, Düz
    Okey's unless another judge's is given: 101's judge101 reads its lines the same way)."""
    read = getattr(inp, "read1", inp.read)
    pending = b""
    while True:
        chunk = read(1 << 16)
        if not chunk:
            break
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        answers = [judge_answer(line) for line in lines if line.strip()]
        if answers:
            out.write(("\n".join(answers) + "\n").encode())
            out.flush()
    if pending.strip():
        out.write((judge_answer(pending) + "\n").encode())
        out.flush()
