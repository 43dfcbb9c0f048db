"""A Düz or Eşli hand that is over (games.variants.result): who finished and how, every rack laid
out. A game's final places are every family's (games.variants.result.game_result_view)."""

from dataclasses import dataclass

from games import engine
from games.models import Game, Hand, Table
from games.variants.okey.board import BoardView
from games.variants.result import ResultCommon, ResultRowCommon, result_fields, row_fields


@dataclass(frozen=True)
class ResultRow(ResultRowCommon):
    delta: int
    count: int | None
    showed: bool
    # the rack laid out as the engine groups it (the winner's as it finished), then what is loose
    melds: tuple[tuple[str, ...], ...] = ()
    loose: tuple[str, ...] = ()

    @property
    def count_before(self) -> int | None:
        return None if self.count is None else self.count - self.delta


@dataclass(frozen=True)
class ResultView(ResultCommon):
    """A hand that is over: who finished and how, every rack, the revealed seed."""

    kind: str | None
    value: int
    shower: int | None
    groups: tuple[tuple[str, ...], ...]
    tile: str | None


def result_view(
    table: Table, game: Game, hand: Hand, state, board: BoardView, gstate
) -> ResultView:
    res = engine.hand_view(state, None)
    result = res["result"]
    racks = res["racks"] or []
    rows = tuple(
        ResultRow(
            **row_fields(s, result, tuple(racks[s.index]) if s.index < len(racks) else ()),
            delta=result["deltas"][s.index] if result["deltas"] else 0,
            count=s.count,
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
    return ResultView(
        **result_fields(table, game, hand, gstate, board, res, rows, result["deltas"]),
        kind=result["kind"],
        value=result["value"],
        shower=result["shower"],
        groups=tuple(tuple(g) for g in result["groups"] or ()),
        tile=result["tile"],
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
