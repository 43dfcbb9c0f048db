"""A 101 hand that is over: each player's hand score and how it was counted (the tiles left in
the rack, never opened, the +101 penalties, the finisher's multiplier), their totals before and
after, the teams in Eşli 101, the revealed seed. A game's final places are Düz Okey's view
(games.variants.okey.result.game_result_view): places, totals and rating points."""

from dataclasses import dataclass

from games.engine.okey101.scoring import PENALTY
from games.models import Game, Hand, Table
from games.teams import team_deltas
from games.variants.common import epoch_ms


@dataclass(frozen=True)
class ResultRow:
    name: str
    bot: bool
    number: int
    index: int
    rack: tuple[str, ...]  # what was left in the rack
    opened: str  # "none" (the rack counts 202, 404 after declaring pairs), "melds", "pairs"
    declared: bool
    penalties: int  # +101 events
    score: int  # the hand's score (lower is better)
    total: int | None  # the game's total after the hand
    finisher: bool

    @property
    def total_before(self) -> int | None:
        return None if self.total is None else self.total - self.score


@dataclass(frozen=True)
class ResultView:
    table_id: int
    hand_number: int
    void: bool
    staff_void: bool
    left_void: bool
    finisher: int | None
    last: str | None  # the finishing discard
    multiplier: int
    okey: str | None
    rows: tuple[ResultRow, ...]
    seed: str
    commitment: str
    next_at: int | None
    team_rows: tuple[dict, ...] | None
    penalty: int = PENALTY


def result_view(table: Table, game: Game, hand: Hand, state, board, gstate) -> ResultView:
    rules = table.engine_variant
    res = rules.view(state, None)
    result = res["result"]
    scores = result["scores"] or [0] * state.n
    rows = tuple(
        ResultRow(
            name=s.name,
            bot=s.bot,
            number=s.number,
            index=s.index,
            rack=tuple(res["racks"][s.index]) if res["racks"] else (),
            opened=state.opened[s.index],
            declared=state.declared[s.index],
            penalties=state.penalties[s.index],
            score=scores[s.index],
            total=s.count,
            finisher=result["finisher"] == s.index,
        )
        for s in board.seats
    )
    next_at = None
    if gstate is not None and not gstate.over:
        next_at = epoch_ms(game.deadline)
    team_rows = None
    deltas = team_deltas(scores)
    if board.centre.teams is not None and deltas is not None:
        team_rows = tuple({"team": t, "delta": deltas[t.index]} for t in board.centre.teams)
    return ResultView(
        table_id=table.pk,
        hand_number=hand.number,
        void=result["void"],
        staff_void=bool((hand.result or {}).get("staff")),
        left_void=bool((hand.result or {}).get("left")),
        finisher=result["finisher"],
        last=result["last"],
        multiplier=result["multiplier"],
        okey=res["okey"],
        rows=rows,
        seed=bytes(hand.seed).hex(),  # the hand is over: the seed may be revealed
        commitment=hand.commitment,
        next_at=next_at,
        team_rows=team_rows,
    )
