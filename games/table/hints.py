"""Hints in practice games: the judging bot's advice and an arrangement of the rack, for a player
alone with bots at a practice table (``policy.practice``), on their own turn.

Rated games never offer hints, nor does a table where another person plays: advice that one
player may ask for and the others may not is only fair against bots. The advice is worked out by
``engine.hint`` on the hand as the player sees it, so it reveals nothing they cannot see.
Read side: imports no service.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games import engine
from games.models import Hand, Seat, Table


class HintRefused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class HintView:
    seq: int  # the move the hint is for (the moves made so far + 1)
    okey: str
    show: bool
    draw: str | None  # "take", "indicator" or "stock" before the draw
    discard: str | None
    finish: str | None
    groups: tuple[tuple[str, ...], ...]
    leftovers: tuple[str, ...]


def hints_offered(table: Table, seats: Sequence[Seat], user) -> bool:
    """Does ``user`` sit at this practice table with no other person? Before the start the
    other seats may still be empty: bots take them at the start, and no person can sit once
    the game runs."""
    if not table.policy.practice or user is None or not user.is_authenticated:
        return False
    mine = any(s.user_id == user.pk for s in seats)
    return mine and not any(s.user_id not in (None, user.pk) for s in seats)


def _tiles(faces) -> tuple[str, ...]:
    return tuple(engine.format_tile(t) for t in faces)


def hint_for(table_id: int, user) -> HintView:
    """The hint for ``user`` now, or HintRefused with the reason."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise HintRefused(_("There is no such table."))
    seats = list(table.seats.all())
    if not table.policy.practice:
        raise HintRefused(_("Hints are only for practice games: this game is rated."))
    if not hints_offered(table, seats, user):
        raise HintRefused(_("Hints are only for a player alone with bots at a practice table."))
    seat = next(s.index for s in seats if s.user_id == user.pk)
    hand = Hand.objects.filter(game__table=table).order_by("-number").first()
    state = engine.hand_from_dict(hand.state) if hand is not None and not hand.over else None
    if state is None or state.turn != seat or state.over:
        raise HintRefused(_("A hint is for your own turn."))
    h = engine.hint(state, seat)
    return HintView(
        seq=state.seq + 1,
        okey=engine.format_tile(state.okey),
        show=h.show,
        draw=h.draw,
        discard=None if h.discard is None else engine.format_tile(h.discard),
        finish=None if h.finish is None else engine.format_tile(h.finish),
        groups=tuple(_tiles(g) for g in h.groups),
        leftovers=_tiles(h.leftovers),
    )
