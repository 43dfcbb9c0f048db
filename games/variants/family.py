"""What the site needs of one family of variants, whatever the game: the record each family's
package fills in (games/variants/okey/, games/variants/okey101/), and the capabilities a variant
may offer (absent: not offered).

A family is the variants that share a table's look: Düz and Eşli Okey are one (the same board,
rack and results; Eşli adds teams), 101 and Eşli 101 another. The table room asks the record and
never the variant: a new game adds a package here and its templates under
templates/games/table/<family>/, not branches in the table's code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine import Variant
from games.variants.result import game_result_view


@dataclass(frozen=True)
class Family:
    name: str  # the folder of its templates: templates/games/table/<name>/
    # (table, game, seats, hand, state, game state, reserved seats) -> the public board
    board_view: Callable[..., Any]
    # (table_id, version, seat row, hand, state) -> one player's own rack and moves
    rack_view: Callable[..., Any]
    rack_class: type  # the rack view's class: a player's group carries it as plain values
    # (table, game, hand, state, board, game state) -> the hand's results, once it is over
    result_view: Callable[..., Any]
    # (the game's stored results, board, practice) -> the game's final places
    game_result_view: Callable[..., Any]
    # a client's move (a mapping from a socket or a form) -> the engine's move dict without
    # its seat, or ServiceError("malformed")
    move_clean: Callable[[Any], dict[str, Any]]
    # (kind, the clean move, the hand before it, seat) -> the tile it shows everyone, or None
    public_tile: Callable[..., str | None]
    # (event, board after) -> what a screen reader says of the move, in the active language
    announcement: Callable[[Any, Any], str]
    # (board before, board after) -> which of the page's parts the move changed: the context
    # of the family's event template
    parts_changed: Callable[[Any, Any], dict[str, Any]]
    # (rack view before or None, after) -> (its tiles changed, its moves changed)
    own_changed: Callable[[Any, Any], tuple[bool, bool]]
    # (the hand before a move, after it, the mover's seat) -> the seats whose own part (rack,
    # moves) the move may have changed: only theirs are built and compared after it
    own_seats: Callable[[Any, Any, int], frozenset[int]]
    # (state, seat, strength) -> a bot's whole turn, the engine's moves
    bot_moves: Callable[[Any, int, str], list]
    # (state, seat, groups of tile codes, pairs) -> the opening tray's running value; None: the
    # family's players open no tray (Düz Okey lays nothing before the finish)
    tray: Callable[..., dict] | None = None


def family_from(board, rack, result, moves, parts, *, tray=None) -> Family:
    """A family from its package's modules, each named after what it shows or does: board.py
    (FAMILY, board_view), rack.py (rack_view, RackView), result.py (result_view), moves.py
    (move_clean, public_tile, announcement, bot_moves), parts.py (parts_changed, own_changed,
    own_seats); ``tray``: the opening tray's value, where its players open one. A game's final
    places are every family's (games.variants.result)."""
    return Family(
        name=board.FAMILY,
        board_view=board.board_view,
        rack_view=rack.rack_view,
        rack_class=rack.RackView,
        result_view=result.result_view,
        game_result_view=game_result_view,
        move_clean=moves.move_clean,
        public_tile=moves.public_tile,
        announcement=moves.announcement,
        parts_changed=parts.parts_changed,
        own_changed=parts.own_changed,
        own_seats=parts.own_seats,
        bot_moves=moves.bot_moves,
        tray=tray,
    )


@dataclass(frozen=True)
class SiteVariant:
    """One game as the site offers it: the engine's rules, the family that shows it, and what
    the site offers at its tables beyond the rules."""

    name: str  # engine.variant(name), Table.variant; games.labels.mode_label names it
    engine: Variant
    family: Family
    hints: bool = False  # a player alone with bots at a practice table may ask for hints
    review: bool = False  # a finished hand has a review page (games.review)
    # the rating its games move (accounts.ratings.RATINGS): Düz and Eşli Okey share the Okey
    # rating, 101 and Eşli 101 the 101 rating
    rating: str = "okey"

    @property
    def teams(self) -> bool:
        """Partners opposite each other, counted together: the table names its two teams."""
        return self.engine.team_totals is not None

    @property
    def bot_strengths(self) -> tuple[str, ...]:
        return self.engine.bot_strengths
