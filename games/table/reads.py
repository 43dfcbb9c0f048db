"""The read side of a table: what one viewer may see of it, as frozen view dataclasses, and what
a move tells the table.

The board, a player's rack and a hand's results are the variant's (games.variants: each family
builds its own views from the engine's ``view(state, seat)``, which holds only that seat's
tiles); this module puts them together for one viewer: where each seat sits on their screen
(``TableView.places``), whether they manage the table, its invites. The seed is shown only once
its hand is over.

Views hold no translated words (a bot's name, a move's label): the renderer puts those in, in
each viewer's language, so one view serves every language. Nothing here writes, and nothing here
imports a service.
"""

from dataclasses import dataclass
from typing import Any

from games.models import Game, Hand, Move, Seat, Table
from games.table.reservations import invites_panel, seats_reserved
from games.variants import family_named, variant_for

# Where each seat sits on the viewer's screen, counting from the viewer (offset 0) in turn
# order: the next player is on the right, the previous one (whose pile we take) on the left.
POSITIONS = {
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
}


# A player discards to their own right; seen from the viewer that is this corner.
PILE_CORNER = {"bottom": "br", "right": "tr", "top": "tl", "left": "bl"}


@dataclass(frozen=True)
class Place:
    """Where a seat and its pile sit on one viewer's screen."""

    seat: Any  # the family's seat view
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
    points = table.engine_variant.leaver_points(table.rules) if rated else 0
    return LeaveView(rated=rated, points=points, then=then)


@dataclass(frozen=True)
class TableView:
    """The whole table page for one viewer (a player, a spectator or anonymous)."""

    # the family's views (games.variants.<family>): the board, and below the viewer's own rack,
    # the hand's results once it is over and the game's once it is
    board: Any
    places: tuple[Place, ...]
    me: int | None
    signed_in: bool
    is_manager: bool
    options: dict
    rack: Any | None
    result: Any | None
    game_result: Any | None
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
    state: Any | None  # the engine's state of the hand (hand_shown)
    gstate: Any | None  # and of the game
    reserved: frozenset[int]


def seat_rows(table: Table) -> list[Seat]:
    return list(table.seats.select_related("user", "user__profile").order_by("index"))


def current_hand(table: Table) -> Hand | None:
    return table.game.latest_hand()


def hand_shown(hand: Hand | None, rules) -> Any | None:
    """A hand's state as players see it: one the staff stopped is shown over, as void.
    ``rules``: the table's ``engine_variant``."""
    if hand is None:
        return None
    state = rules.hand_from_dict(hand.state)
    if hand.over and state.phase != "over":
        state = rules.hand_void(state)
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
        state=hand_shown(hand, table.engine_variant),
        gstate=table.engine_variant.game_from_dict(game.state) if game.state else None,
        reserved=reserved,
    )


def viewer_seat(seats, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((s.index for s in seats if s.user_id == user.pk), None)


def places_for(board, me: int | None, *, teams: bool = False) -> tuple[Place, ...]:
    """``teams``: the variant has teams (Eşli), whose partners sit opposite each other."""
    n = board.n
    origin = me if me is not None else 0
    out = []
    for s in board.seats:
        position = POSITIONS[n][(s.index - origin) % n]
        partner = teams and me is not None and (s.index - me) % 4 == 2
        out.append(Place(seat=s, position=position, corner=PILE_CORNER[position], partner=partner))
    return tuple(out)


def table_view(rows: TableRows, user) -> TableView:
    """Everything the table page shows to ``user``."""
    table, game, seats, hand, state = rows.table, rows.game, rows.seats, rows.hand, rows.state
    game_variant = variant_for(table)
    family = game_variant.family
    board = family.board_view(table, game, seats, hand, state, rows.gstate, rows.reserved)
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
    rack = None
    if me is not None:
        rack = family.rack_view(table.pk, game.version, seats[me], hand, state)
    result = None
    if hand is not None and hand.over and state is not None:
        result = family.result_view(table, game, hand, state, board, rows.gstate)
    game_result = None
    if game.results:
        game_result = family.game_result_view(game.results, board, policy.practice)
    invites = None
    if is_manager:
        invites = invites_panel(table, user, [_seat_row(s) for s in board.seats])
    return TableView(
        board=board,
        places=places_for(board, me, teams=game_variant.teams),
        me=me,
        signed_in=signed_in,
        is_manager=is_manager,
        # what the page says of the table: its rules and policy, defaults filled in
        options={**table.rules.to_dict(), **policy.to_dict()},
        rack=rack,
        result=result,
        game_result=game_result,
        results_pending=game.status == Game.Status.OVER and not game.results,
        can_start=can_start,
        bots_fill=bots_fill,
        invites=invites,
        leave=leave_view(table, seats, me),
        tournament_id=table.tournament_id,
    )


def _seat_row(s) -> dict:
    """The seat as the invites panel reads it."""
    return {
        "index": s.index,
        "number": s.number,
        "empty": s.empty,
        "reserved": s.reserved,
        "is_manager": s.manager,
    }


# ---- what a change tells the table -----------------------------------------------------


@dataclass(frozen=True)
class OwnView:
    """A seated player's own part after a move, addressed to that player alone."""

    user_id: int
    rack: Any  # the family's rack view
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
        return cls(**{**data, "rack": family_named(rack["family"]).rack_class(**rack)})


@dataclass(frozen=True)
class MoveEvent:
    table_id: int
    version: int
    seat: int
    kind: str
    tile: str | None  # a tile everyone may now see (discarded, taken from a pile, finished)
    before: Any  # the family's board views
    after: Any
    parts: dict  # which of the page's parts differ between them (the family's parts_changed)
    own: tuple[OwnView, ...]  # the players whose rack or moves changed
    detail: dict | None = None  # what else the move carried (Move.detail: 101's meld, groups)


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
    before: Any | None = None  # the engine's state of the hand before the move
    state: Any | None = None  # and after it
    table: Table | None = None
    game: Game | None = None  # as the move left it
    game_before: Game | None = None  # its version and deadline before the move
    hand: Hand | None = None
    seats: tuple[Seat, ...] = ()  # as the move left them
    seats_before: tuple[Seat, ...] = ()  # the mover's row as it was (their away flag)
