"""An arena's points: what one finished game is worth to each of its players. Pure: it reads a
game's stored results (games.table.results) and a player's streak, nothing else.

- By place: 4, 2, 1, 0 for the first to the fourth of a game of four; in a game of partnerships
  (the results carry team totals) a side is a pair, and both players of the winning pair get
  the winners' 4, the other pair 0. Tied players share the best of their places, as the game's
  results page shows them; when every side ties (a drawn Eşli game) nobody has won and each
  gets half the winners' points.
- Streak: a win is a first place not shared by everyone. After two wins in a row a player is on
  fire (a flame): every game they play then is worth double, until one is not a win (as
  lichess's arena counts it, a draw on fire doubled too).
- A player who left the game (the results' ``left`` seats) gets nothing for it and their streak
  ends.
"""

from __future__ import annotations

from dataclasses import dataclass

# points by place, for each number of sides a game can have
PLACE_POINTS = {4: (4, 2, 1, 0), 3: (4, 2, 0), 2: (4, 0)}
WIN_POINTS = 4
FIRE_AFTER = 2  # wins in a row before the points double


@dataclass(frozen=True)
class Outcome:
    """One player's end of one game."""

    user_id: int
    place: int  # the side's place: 1 the best
    won: bool
    left: bool
    base: int  # points before any streak bonus


def game_outcomes(results: dict) -> list[Outcome]:
    """Each person's outcome of a game, from its stored results (bots have none)."""
    places = results["places"]
    players = results["players"]
    left = set(results.get("left") or ())
    teams = bool(results.get("teams"))
    sides = len(set(i % 2 for i in range(len(places)))) if teams else len(places)
    side_places = _side_places(places, teams)
    everyone_first = all(p == 1 for p in places)
    table = PLACE_POINTS.get(sides, PLACE_POINTS[4])
    out = []
    for i, player in enumerate(players):
        user_id = player.get("user")
        if user_id is None or player.get("bot"):
            continue
        gone = i in left
        if gone:
            base = 0
        elif everyone_first:
            base = WIN_POINTS // 2
        else:
            base = table[min(side_places[i], len(table)) - 1]
        out.append(
            Outcome(
                user_id=user_id,
                place=side_places[i],
                won=not gone and side_places[i] == 1 and not everyone_first,
                left=gone,
                base=base,
            )
        )
    return out


def _side_places(places: list[int], teams: bool) -> list[int]:
    """The place of each seat's side: a pair's place among the pairs in a game of partnerships
    (the stored places are per seat already, 1 or 2), a player's own place otherwise."""
    if not teams:
        return list(places)
    # 1 + the number of sides strictly better, counted once per side
    side = {i % 2: p for i, p in enumerate(places)}
    return [1 + sum(1 for q in side.values() if q < side[i % 2]) for i in range(len(places))]


@dataclass(frozen=True)
class Scored:
    points: int  # added to the player's total
    doubled: bool  # played on fire
    streak: int  # wins in a row after this game


def outcome_score(outcome: Outcome, streak: int) -> Scored:
    """What ``outcome`` adds for a player who had won ``streak`` games in a row before it."""
    if outcome.left:
        return Scored(points=0, doubled=False, streak=0)
    fire = streak >= FIRE_AFTER
    points = outcome.base * (2 if fire else 1)
    return Scored(points=points, doubled=fire, streak=streak + 1 if outcome.won else 0)
