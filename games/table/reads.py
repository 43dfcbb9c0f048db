"""The read side: what one viewer may see of a table, as frozen view dataclasses.

A table's board is public: every seat, pile and the centre look the same to every viewer, so a
move's board is built once (``board_view``) and rendered once for everyone at the table. What
depends on the viewer is kept apart: their rack and the moves they may make (``rack_view``, from
``engine.hand_view(state, seat)``, which holds only that seat's tiles), and where each seat sits
on their screen (``TableView.places``). The seed is shown only once its hand is over.

Views hold no translated words (a bot's name, a move's label): the renderer puts those in, in
each viewer's language, so one view serves every language. Nothing here writes, and nothing here
imports a service.
"""

from dataclasses import dataclass

from games import engine
from games.models import ChatMessage, Game, Hand, Move, Seat, Table
from games.names import player_name
from games.table import teams
from games.table.invites import invites_panel, seats_reserved
from games.table.teams import team_deltas, team_of

# Where each seat sits on the viewer's screen, counting from the viewer (offset 0) in turn
# order: the next player is on the right, the previous one (whose pile we take) on the left.
POSITIONS = {
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
}


# A player discards to their own right; seen from the viewer that is this corner.
PILE_CORNER = {"bottom": "br", "right": "tr", "top": "tl", "left": "bl"}


