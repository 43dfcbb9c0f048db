"""What every family's result holds: a hand that is over (who finished, why it was void, the
revealed seed, when the next deal comes, the teams' share) and a game's final places, counts (or
101's totals) and rating points. A family's ResultView and ResultRow
(games/variants/<family>/result.py) add how its hands are won and counted."""

from dataclasses import dataclass

from games.models import Game, Hand, Table
from games.teams import team_deltas
from games.variants.common import epoch_ms


@dataclass(frozen=True)
class ResultRowCommon:
    name: str
    bot: bool
    number: int
    index: int
    rack: tuple[str, ...]
    finisher: bool


def row_fields(s, result: dict, rack) -> dict:
    """ResultRowCommon's fields for the board's seat ``s``; ``rack``: its revealed tiles."""
    return {
        "name": s.name,
        "bot": s.bot,
        "number": s.number,
        "index": s.index,
        "rack": rack,
        "finisher": result["finisher"] == s.index,
    }


@dataclass(frozen=True)
class ResultCommon:
    """A hand that is over, as every family shows it."""

    table_id: int
    hand_number: int
    void: bool
    staff_void: bool
    left_void: bool  # stopped when the last person left the game (games.table.seats)
    finisher: int | None
    okey: str | None
    rows: tuple
    seed: str
    commitment: str
    next_at: int | None
    team_rows: tuple[dict, ...] | None


def result_fields(table: Table, game: Game, hand: Hand, gstate, board, res: dict, rows, deltas):
    """ResultCommon's fields: ``res`` the engine's public view of the hand that is over, ``rows``
    the family's rows, ``deltas`` what each seat scored in the hand (the teams' share)."""
    result = res["result"]
    # the next deal is the table's deadline while the game goes on (games.table.deadlines)
    next_at = None
    if gstate is not None and not gstate.over:
        next_at = epoch_ms(game.deadline)
    team_rows = None
    team = team_deltas(deltas)
    if board.centre.teams is not None and team is not None:
        team_rows = tuple({"team": t, "delta": team[t.index]} for t in board.centre.teams)
    return {
        "table_id": table.pk,
        "hand_number": hand.number,
        "void": result["void"],
        "staff_void": bool((hand.result or {}).get("staff")),
        "left_void": bool((hand.result or {}).get("left")),
        "finisher": result["finisher"],
        "okey": res["okey"],
        "rows": rows,
        "seed": bytes(hand.seed).hex(),  # the hand is over: the seed may be revealed
        "commitment": hand.commitment,
        "next_at": next_at,
        "team_rows": team_rows,
    }


@dataclass(frozen=True)
class GameResultRow:
    place: int
    name: str
    bot: bool
    index: int
    count: int
    points: float
    team: str | None
    team_name: str
    left: bool = False  # the person who gave this seat up while the game ran (rated its loser)


@dataclass(frozen=True)
class GameResultView:
    rows: tuple[GameResultRow, ...]
    hands: int
    staff: bool
    teams: dict | None
    rated: bool  # False for a practice game and a game with no hand played: no rating points


def game_result_view(results: dict, board, practice: bool) -> GameResultView:
    """The game's final places, every family's: its stored results (games.table.results) by the
    board's seats."""
    left = set(results.get("left", ()))
    rows = sorted(
        (
            GameResultRow(
                place=results["places"][s.index],
                # a seat given up shows its leaver, not the bot that played it on
                name=results["players"][s.index]["name"] if s.index in left else s.name,
                bot=s.bot and s.index not in left,
                left=s.index in left,
                index=s.index,
                count=results["counts"][s.index],
                points=results["points"][s.index],
                team=s.team,
                team_name=s.team_name,
            )
            for s in board.seats
        ),
        key=lambda r: (r.place, r.team or "", r.count),
    )
    game_teams = None
    if board.centre.teams is not None and results.get("teams"):
        totals = results["teams"]
        game_teams = {
            "rows": [
                {
                    "team": t,
                    "total": totals[t.index],
                    "points": results["points"][t.index],
                    "won": totals[t.index] < totals[1 - t.index],
                }
                for t in board.centre.teams
            ],  # fmt: skip
            "draw": totals[0] == totals[1],
        }
    return GameResultView(
        rows=tuple(rows),
        hands=results["hands"],
        staff=bool(results.get("staff")),
        teams=game_teams,
        # results stored before "rated" was written: a practice game was never rated
        rated=results.get("rated", not practice),
    )
