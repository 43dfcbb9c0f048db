"""101's board: every seat with the melds and pairs it laid in front of it, its pile, its rack's
size, its opening and penalties, and the centre (indicator, stock, okey, whose turn, which hand:
games.variants.board's, as every family's), as every viewer sees them. Built once per move for
everyone at the table; no translated words, no writes."""

from dataclasses import dataclass

from games.models import Game, Hand, Seat, Table
from games.variants import board as shared

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
class SeatView(shared.SeatCommon):
    """A seat with what it laid, its opening and its penalties; ``count`` is its total in the
    game (lower is better)."""

    opened: str  # "none" | "melds" | "pairs"
    opening: int  # the opening's value, or its pairs
    penalties: int  # +101 events this hand
    melds: tuple[MeldView, ...]  # what this seat laid, in laying order
    # what okey's shared seat parts read (pile history, showing the indicator): never in 101
    histories_public: bool = False
    pile_history: tuple = ()
    showed: bool = False


@dataclass(frozen=True)
class BoardView(shared.BoardCommon):
    thresholds: tuple[int, int]  # what an opening needs now: (melds value, pairs)
    family: str = FAMILY


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
    public = table.engine_variant.view(state, None) if state is not None else None
    b = shared.board_basics(table, seats, public)
    melds = _melds(public)
    thresholds = public["thresholds"] if public else {"melds": 101, "pairs": 5}
    return BoardView(
        **shared.board_fields(table, game),
        seats=tuple(_seat_view(table, game, s, b, gstate, reserved, melds) for s in seats),
        centre=shared.centre_view(table, seats, hand, gstate, b, indicator_taken=False),
        thresholds=(thresholds["melds"], thresholds["pairs"]),
    )


def _seat_view(table, game, s: Seat, b: shared.BoardBasics, gstate, reserved, melds) -> SeatView:
    public, i = b.public, s.index
    return SeatView(
        **shared.seat_fields(table, game, s, b, reserved),
        count=gstate.totals[i] if gstate else None,
        opened=public["opened"][i] if public else "none",
        opening=public["openings"][i] if public else 0,
        declared_pairs=bool(public and public["declared"][i]),
        penalties=public["penalties"][i] if public else 0,
        melds=tuple(m for m in melds if m.owner == i),
    )