def epoch_ms(dt) -> int | None:
    return None if dt is None else int(dt.timestamp() * 1000)


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

    @property
    def n(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class RackView:
    """One seated player's own part: their tiles and the moves they may make now."""

    table_id: int
    version: int
    seat: int
    hand_id: int | None
    tiles: tuple[str, ...]
    okey: str | None
    phase: str | None
    drawn: str | None
    can: tuple[str, ...]
    away: bool


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


@dataclass(frozen=True)
class Place:
    """Where a seat and its pile sit on one viewer's screen."""

    seat: SeatView
    position: str
    corner: str
    partner: bool  # Eşli: the viewer's partner, opposite them


@dataclass(frozen=True)
class LeaveView:
    """What leaving the running game does to the player who asks (docs/rules.md, "Leaving a
    rated game"): the page says it before they confirm."""

    rated: bool
    points: int  # the leaver's rating points (negative) in a rated game, else 0
    then: str  # "bot" or "timeouts" play the seat on; "ends": nobody else is left, it ends now

    @property
    def cost(self) -> int:
        return -self.points


def leave_view(table: Table, seats, me: int | None) -> LeaveView | None:
    """For the player seated at ``me`` while the game runs; None for anyone else."""
    if me is None or table.status != Table.Status.PLAYING:
        return None
    policy = table.policy
    rated = not policy.practice
    others = any(s.user_id is not None for s in seats if s.index != me)
    then = ("bot" if policy.bots_fill else "timeouts") if others else "ends"
    points = engine.game_leaver_points(table.rules) if rated else 0
    return LeaveView(rated=rated, points=points, then=then)


@dataclass(frozen=True)
class TableView:
    """The whole table page for one viewer (a player, a spectator or anonymous)."""

    board: BoardView
    places: tuple[Place, ...]
    me: int | None
    signed_in: bool
    is_manager: bool
    options: dict
    rack: RackView | None
    result: ResultView | None
    game_result: GameResultView | None
    results_pending: bool
    can_start: bool
    bots_fill: bool
    invites: dict | None
    leave: LeaveView | None = None  # the seated player's "Leave the game", while it runs
    tournament_id: int | None = None  # an arena's table: its game ends back at the arena

    @property
    def version(self) -> int:
        return self.board.version

    @property
    def table_id(self) -> int:
        return self.board.table_id

    @property
    def spectator(self) -> bool:
        return self.me is None


@dataclass(frozen=True)
class TableRows:
    """The rows a table's views are made of, read at one version."""

    table: Table
    game: Game
    seats: tuple[Seat, ...]
    hand: Hand | None
    state: engine.HandState | None
    gstate: engine.GameState | None
    reserved: frozenset[int]


def seat_rows(table: Table) -> list[Seat]:
    return list(table.seats.select_related("user", "user__profile").order_by("index"))


def current_hand(table: Table) -> Hand | None:
    return Hand.objects.filter(game__table=table).order_by("-number").first()


def hand_shown(hand: Hand | None) -> engine.HandState | None:
    """A hand's state as players see it: one the staff stopped is shown over, as void."""
    if hand is None:
        return None
    state = engine.hand_from_dict(hand.state)
    if hand.over and state.phase != "over":
        state = engine.hand_void(state)
    return state


def table_rows(table_id: int) -> TableRows | None:
    table = Table.objects.select_related("game").filter(pk=table_id).first()
    if table is None:
        return None
    hand = current_hand(table)
    game = table.game
    reserved = (
        frozenset(seats_reserved(table)) if table.status == Table.Status.OPEN else frozenset()
    )
    return TableRows(
        table=table,
        game=game,
        seats=tuple(seat_rows(table)),
        hand=hand,
        state=hand_shown(hand),
        gstate=engine.game_from_dict(game.state) if game.state else None,
        reserved=reserved,
    )


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
    team_names = teams.team_names(table, seats) if rules.mode == "esli" else None
    okey = public["okey"] if public else None
    seat_views = tuple(
        _seat_view(table, game, s, public, gstate, turn, reserved, team_names, okey) for s in seats
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
        teams=_teams(table, gstate, team_names),
    )
    return BoardView(
        table_id=table.pk,
        version=game.version,
        status=table.status,
        mode=rules.mode,
        turn_seconds=rules.turn_seconds,
        seats=seat_views,
        centre=centre,
    )


def _seat_view(table, game, s: Seat, public, gstate, turn, reserved, team_names, okey) -> SeatView:
    empty = s.user_id is None and not s.is_bot
    on_turn = turn == s.index
    esli = team_names is not None  # Eşli tables, and only they, have teams
    return SeatView(
        index=s.index,
        name=player_name(s.user) if s.user_id else "",
        bot=s.is_bot,
        bot_strength=(s.bot_strength or table.policy.bot_strength) if s.is_bot else "",
        empty=empty,
        reserved=empty and s.index in reserved,
        away=s.away,
        manager=s.user_id is not None and s.user_id == table.manager_id,
        team="AB"[team_of(s.index)] if esli else None,
        team_name=team_names[team_of(s.index)] if esli else "",
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
    )


def _pile_history(public, seat: int) -> tuple[tuple[str, bool], ...]:
    history = (public or {}).get("discard_histories")
    if not history:
        return ()
    entries = [(tile, taken) for tile, taken in history[seat]]
    top = max((i for i, (_, taken) in enumerate(entries) if not taken), default=None)
    return tuple(e for i, e in enumerate(entries) if i != top)


def _teams(table: Table, gstate, names) -> tuple[TeamView, ...] | None:
    if names is None:
        return None
    totals = engine.team_totals(gstate) if gstate is not None else None
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


def rack_view(
    table_id: int, version: int, seat: Seat, hand: Hand | None, state: engine.HandState | None
) -> RackView:
    """The seat's own tiles and moves: only ever sent to that seat's player."""
    view = engine.hand_view(state, seat.index) if state is not None else None
    return RackView(
        table_id=table_id,
        version=version,
        seat=seat.index,
        hand_id=hand.pk if hand is not None else None,
        tiles=tuple(view["rack"]) if view else (),
        okey=view["okey"] if view else None,
        # the phase is the player's only while they may move: others' moves leave it alone
        phase=view["phase"] if view and view["can"] else None,
        drawn=view["drawn"] if view else None,
        can=tuple(view["can"]) if view else (),
        away=seat.away,
    )


def viewer_seat(seats, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s.index for s in seats if s.user_id == user.pk), None)


def places_for(board: BoardView, me: int | None) -> tuple[Place, ...]:
    n = board.n
    origin = me if me is not None else 0
    out = []
    for s in board.seats:
        position = POSITIONS[n][(s.index - origin) % n]
        partner = board.mode == "esli" and me is not None and (s.index - me) % 4 == 2
        out.append(Place(seat=s, position=position, corner=PILE_CORNER[position], partner=partner))
    return tuple(out)


