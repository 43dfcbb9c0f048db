"""A game (a match of hands): counts, who starts the next hand, the end, places and rating.

Counts start at ``start_count`` and lower is better. A void hand changes nothing, does not count
towards ``hand_limit`` and is dealt again by the same first player; after any other hand the next
seat starts. The game ends after ``hand_limit`` counted hands, or after a hand that leaves any
count at 0 or below.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .moves import IllegalMove
from .options import RuleOptions
from .state import HandResult, result_from_dict, result_to_dict

# Düz rating points by place, in units of H (the hands played)
_PLACE_POINTS = {4: (2, 1, -1, -2), 3: (1, 0, -1), 2: (1, -1)}


@dataclass(frozen=True)
class GameState:
    options: RuleOptions
    n: int
    counts: tuple[int, ...]
    hands_played: int = 0  # counted (not void) hands
    next_first_seat: int = 0
    over: bool = False
    history: tuple[HandResult, ...] = ()  # every hand, void ones included


def game_new(options: RuleOptions, first_seat: int) -> GameState:
    n = options.seats
    if isinstance(first_seat, bool) or not isinstance(first_seat, int) or not 0 <= first_seat < n:
        raise ValueError(f"first_seat must be a seat from 0 to {n - 1}")
    return GameState(
        options=options, n=n, counts=(options.start_count,) * n, next_first_seat=first_seat
    )


def game_apply_hand(game: GameState, result: HandResult) -> GameState:
    if game.over:
        raise IllegalMove("game_over", "the game is over")
    if result.void:
        return GameState(
            options=game.options,
            n=game.n,
            counts=game.counts,
            hands_played=game.hands_played,
            next_first_seat=game.next_first_seat,
            over=False,
            history=game.history + (result,),
        )
    if len(result.deltas) != game.n:
        raise ValueError(f"a hand result for {game.n} seats needs {game.n} deltas")
    counts = tuple(c + d for c, d in zip(game.counts, result.deltas, strict=True))
    played = game.hands_played + 1
    return GameState(
        options=game.options,
        n=game.n,
        counts=counts,
        hands_played=played,
        next_first_seat=(game.next_first_seat + 1) % game.n,
        over=played >= game.options.hand_limit or min(counts) <= 0,
        history=game.history + (result,),
    )


def team_totals(game: GameState) -> tuple[int, int]:
    """Eşli: (seats 0 and 2, seats 1 and 3)."""
    if not game.options.partnership:
        raise ValueError("team totals exist only in eşli okey")
    c = game.counts
    return (c[0] + c[2], c[1] + c[3])


def places_of(scores: tuple[int, ...]) -> tuple[int, ...]:
    # 1 + how many are strictly better (lower): ties share the best of their places
    return tuple(1 + sum(o < s for o in scores) for s in scores)


def game_places(game: GameState) -> tuple[int, ...]:
    """1-based place per seat, lowest count first; tied seats share a place.

    In eşli okey both partners get their team's place (1 or 2; a tie puts both teams first).
    """
    if game.options.partnership:
        teams = places_of(team_totals(game))
        return tuple(teams[seat % 2] for seat in range(game.n))
    return places_of(game.counts)


def game_rating_points(game: GameState) -> tuple[float, ...]:
    """Rating points by seat as docs/rules.md gives them: tied players share the average of their
    places' points, so a share may be a fraction."""
    return tuple(float(p) for p in _exact_points(game))


def game_rating_whole(game: GameState) -> tuple[int, ...]:
    """The rating points as whole numbers that still sum to zero (see rating_whole)."""
    return rating_whole(_exact_points(game), game_places(game))


def game_leaver_points(options) -> int:
    """The rating points a player who leaves a rated game gets (docs/rules.md, "Leaving a rated
    game"): the last place's over the game's whole length (its hand limit), the worst that
    playing it out could give, however many hands were played when they left."""
    if options.partnership:
        return -options.hand_limit
    return _PLACE_POINTS[options.seats][-1] * options.hand_limit


def rating_whole(exact: tuple[Fraction, ...], places: tuple[int, ...]) -> tuple[int, ...]:
    """Exact points as whole numbers that still sum to zero (largest remainder): each seat gets
    its share rounded down, and the units that leaves over go to the largest fractional parts,
    the better place first, then the lower seat, so the same game always rounds alike."""
    whole = [math.floor(p) for p in exact]
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - whole[i]), places[i], i))
    for i in order[: -sum(whole)]:
        whole[i] += 1
    return tuple(whole)


def _exact_points(game: GameState) -> tuple[Fraction, ...]:
    teams = team_totals(game) if game.options.partnership else None
    return rating_exact(game_places(game), game.hands_played, teams)


def rating_exact(
    places: tuple[int, ...], hands: int, teams: tuple[int, int] | None = None
) -> tuple[Fraction, ...]:
    """Rating points by seat from the places and the hands played (H): by place, or with
    ``teams`` (the two team totals, lower wins) +H to each winner and -H to each loser."""
    n = len(places)
    if teams is not None:
        a, b = teams
        if a == b:
            return (Fraction(0),) * n
        sign = (1, -1) if a < b else (-1, 1)
        return tuple(Fraction(sign[seat % 2] * hands) for seat in range(n))
    points = _PLACE_POINTS[n]
    out = []
    for place in places:
        tied = places.count(place)
        # tied players share the average of the places they occupy together
        share = points[place - 1 : place - 1 + tied]
        out.append(Fraction(hands * sum(share), tied))
    return tuple(out)


def game_to_dict(game: GameState) -> dict[str, Any]:
    return {
        "options": game.options.to_dict(),
        "n": game.n,
        "counts": list(game.counts),
        "hands_played": game.hands_played,
        "next_first_seat": game.next_first_seat,
        "over": game.over,
        "history": [result_to_dict(r) for r in game.history],
    }


def game_from_dict(d: dict[str, Any]) -> GameState:
    return GameState(
        options=RuleOptions.from_dict(d["options"]),
        n=d["n"],
        counts=tuple(d["counts"]),
        hands_played=d["hands_played"],
        next_first_seat=d["next_first_seat"],
        over=d["over"],
        history=tuple(result_from_dict(r) for r in d["history"]),
    )
