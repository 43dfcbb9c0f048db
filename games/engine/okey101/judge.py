"""The judge101 command (docs/rules-101.md, "The judge101 command"): JSON lines in, one JSON line
out each, ops ``open_value``, ``pairs`` and ``penalty``. A bad line gets {"error": "<reason>"}."""

from __future__ import annotations

import json
from typing import Any

from ..tiles import FAKE, TileError, format_tile, okey_of, overused, parse_tile
from .opening import open_value, pair_count
from .scoring import OPENINGS, SeatEnd, hand_scores, team_scores

MAX_RACK = 22
_PLAYER_FIELDS = {"opened", "declared_pairs", "rack", "penalties"}
_FINISH_FIELDS = {"seat", "last", "same_turn_open"}
_OPTIONS = {"esli"}


class JudgeError(ValueError):
    """A line judge101 cannot answer; the message is the reason it gives."""


def _tile(text: object, what: str) -> int:
    if not isinstance(text, str):
        raise JudgeError(f"{what} must be a tile as text, like 'Y4' or 'F'")
    return parse_tile(text)


def _tiles(text: object, what: str, empty_ok: bool) -> tuple[int, ...]:
    if not isinstance(text, str):
        raise JudgeError(f"{what} must be text: tiles separated by spaces")
    tiles = tuple(parse_tile(t) for t in text.split())
    if len(tiles) > MAX_RACK:
        raise JudgeError(f"{what} has {len(tiles)} tiles: a 101 rack has at most {MAX_RACK}")
    if not tiles and not empty_ok:
        raise JudgeError(f"{what} is empty")
    return tiles


def _whole(value: object, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise JudgeError(f"{name} must be a whole number of at least {low}")
    return value


def _indicator(request: dict) -> int:
    indicator = _tile(request.get("indicator"), "indicator")
    if indicator == FAKE:
        raise JudgeError("a fake joker cannot be the indicator")
    return indicator


def _check_copies(tiles: list[int]) -> None:
    if overused(tiles):
        names = ", ".join(format_tile(f) for f in overused(tiles))
        raise JudgeError(f"more than two copies of {names} counting the indicator")


def _rack_op(request: dict, limit: str) -> tuple[int, tuple[int, ...], int]:
    indicator = _indicator(request)
    tiles = _tiles(request.get("tiles"), "tiles", empty_ok=False)
    _check_copies([*tiles, indicator])
    low = _whole(request.get(limit, 101 if limit == "threshold" else 5), limit, 1)
    return okey_of(indicator), tiles, low


def _open_value(request: dict) -> dict:
    okey, tiles, threshold = _rack_op(request, "threshold")
    value = open_value(tiles, okey)
    return {"value": value, "can_open": value >= threshold}


def _pairs(request: dict) -> dict:
    okey, tiles, need = _rack_op(request, "need")
    count = pair_count(tiles, okey)
    return {"pairs": count, "can_open": count >= need}


def _player(raw: object) -> SeatEnd:
    if not isinstance(raw, dict) or set(raw) - _PLAYER_FIELDS:
        raise JudgeError(f"a player is an object with fields {', '.join(sorted(_PLAYER_FIELDS))}")
    opened = raw.get("opened")
    if opened not in OPENINGS:
        raise JudgeError("opened must be 'none', 'melds' or 'pairs'")
    declared = raw.get("declared_pairs", False)
    if not isinstance(declared, bool):
        raise JudgeError("declared_pairs must be true or false")
    if declared and opened == "melds":
        raise JudgeError("a player who declared pairs cannot open with melds")
    rack = _tiles(raw.get("rack", ""), "rack", empty_ok=True)
    penalties = _whole(raw.get("penalties", 0), "penalties", 0)
    return SeatEnd(opened=opened, rack=rack, declared_pairs=declared, penalties=penalties)


def _finish(raw: object, seats: list[SeatEnd]) -> tuple[int, int, bool]:
    if not isinstance(raw, dict) or set(raw) - _FINISH_FIELDS:
        raise JudgeError(f"finish is null or an object with {', '.join(sorted(_FINISH_FIELDS))}")
    seat = raw.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
        raise JudgeError("finish.seat must be a seat of the players list (0-based)")
    last = _tile(raw.get("last"), "finish.last")
    same_turn = raw.get("same_turn_open", False)
    if not isinstance(same_turn, bool):
        raise JudgeError("same_turn_open must be true or false")
    if seats[seat].opened == "none":
        raise JudgeError("a player who never opened cannot finish")
    if seats[seat].rack:
        raise JudgeError("the finisher has discarded their last tile: their rack must be empty")
    return seat, last, same_turn


def _esli(raw: object) -> bool:
    if raw is None:
        return False
    if not isinstance(raw, dict) or set(raw) - _OPTIONS:
        raise JudgeError("options is an object; the only option is esli")
    esli = raw.get("esli", False)
    if not isinstance(esli, bool):
        raise JudgeError("option esli must be true or false")
    return esli


def _penalty(request: dict) -> dict:
    indicator = _indicator(request)
    players = request.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise JudgeError("players must be a list of 2 to 4 players")
    seats = [_player(p) for p in players]
    raw_finish = request.get("finish")
    finish = None if raw_finish is None else _finish(raw_finish, seats)
    esli = _esli(request.get("options"))
    if esli and len(seats) != 4:
        raise JudgeError("eşli 101 needs four players")
    seen = [indicator, *(t for s in seats for t in s.rack)]
    if finish is not None:
        seen.append(finish[1])
    _check_copies(seen)
    okey = okey_of(indicator)
    seat, last, same_turn = finish if finish is not None else (None, None, False)
    m, scores = hand_scores(seats, okey, seat, last, same_turn, esli)
    answer: dict[str, Any] = {"multiplier": m, "scores": list(scores)}
    if esli:
        answer["teams"] = list(team_scores(scores))
    return answer


OPS = {"open_value": _open_value, "pairs": _pairs, "penalty": _penalty}


def judge101(request: object) -> dict:
    """The answer to one decoded line; raises JudgeError or TileError for a bad one."""
    if not isinstance(request, dict):
        raise JudgeError("each line must be a JSON object with an op")
    op = OPS.get(request.get("op"))
    if op is None:
        raise JudgeError(f"unknown op: the judge101 ops are {', '.join(OPS)}")
    return op(request)


def judge101_answer(line: bytes | str) -> str:
    """One input line to one output line (without the newline)."""
    try:
        request = json.loads(line)
    except (ValueError, RecursionError) as exc:
        return json.dumps({"error": f"bad JSON: {exc}"})
    try:
        return json.dumps(judge101(request))
    except (JudgeError, TileError) as exc:
        return json.dumps({"error": str(exc)})