def table_view(rows: TableRows, user) -> TableView:
    """Everything the table page shows to ``user``."""
    table, game, seats, hand, state = rows.table, rows.game, rows.seats, rows.hand, rows.state
    board = board_view(table, game, seats, hand, state, rows.gstate, rows.reserved)
    me = viewer_seat(seats, user)
    signed_in = bool(user is not None and user.is_authenticated)
    is_manager = signed_in and user.pk == table.manager_id
    policy = table.policy
    bots_fill = policy.bots_fill
    can_start = (
        table.status == Table.Status.OPEN
        and (bots_fill or all(s.user_id or s.is_bot for s in seats))
        and not any(s.reserved for s in board.seats)
    )
    rack = rack_view(table.pk, game.version, seats[me], hand, state) if me is not None else None
    result = None
    if hand is not None and hand.over and state is not None:
        result = result_view(table, game, hand, state, board, rows.gstate)
    invites = None
    if is_manager:
        invites = invites_panel(table, user, [_seat_row(s) for s in board.seats])
    return TableView(
        board=board,
        places=places_for(board, me),
        me=me,
        signed_in=signed_in,
        is_manager=is_manager,
        # what the page says of the table: its rules and policy, defaults filled in
        options={**table.rules.to_dict(), **policy.to_dict()},
        rack=rack,
        result=result,
        game_result=_game_result(game.results, board, policy.practice) if game.results else None,
        results_pending=game.status == Game.Status.OVER and not game.results,
        can_start=can_start,
        bots_fill=bots_fill,
        invites=invites,
        leave=leave_view(table, seats, me),
        tournament_id=table.tournament_id,
    )


def _seat_row(s: SeatView) -> dict:
    """The seat as the invites panel reads it."""
    return {
        "index": s.index,
        "number": s.number,
        "empty": s.empty,
        "reserved": s.reserved,
        "is_manager": s.manager,
    }


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


def _game_result(results: dict, board: BoardView, practice: bool) -> GameResultView:
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


# ---- what a change tells the table -----------------------------------------------------


@dataclass(frozen=True)
class OwnView:
    """A seated player's own part after a move, addressed to that player alone."""

    user_id: int
    rack: RackView
    tiles_changed: bool
    moves_changed: bool
    lang: str  # the player's language (their profile's): the one their tabs almost always show

    def to_message(self) -> dict:
        """Plain values for the channel layer: a tab in another language renders from them.
        Every field of the view is a plain value or a tuple of them, so a shallow copy does
        what ``asdict`` does, without its deep copy of every tuple."""
        return {**vars(self), "rack": dict(vars(self.rack))}

    @classmethod
    def from_message(cls, data: dict) -> "OwnView":
        # the layer's msgpack turns tuples into lists
        rack = {k: tuple(v) if isinstance(v, list) else v for k, v in data["rack"].items()}
        return cls(**{**data, "rack": RackView(**rack)})


@dataclass(frozen=True)
class MoveEvent:
    table_id: int
    version: int
    seat: int
    kind: str
    tile: str | None  # a tile everyone may now see (discarded, taken from a pile, finished)
    before: BoardView
    after: BoardView
    own: tuple[OwnView, ...]  # the players whose rack or moves changed


@dataclass(frozen=True)
class MoveOutcome:
    """What ``move_submit`` committed: the move, the hand before and after it, and the rows it
    read and wrote, from which the pages' views are built after the commit without a query.
    A retry of a move already applied (``duplicate``) carries only the first answer's numbers."""

    version: int  # the table's version right after the move
    seq: int  # the move's place in its hand's log
    hand_number: int
    hand_over: bool = False
    game_over: bool = False
    duplicate: bool = False
    move: Move | None = None
    before: engine.HandState | None = None  # the hand before the move
    state: engine.HandState | None = None  # and after it
    table: Table | None = None
    game: Game | None = None  # as the move left it
    game_before: Game | None = None  # its version and deadline before the move
    hand: Hand | None = None
    seats: tuple[Seat, ...] = ()  # as the move left them
    seats_before: tuple[Seat, ...] = ()  # the mover's row as it was (their away flag)


# ---- chat -----------------------------------------------------------------------------


CHAT_SHOWN = 40


@dataclass(frozen=True)
class ChatLine:
    id: int
    author: int
    name: str
    text: str
    time: object


def chat_lines(table_id: int) -> tuple[ChatLine, ...]:
    messages = list(
        ChatMessage.objects.filter(table_id=table_id)
        .select_related("user", "user__profile")
        .order_by("-created", "-id")[:CHAT_SHOWN]
    )
    return tuple(chat_line(m) for m in reversed(messages))


def chat_line(m: ChatMessage) -> ChatLine:
    return ChatLine(
        id=m.pk, author=m.user_id, name=player_name(m.user), text=m.text, time=m.created
    )
