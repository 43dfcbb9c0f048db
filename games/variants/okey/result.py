"""A Düz or Eşli hand that is over (who finished and how, every rack laid out, the revealed seed)
and a game's final places."""

from dataclasses import dataclass

from games import engine
from games.models import Game, Hand, Table
from games.teams import team_deltas
from games.variants.common import epoch_ms
from games.variants.okey.board import BoardView


@dataclass(frozen=True)
class ResultRow:
    name: str
    bot: bool
    number: int
    index: int
    rack: tuple[str, ...]
    delta: int
    count: int | None
    finisher: bool
    showed: bool
    # the rack laid out as the engine groups it (the winner's as it finished), then what is loose
    melds: tuple[tuple[str, ...], ...] = ()
    loose: tuple[str, ...] = ()

    @property
    def count_before(self) -> int | None:
        return None if self.count is None else self.count - self.delta


@dataclass(frozen=True)
class ResultView:
    """A hand that is over: who finished and how, every rack, the revealed seed."""

    table_id: int
    hand_number: int
    void: bool
    staff_void: bool
    left_void: bool  # stopped when the last person left the game (games.table.seats)
    finisher: int | None
    kind: str | None
    value: int
    shower: int | None
    groups: tuple[tuple[str, ...], ...]
    tile: str | None
    okey: str | None
    rows: tuple[ResultRow, ...]
    seed: str
    commitment: str
    next_at: int | None
    team_rows: tuple[dict, ...] | None


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


def result_view(
    table: Table, game: Game, hand: Hand, state, board: BoardView, gstate
) -> ResultView:
    res = engine.hand_view(state, None)
    result = res["result"]
    racks = res["racks"] or []
    rows = tuple(
        ResultRow(
            name=s.name,
            bot=s.bot,
            number=s.number,
            index=s.index,
            rack=tuple(racks[s.index]) if s.index < len(racks) else (),
            delta=result["deltas"][s.index] if result["deltas"] else 0,
            count=s.count,
            finisher=result["finisher"] == s.index,
            showed=result["shower"] == s.index,
            **_rack_laid_out(
                state.racks[s.index] if s.index < len(state.racks) else (),
                state.okey,
                pairs=s.index in state.pairs_declared
                or "pairs" in (result["kind"] or "")
                and result["finisher"] == s.index,
                finished=result["groups"] if result["finisher"] == s.index else None,
            ),
        )
        for s in board.seats
    )
    # the next deal is the table's deadline while the game goes on (games.table.deadlines)
    next_at = None
    if gstate is not None and not gstate.over:
        next_at = epoch_ms(game.deadline)
    team_rows = None
    deltas = team_deltas(result["deltas"])
    if board.centre.teams is not None and deltas is not None:
        team_rows = tuple(
            {"team": t, "delta": deltas[t.index]} for t in board.centre.teams
        )  # fmt: skip
    return ResultView(
        table_id=table.pk,
        hand_number=hand.number,
        void=result["void"],
        staff_void=bool((hand.result or {}).get("staff")),
        left_void=bool((hand.result or {}).get("left")),
        finisher=result["finisher"],
        kind=result["kind"],
        value=result["value"],
        shower=result["shower"],
        groups=tuple(tuple(g) for g in result["groups"] or ()),
        tile=result["tile"],
        okey=res["okey"],
        rows=rows,
        seed=bytes(hand.seed).hex(),  # the hand is over: the seed may be revealed
        commitment=hand.commitment,
        next_at=next_at,
        team_rows=team_rows,
    )


def _rack_laid_out(rack, okey: int, *, pairs: bool, finished) -> dict:
    """A revealed rack (engine faces) as melds (pairs for a player who went for them) and loose tiles; the
    winner's as the groups it finished with."""
    if finished:
        return {"melds": tuple(tuple(g) for g in finished), "loose": ()}
    groups, loose = (engine.arrange_pairs if pairs else engine.arrange_runs)(rack, okey)
    return {
        "melds": tuple(tuple(engine.format_tile(t) for t in g) for g in groups),
        "loose": tuple(engine.format_tile(t) for t in loose),
    }


def game_result_view(results: dict, board: BoardView, practice: bool) -> GameResultView:
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
