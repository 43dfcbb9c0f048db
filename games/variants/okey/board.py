"""Düz and Eşli Okey's board: every seat with its discard pile, and the centre (indicator,
stock, okey, whose turn, which hand), as every viewer sees them.

A table's board is public: it is built once per move (``board_view``) and rendered once for
everyone at the table. Views hold no translated words: the renderer puts those in, in each
viewer's language. Nothing here writes.
"""

from dataclasses import dataclass

from games import engine
from games.models import Game, Hand, Seat, Table
from games.names import player_name
from games.teams import team_names, team_of
from games.variants.common import epoch_ms

FAMILY = "okey"


@dataclass(frozen=True)
class SeatView:
    """One seat and its discard pile, as every viewer sees them."""

    index: int
    name: str  # a person's display name; "" for a bot or an empty seat (the renderer names bots)
    bot: bool
    bot_strength: str  # how a bot plays (engine.BOT_STRENGTHS); "" for a person or an empty seat
    empty: bool
    reserved: bool  # an invite keeps it for someone
    away: bool
    manager: bool
    team: str | None  # "A" or "B" at an Eşli table
    team_name: str
    count: int | None  # the seat's count in the game, once it started
    turn: bool
    deadline: int | None  # epoch ms when a person's turn runs out; only on the seat on turn
    rack_size: int | None
    pile: tuple[str, ...]  # the top tile, or the whole pile once histories are public
    pile_size: int
    histories_public: bool
    # once histories are public: every tile the seat threw but the top of its pile, oldest first,
    # each with whether the next player took it
    pile_history: tuple[tuple[str, bool], ...]
    declared_pairs: bool
    showed: bool
    okey: str | None
    # the person's account, for the link to their profile (follow, block, report); None for a
    # bot or an empty seat
    user_id: int | None = None

    @property
    def number(self) -> int:
        return self.index + 1


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
class BoardView:
    """Everything public about a table at one version."""

    table_id: int
    version: int
    status: str
    mode: str
    turn_seconds: int
    seats: tuple[SeatView, ...]
    centre: CentreView
    family: str = FAMILY  # whose templates show it (games/table/<family>/)

    @property
    def n(self) -> int:
        return len(self.seats)


def _hand_of(hand: Hand | None, gstate: engine.GameState | None) -> int:
    """The hand's place among the game's counted hands. Once a counted hand is over the game's
    state already counts it (the last hand read "9 of 8"); a void hand never counts."""
    played = gstate.hands_played if gstate else 0
    counted = bool(hand is not None and hand.over and gstate and gstate.history)
    return played if counted and not gstate.history[-1].void else played + 1


def board_view(
    table: Table,
    game: Game,
    seats,
    hand: Hand | None,
    state: engine.HandState | None,
    gstate: engine.GameState | None,
    reserved=frozenset(),
) -> BoardView:
    """The board every viewer shares, from rows already read (no query)."""
    public = engine.hand_view(state, None) if state is not None else None
    rules = table.rules
    playing = public is not None and public["phase"] != "over"
    turn = public["turn"] if playing else None
    turn_row = next((s for s in seats if s.index == turn), None)
    game_rules = table.engine_variant
    # the variants with teams (Eşli), and only they, name them
    names = team_names(table, seats) if game_rules.team_totals is not None else None
    okey = public["okey"] if public else None
    seat_views = tuple(
        _seat_view(table, game, s, public, gstate, turn, reserved, names, okey) for s in seats
    )
    centre = CentreView(
        table_id=table.pk,
        status=table.status,
        hand_number=hand.number if hand is not None else None,
        hands_played=gstate.hands_played if gstate else 0,
        hand_of=_hand_of(hand, gstate),
        hand_limit=rules.hand_limit,
        indicator=public["indicator"] if public else None,
        indicator_taken=bool(public and public["indicator_taken_by"] is not None),
        okey=okey,
        stock_size=public["stock_size"] if public else None,
        over=bool(hand is not None and hand.over),
        turn=turn,
        turn_name=player_name(turn_row.user) if turn_row and turn_row.user_id else "",
        turn_bot=bool(turn_row and turn_row.is_bot),
        commitment=hand.commitment if hand is not None else "",
        start_at=epoch_ms(table.start_at) if table.status == Table.Status.STARTING else None,
        teams=_teams(table, gstate, names, game_rules.team_totals),
    )
    return BoardView(
        table_id=table.pk,
        version=game.version,
        status=table.status,
        mode=table.variant,
        turn_seconds=rules.turn_seconds,
        seats=seat_views,
        centre=centre,
    )


def _seat_view(table, game, s: Seat, public, gstate, turn, reserved, names, okey) -> SeatView:
    empty = s.user_id is None and not s.is_bot
    on_turn = turn == s.index
    teams = names is not None  # the variants with teams (Eşli), and only they
    return SeatView(
        index=s.index,
        name=player_name(s.user) if s.user_id else "",
        bot=s.is_bot,
        bot_strength=(s.bot_strength or table.policy.bot_strength) if s.is_bot else "",
        empty=empty,
        reserved=empty and s.index in reserved,
        away=s.away,
        manager=s.user_id is not None and s.user_id == table.manager_id,
        team="AB"[team_of(s.index)] if teams else None,
        team_name=names[team_of(s.index)] if teams else "",
        count=gstate.counts[s.index] if gstate else None,
        turn=on_turn,
        # a bot's pause is no clock to watch
        deadline=epoch_ms(game.deadline) if on_turn and not s.is_bot else None,
        rack_size=public["rack_sizes"][s.index] if public else None,
        pile=tuple(public["discards"][s.index]) if public else (),
        pile_size=public["discard_sizes"][s.index] if public else 0,
        histories_public=bool(public and public["histories_public"]),
        pile_history=_pile_history(public, s.index),
        declared_pairs=bool(public and s.index in public["pairs_declared"]),
        showed=bool(public and public["shown_by"] == s.index),
        okey=okey,
        user_id=s.user_id if not s.is_bot else None,
    )


def _pile_history(public, seat: int) -> tuple[tuple[str, bool], ...]:
    history = (public or {}).get("discard_histories")
    if not history:
        return ()
    entries = [(tile, taken) for tile, taken in history[seat]]
    top = max((i for i, (_, taken) in enumerate(entries) if not taken), default=None)
    return tuple(e for i, e in enumerate(entries) if i != top)


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
