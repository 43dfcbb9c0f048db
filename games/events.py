"""What a committed change tells the table: the facts, before anything is rendered.

A move's event says what happened ("seat 2 took R7 from seat 1's pile") and carries the public
board before and after it, so that the renderer can send only what changed, and each seated
player's own view where it changed. It never carries a tile that is not public: a draw names no
tile. A change of the table's life (a seat taken, the start, a deal, a hand's end) is a
``TableChanged``: each page then shows its viewer's whole table again.
"""

from dataclasses import dataclass

from django.conf import settings

from games import engine, selectors
from games.selectors import BoardView, RackView


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
class TableChanged:
    table_id: int
    version: int


def _public_tile(kind: str, tile: str | None, state: engine.HandState, seat: int) -> str | None:
    """The tile a move shows everyone: the one discarded or finished with, or the top of the
    left pile that was taken. A draw shows none: the stock is secret."""
    if kind in ("discard", "finish"):
        return tile
    if kind == "take":
        return engine.format_tile(state.discards[(seat - 1) % state.n][-1])
    return None


def own_views(table_id: int, version: int, seats, hand, state) -> dict:
    """Each seated person's own view of ``state``: seat -> (user id, RackView)."""
    return {
        s.index: (s.user_id, selectors.rack_view(table_id, version, s, hand, state))
        for s in seats
        if s.user_id is not None
    }


def player_language(user) -> str:
    """The language of a player's profile: the one their tabs almost always show."""
    lang = getattr(getattr(user, "profile", None), "language", None)
    return lang if lang in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def _own_changed(languages: dict, before: dict, after: dict) -> tuple[OwnView, ...]:
    """The players whose tiles or moves changed (the version aside)."""
    out = []
    for index, (user_id, view) in after.items():
        old = before[index][1] if index in before else None
        tiles = old is None or (old.hand_id, old.tiles, old.drawn) != (
            view.hand_id,
            view.tiles,
            view.drawn,
        )
        moves = old is None or (old.can, old.phase, old.away) != (view.can, view.phase, view.away)
        if tiles or moves:
            out.append(
                OwnView(
                    user_id=user_id,
                    rack=view,
                    tiles_changed=tiles,
                    moves_changed=moves,
                    lang=languages[index],
                )
            )
    return tuple(out)


def move_event(*, table, game, seats, hand, gstate, before, own_before, state, new, seat, kind,
               tile) -> MoveEvent:  # fmt: skip
    """The event of a move just applied: ``before`` and ``own_before`` are the board and the
    players' own views as they were (``board_before``), the rows as the move left them."""
    return MoveEvent(
        table_id=table.pk,
        version=game.version,
        seat=seat,
        kind=kind,
        tile=_public_tile(kind, tile, state, seat),
        before=before,
        after=selectors.board_view(table, game, seats, hand, new, gstate),
        own=_own_changed(
            {s.index: player_language(s.user) for s in seats if s.user_id is not None},
            own_before,
            own_views(table.pk, game.version, seats, hand, new),
        ),
    )


def board_before(*, table, game, seats, hand, gstate, state) -> tuple[BoardView, dict]:
    """The board and the players' own views before a move, to compare with after it."""
    return (
        selectors.board_view(table, game, seats, hand, state, gstate),
        own_views(table.pk, game.version, seats, hand, state),
    )
