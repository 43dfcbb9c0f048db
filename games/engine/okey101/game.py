"""A 101 game (docs/rules-101.md, "The game"): ``hand_limit`` hands that are not void, each
player's total the sum of their hand scores, the lowest total first; in eşli the team's. Rating
points are Düz Okey's (by place) or Eşli Okey's (by team)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..game import places_of, rating_exact, rating_whole
from .options import Options101
from .scoring import team_scores
from .state import Result101, result101_from_dict, result101_to_dict


@dataclass(frozen=True)
class Game101:
    options: Options101
    n: int
    totals: tuple[int, ...]
    hands_played: int = 0
    next_first_seat: int = 0
    over: bool = False
    history: tuple[Result101, ...] = ()


def game101_new(options: Options101, first_seat: int) -> Game101:
    if not 0 <= first_seat < options.seats:
        raise ValueError(f"first_seat must be a seat from 0 to {options.seats - 1}")
    return Game101(options, options.seats, (0,) * options.seats, next_first_seat=first_seat)


def game101_apply_hand(game: Game101, result: Result101) -> Game101:
    """Adds the hand's scores. A void hand counts for nothing and is dealt again with the
    same first player; after any other the next seat to the right starts."""
    if game.over:
        raise ValueError("the game is over")
    history = (*game.history, result)
    if result.void:
        return replace(game, history=history)
    played = game.hands_played + 1
    return replace(
        game,
        totals=tuple(t + s for t, s in zip(game.totals, result.scores, strict=True)),
        hands_played=played,
        next_first_seat=(game.next_first_seat + 1) % game.n,
        over=played >= game.options.hand_limit,
        history=history,
    )


def game101_places(game: Game101) -> tuple[int, ...]:
    """1-based place per seat, the lowest total first, ties sharing; in eşli the team's place."""
    if game.options.esli:
        teams = places_of(team_scores(game.totals))
        return tuple(teams[seat % 2] for seat in range(game.n))
    return places_of(game.totals)


def game101_rating_whole(game: Game101) -> tuple[int, ...]:
    """Rating points as in Düz Okey (by place) or Eşli Okey (by team), H the hands played, as
    whole numbers summing to zero."""
    teams = team_scores(game.totals) if game.options.esli else None
    places = game101_places(game)
    return rating_whole(rating_exact(places, game.hands_played, teams), places)


def game101_to_dict(game: Game101) -> dict[str, Any]:
    return {
        "options": game.options.to_dict(),
        "n": game.n,
        "totals": list(game.totals),
        "hands_played": game.hands_played,
        "next_first_seat": game.next_first_seat,
        "over": game.over,
        "history": [result101_to_dict(r) for r in game.history],
    }


def game101_from_dict(d: dict[str, Any]) -> Game101:
    return Game101(
        options=Options101.from_dict(d["options"]),
        n=d["n"],
        totals=tuple(d["totals"]),
        hands_played=d["hands_played"],
        next_first_seat=d["next_first_seat"],
        over=d["over"],
        history=tuple(result101_from_dict(r) for r in d["history"]),
    )
