"""What every family's board shares: the middle (indicator, stock, okey, whose turn, which hand,
the teams), what every seat shows alike (who sits there, their turn and clock, their rack's size
and pile) and the board's frame, from the engine's public view of a hand. A family's board
(games/variants/<family>/board.py) adds its own: Düz's pile histories, 101's melds. Built once
per move for everyone at the table; no translated words, no writes."""

from dataclasses import dataclass

from games.models import Seat, Table
from games.names import player_name
from games.teams import team_names, team_of
from games.variants.common import epoch_ms


@dataclass(frozen=True)
class TeamView:
    index: int
    letter: str
    name: str
    custom: bool
    numbers: tuple[int, int]
    total: int | None
    leading: bool


@dataclass(frozen=True)
class CentreView:
    """The middle of the board: indicator, stock, okey, whose turn, which hand."""

    table_id: int
    status: str
    hand_number: int | None
    hands_played: int
    hand_of: int  # which of the game's hand_limit hands this is: "Hand 8 · 8 of 8" at its end too
    hand_limit: int
    indicator: str | None
    indicator_taken: bool
    okey: str | None
    stock_size: int | None
    over: bool
    turn: int | None  # the seat on turn while a hand runs
    turn_name: str
    turn_bot: bool
    commitment: str
    start_at: int | None  # epoch ms when the start countdown ends
    teams: tuple[TeamView, ...] | None


@dataclass(frozen=True)
class SeatCommon:
    """What every family's seat view holds (a family's SeatView adds its own fields)."""

    index: int
    name: str  # a person's display name; "" for a bot or an empty seat (the renderer names bots)
    bot: bool
    bot_strength: str  # how a bot plays (engine.BOT_STRENGTHS); "" for a person or an empty seat
    empty: bool
    reserved: bool  # an invite keeps it for someone
    away: bool
    manager: bool
    team: str | None  # "A" or "B" at a table with teams
    team_name: str
    count: int | None  # the seat's score in the game (Düz's count, 101's total), once it started
    turn: bool
    deadline: int | None  # epoch ms when a person's turn runs out; only on the seat on turn
    rack_size: int | None
    pile: tuple[str, ...]  # the top tile, or the whole pile once histories are public
    pile_size: int
    declared_pairs: bool
    okey: str | None

    @property
    def number(self) -> int:
        return self.index + 1


@dataclass(frozen=True)
class BoardCommon:
    """Everything public about a table at one version (a family's BoardView adds its own)."""

    table_id: int
    version: int
    status: str
    mode: str
    turn_seconds: int
    seats: tuple[SeatCommon, ...]
    centre: CentreView

    @property
    def n(self) -> int:
        return len(self.seats)


def board_fields(table: Table, game) -> dict:
    return {
        "table_id": table.pk,
        "version": game.version,
        "status": table.status,
        "mode": table.variant,
        "turn_seconds": table.rules.turn_seconds,
    }


@dataclass(frozen=True)
class BoardBasics:
    """What every family's board reads first from the hand's public view: ``public`` is None
    before the first deal."""

    public: dict | None
    turn: int | None  # the seat on turn while a hand runs
    names: tuple[str, str] | None  # the teams' names, for the variants with teams (Eşli)
    okey: str | None


def board_basics(table: Table, seats, public) -> BoardBasics:
    playing = public is not None and public["phase"] != "over"
    # the variants with teams, and only they, name them
    names = team_names(table, seats) if table.engine_variant.team_totals is not None else None
    return BoardBasics(
        public=public,
        turn=public["turn"] if playing else None,
        names=names,
        okey=public["okey"] if public else None,
    )


def centre_view(table: Table, seats, hand, gstate, b: BoardBasics, *, indicator_taken: bool):
    public, turn = b.public, b.turn
    turn_row = next((s for s in seats if s.index == turn), None)
    return CentreView(
        table_id=table.pk,
        status=table.status,
        hand_number=hand.number if hand is not None else None,
        hands_played=gstate.hands_played if gstate else 0,
        hand_of=_hand_of(hand, gstate),
        hand_limit=table.rules.hand_limit,
        indicator=public["indicator"] if public else None,
        indicator_taken=indicator_taken,
        okey=b.okey,
        stock_size=public["stock_size"] if public else None,
        over=bool(hand is not None and hand.over),
        turn=turn,
        turn_name=player_name(turn_row.user) if turn_row and turn_row.user_id else "",
        turn_bot=bool(turn_row and turn_row.is_bot),
        commitment=hand.commitment if hand is not None else "",
        start_at=epoch_ms(table.start_at) if table.status == Table.Status.STARTING else None,
        teams=_teams(table, gstate, b.names, table.engine_variant.team_totals),
    )


def seat_fields(table: Table, game, s: Seat, b: BoardBasics, reserved) -> dict:
    """The fields of SeatCommon but the score and the pairs declared, which the families read
    from their own views."""
    public, names = b.public, b.names
    empty = s.user_id is None and not s.is_bot
    on_turn = b.turn == s.index
    teams = names is not None  # the variants with teams (Eşli), and only they
    return {
        "index": s.index,
        "name": player_name(s.user) if s.user_id else "",
        "bot": s.is_bot,
        "bot_strength": (s.bot_strength or table.policy.bot_strength) if s.is_bot else "",
        "empty": empty,
        "reserved": empty and s.index in reserved,
        "away": s.away,
        "manager": s.user_id is not None and s.user_id == table.manager_id,
        "team": "AB"[team_of(s.index)] if teams else None,
        "team_name": names[team_of(s.index)] if teams else "",
        "turn": on_turn,
        # a bot's pause is no clock to watch
        "deadline": epoch_ms(game.deadline) if on_turn and not s.is_bot else None,
        "rack_size": public["rack_sizes"][s.index] if public else None,
        "pile": tuple(public["discards"][s.index]) if public else (),
        "pile_size": public["discard_sizes"][s.index] if public else 0,
        "okey": b.okey,
    }


def _hand_of(hand, gstate) -> int:
    """The hand's place among the game's counted hands. Once a counted hand is over the game's
    state already counts it (the last hand read "9 of 8"); a void hand never counts."""
    played = gstate.hands_played if gstate else 0
    counted = bool(hand is not None and hand.over and gstate and gstate.history)
    return played if counted and not gstate.history[-1].void else played + 1


def _teams(table: Table, gstate, names, team_totals) -> tuple[TeamView, ...] | None:
    if names is None:
        return None
    totals = team_totals(gstate) if gstate is not None else None
    leading = None
    if totals is not None and totals[0] != totals[1]:
        leading = 0 if totals[0] < totals[1] else 1
    return tuple(
        TeamView(
            index=t,
            letter="AB"[t],
            name=names[t],
            custom=bool((table.team_a_name, table.team_b_name)[t]),
            numbers=(t + 1, t + 3),
            total=totals[t] if totals is not None else None,
            leading=leading == t,
        )
        for t in (0, 1)
    )
