"""101's board: every seat with the melds and pairs it laid in front of it, its pile, its rack's
size, its opening and penalties, and the centre (indicator, stock, okey, whose turn, which
hand), as every viewer sees them. Built once per move for everyone at the table; no translated
words, no writes."""

from dataclasses import dataclass

from games.models import Game, Hand, Seat, Table
from games.names import player_name
from games.teams import team_names, team_of
from games.variants.common import epoch_ms
from games.variants.okey.board import CentreView, _hand_of, _teams

FAMILY = "okey101"


@dataclass(frozen=True)
class MeldView:
    """A meld or pair on the table: ``index`` is its place in the table's laying order, which an
    addition names."""

    index: int
    owner: int
    kind: str  # "run" | "set" | "pair"
    tiles: tuple[str, ...]
    stands: tuple[str, ...]  # the tile each one stands for (an okey: the one it replaces)
    value: int
    # the tiles a player may put in place of a real okey of this meld (taking the okey)
    okey_for: tuple[str, ...]


@dataclass(frozen=True)
class SeatView:
    index: int
    name: str
    bot: bool
    bot_strength: str
    empty: bool
    reserved: bool
    away: bool
    manager: bool
    team: str | None
    team_name: str
    count: int | None  # the seat's total in the game (lower is better), once it started
    turn: bool
    deadline: int | None
    rack_size: int | None
    pile: tuple[str, ...]
    pile_size: int
    opened: str  # "none" | "melds" | "pairs"
    opening: int  # the opening's value, or its pairs
    declared_pairs: bool
    penalties: int  # +101 events this hand
    melds: tuple[MeldView, ...]  # what this seat laid, in laying order
    okey: str | None
    # what okey's shared seat parts read (pile history, showing the indicator): never in 101
    histories_public: bool = False
    pile_history: tuple = ()
    showed: bool = False

    @property
    def number(self) -> int:
        return self.index + 1


@dataclass(frozen=True)
class BoardView:
    table_id: int
    version: int
    status: str
    mode: str
    turn_seconds: int
    seats: tuple[SeatView, ...]
    centre: CentreView
    thresholds: tuple[int, int]  # what an opening needs now: (melds value, pairs)
    family: str = FAMILY

    @property
    def n(self) -> int:
        return len(self.seats)


def _melds(public) -> tuple[MeldView, ...]:
    out = []
    for i, m in enumerate(public["table"] if public else ()):
        okey = public["okey"]
        out.append(
            MeldView(
                index=i,
                owner=m["owner"],
                kind=m["kind"],
                tiles=tuple(m["tiles"]),
                stands=tuple(m["stands"]),
                value=m["value"],
                okey_for=tuple(
                    s for t, s in zip(m["tiles"], m["stands"], strict=True) if t == okey
                ),
            )
        )
    return tuple(out)


def board_view(
    table: Table, game: Game, seats, hand: Hand | None, state, gstate, reserved=frozenset()
):
    """The board every viewer shares, from rows already read (no query)."""
    rules = table.engine_variant
    public = rules.view(state, None) if state is not None else None
    options = table.rules
    playing = public is not None and public["phase"] != "over"
    turn = public["turn"] if playing else None
    turn_row = next((s for s in seats if s.index == turn), None)
    names = team_names(table, seats) if rules.team_totals is not None else None
    okey = public["okey"] if public else None
    melds = _melds(public)
    seat_views = tuple(
        _seat_view(table, game, s, public, gstate, turn, reserved, names, okey, melds)
        for s in seats
    )
    centre = CentreView(
        table_id=table.pk,
        status=table.status,
        hand_number=hand.number if hand is not None else None,
        hands_played=gstate.hands_played if gstate else 0,
        hand_of=_hand_of(hand, gstate),
        hand_limit=options.hand_limit,
        indicator=public["indicator"] if public else None,
        indicator_taken=False,
        okey=okey,
        stock_size=public["stock_size"] if public else None,
        over=bool(hand is not None and hand.over),
        turn=turn,
        turn_name=player_name(turn_row.user) if turn_row and turn_row.user_id else "",
        turn_bot=bool(turn_row and turn_row.is_bot),
        commitment=hand.commitment if hand is not None else "",
        start_at=epoch_ms(table.start_at) if table.status == Table.Status.STARTING else None,
        teams=_teams(table, gstate, names, rules.team_totals),
    )
    thresholds = public["thresholds"] if public else {"melds": 101, "pairs": 5}
    return BoardView(
        table_id=table.pk,
        version=game.version,
        status=table.status,
        mode=table.variant,
        turn_seconds=options.turn_seconds,
        seats=seat_views,
        centre=centre,
        thresholds=(thresholds["melds"], thresholds["pairs"]),
    )


def _seat_view(table, game, s: Seat, public, gstate, turn, reserved, names, okey, melds):
    empty = s.user_id is None and not s.is_bot
    on_turn = turn == s.index
    teams = names is not None
    i = s.index
    return SeatView(
        index=i,
        name=player_name(s.user) if s.user_id else "",
        bot=s.is_bot,
        bot_strength=(s.bot_strength or table.policy.bot_strength) if s.is_bot else "",
        empty=empty,
        reserved=empty and i in reserved,
        away=s.away,
        manager=s.user_id is not None and s.user_id == table.manager_id,
        team="AB"[team_of(i)] if teams else None,
        team_name=names[team_of(i)] if teams else "",
        count=gstate.totals[i] if gstate else None,
        turn=on_turn,
        deadline=epoch_ms(game.deadline) if on_turn and not s.is_bot else None,
        rack_size=public["rack_sizes"][i] if public else None,
        pile=tuple(public["discards"][i]) if public else (),
        pile_size=public["discard_sizes"][i] if public else 0,
        opened=public["opened"][i] if public else "none",
        opening=public["openings"][i] if public else 0,
        declared_pairs=bool(public and public["declared"][i]),
        penalties=public["penalties"][i] if public else 0,
        melds=tuple(m for m in melds if m.owner == i),
        okey=okey,
    )
