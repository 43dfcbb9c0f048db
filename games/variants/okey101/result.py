"""A 101 hand that is over: each player's hand score and how it was counted (the tiles left in
the rack, never opened, the +101 penalties, the finisher's multiplier), their totals before and
after (games.variants.result: the teams in Eşli 101, the revealed seed). A game's final places
are every family's (games.variants.result.game_result_view): places, totals and rating points."""

from dataclasses import dataclass

from games.engine.okey101.scoring import PENALTY
from games.models import Game, Hand, Table
from games.variants.result import ResultCommon, ResultRowCommon, result_fields, row_fields


@dataclass(frozen=True)
class ResultRow(ResultRowCommon):
    # rack: what was left in it
    opened: str  # "none" (the rack counts 202, 404 after declaring pairs), "melds", "pairs"
    declared: bool
    penalties: int  # +101 events
    score: int  # the hand's score (lower is better)
    total: int | None  # the game's total after the hand

    @property
    def total_before(self) -> int | None:
        return None if self.total is None else self.total - self.score


@dataclass(frozen=True)
class ResultView(ResultCommon):
    last: str | None  # the finishing discard
    multiplier: int
    penalty: int = PENALTY


def result_view(table: Table, game: Game, hand: Hand, state, board, gstate) -> ResultView:
    res = table.engine_variant.view(state, None)
    result = res["result"]
    scores = result["scores"] or [0] * state.n
    rows = tuple(
        ResultRow(
            **row_fields(s, result, tuple(res["racks"][s.index]) if res["racks"] else ()),
            opened=state.opened[s.index],
            declared=state.declared[s.index],
            penalties=state.penalties[s.index],
            score=scores[s.index],
            total=s.count,
        )
        for s in board.seats
    )
    return ResultView(
        **result_fields(table, game, hand, gstate, board, res, rows, scores),
        last=result["last"],
        multiplier=result["multiplier"],
    )
