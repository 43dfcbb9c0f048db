"""Hints in practice games: the judging bot's advice and an arrangement of the rack, for a player
alone with bots at a practice table (``policy.practice``), on their own turn.

Rated games never offer hints, nor does a table where another person plays: advice that one
player may ask for and the others may not is only fair against bots. The advice is worked out by
``engine.hint`` on the hand as the player sees it, so it reveals nothing they cannot see.

The panel shows the rack as it would be after the suggested throw, not the engine's arrangement
of all fifteen tiles: that is one of several arrangements as good, and the throw, judged on the
fourteen tiles left, may be a tile it put in a meld (the "Y6 out of Y4-5-6" of issue 38). The
one-line reason is measured in what the panel shows: tiles in melds, or pairs.
Read side: imports no service.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.models import Seat, Table
from games.templatetags.okey import tile_label
from games.variants import variant_for


class HintRefused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class HintView:
    seq: int  # the move the hint is for (the moves made so far + 1)
    version: int  # the table's version it was worked out at: any later move makes it stale
    okey: str
    show: bool
    draw: str | None  # "take", "indicator" or "stock" before the draw
    discard: str | None
    finish: str | None
    # The rack as it would be after the suggested throw (before the draw: as it is), arranged:
    # the panel never shows the thrown tile in a meld, since it shows the rack without it.
    groups: tuple[tuple[str, ...], ...]
    leftovers: tuple[str, ...]
    reason: str  # one line: why, in the measure the panel shows (tiles in melds, pairs)


def hints_offered(table: Table, seats: Sequence[Seat], user) -> bool:
    """Does ``user`` sit at this practice table with no other person? Before the start the
    other seats may still be empty: bots take them at the start, and no person can sit once
    the game runs."""
    if not variant_for(table).hints or not table.policy.practice:
        return False
    if user is None or not user.is_authenticated:
        return False
    mine = any(s.user_id == user.pk for s in seats)
    return mine and not any(s.user_id not in (None, user.pk) for s in seats)


def _tiles(faces) -> tuple[str, ...]:
    return tuple(engine.format_tile(t) for t in faces)


def _without(rack: Sequence[int], tile: int) -> list[int]:
    rest = list(rack)
    rest.remove(tile)
    return rest


def _in_melds(rack: Sequence[int], okey: int) -> int:
    """How many of ``rack``'s tiles "Seri diz" puts in melds: the measure the panel shows."""
    groups, _left = engine.arrange_runs(rack, okey)
    return sum(len(g) for g in groups)


def _pairs(rack: Sequence[int], okey: int) -> int:
    groups, _left = engine.arrange_pairs(rack, okey)
    return sum(1 for g in groups if len(g) == 2)


def _arranged(rack: Sequence[int], okey: int, *, finished: bool, for_pairs: bool):
    """The groups and leftovers the panel shows for ``rack``: a finish as it scores (seven
    pairs score more than melds), a rack going for pairs in pairs, any other in melds."""
    if finished and not engine.can_pairs(rack, okey):
        return [list(g) for g in engine.meld_groups(rack, okey)], []
    if finished or for_pairs:
        return engine.arrange_pairs(rack, okey)
    return engine.arrange_runs(rack, okey)


def _draw_reason(state, seat: int, draw: str) -> str:
    rack, okey = state.racks[seat], state.okey
    if draw == "indicator":
        return _("The indicator makes your seventh pair.")
    left = state.discards[(seat - 1) % state.n]
    if draw == "stock":
        if not left:
            return _("There is no discard on your left to take.")
        return _("The left discard would not make your rack better.")
    tile = left[-1]
    if tile == okey:
        return _("The left discard is an okey: it fits in any meld.")
    if any(t != tile for t in engine.finishes([*rack, tile], okey)):
        return _("With the left discard you can finish this turn.")
    more = _in_melds([*rack, tile], okey) - _in_melds(rack, okey)
    if more > 0:
        return ngettext(
            "The left discard puts %(n)d more of your tiles in melds.",
            "The left discard puts %(n)d more of your tiles in melds.",
            more,
        ) % {"n": more}
    if tile in rack:
        return _("The left discard makes a pair with one of your tiles.")
    return _("The bot rates your rack higher with the left discard.")


def _throw_reason(state, seat: int, thrown: int, *, finished: bool, for_pairs: bool) -> str:
    rack, okey = state.racks[seat], state.okey
    rest = _without(rack, thrown)
    if finished:
        if engine.can_pairs(rest, okey):
            return _("Your other 14 tiles make seven pairs.")
        return _("Your other 14 tiles are all in melds.")
    if for_pairs:
        n = _pairs(rest, okey)
        return ngettext(
            "You are going for pairs: %(n)d pair stays on your rack.",
            "You are going for pairs: %(n)d pairs stay on your rack.",
            n,
        ) % {"n": n}
    kept = _in_melds(rest, okey)
    if kept >= _in_melds(rack, okey):
        # "in none of your melds" only when "Seri diz" leaves it out of the melds it shows for
        # the whole rack: 1R 1Y 1B is a meld there even when, without the 1B, the 1R goes into
        # a run and as many tiles stay in melds (issue 42)
        _groups, leftovers = engine.arrange_runs(rack, okey)
        if thrown in leftovers:
            return ngettext(
                "It is in none of your melds: %(kept)d of your 14 tiles stays in melds.",
                "It is in none of your melds: %(kept)d of your 14 tiles stay in melds.",
                kept,
            ) % {"kept": kept}
        return ngettext(
            "Without it your other tiles make melds as good: %(kept)d of your 14 tiles stays "
            "in melds, as the panel shows.",
            "Without it your other tiles make melds as good: %(kept)d of your 14 tiles stay "
            "in melds, as the panel shows.",
            kept,
        ) % {"kept": kept}
    best, other = max((_in_melds(_without(rack, t), okey), -t) for t in set(rack) if t != okey)
    if kept >= best:
        return ngettext(
            "Every throw breaks a meld; this one keeps the most: %(kept)d tile in melds.",
            "Every throw breaks a meld; this one keeps the most: %(kept)d tiles in melds.",
            kept,
        ) % {"kept": kept}
    # the hard bot weighs the tiles still to come, not only the melds on the rack
    return ngettext(
        "It keeps %(kept)d tile in melds (%(tile)s would keep %(best)d): the bot also "
        "weighs the tiles still to come.",
        "It keeps %(kept)d tiles in melds (%(tile)s would keep %(best)d): the bot also "
        "weighs the tiles still to come.",
        kept,
    ) % {"kept": kept, "best": best, "tile": tile_label(engine.format_tile(-other))}


def hint_for(table_id: int, user) -> HintView:
    """The hint for ``user`` now, or HintRefused with the reason."""
    table = Table.objects.select_related("game").filter(pk=table_id).first()
    if table is None:
        raise HintRefused(_("There is no such table."))
    seats = list(table.seats.all())
    if not table.policy.practice:
        raise HintRefused(_("Hints are only for practice games: this game is rated."))
    if not variant_for(table).hints:
        raise HintRefused(_("This game has no hints yet."))
    if not hints_offered(table, seats, user):
        raise HintRefused(_("Hints are only for a player alone with bots at a practice table."))
    seat = next(s.index for s in seats if s.user_id == user.pk)
    hand = table.game.latest_hand()
    state = engine.hand_from_dict(hand.state) if hand is not None and not hand.over else None
    if state is None or state.turn != seat or state.over:
        raise HintRefused(_("A hint is for your own turn."))
    return hint_view(state, seat, table.game.version)


def hint_view(state: engine.HandState, seat: int, version: int) -> HintView:
    """The hint for ``seat``, on its turn in ``state`` (the table at ``version``)."""
    h = engine.hint(state, seat)
    thrown = h.finish if h.finish is not None else h.discard
    finished = h.finish is not None
    for_pairs = seat in state.pairs_declared
    if thrown is None:
        rack = state.racks[seat]
        reason = _draw_reason(state, seat, h.draw)
    else:
        rack = _without(state.racks[seat], thrown)
        reason = _throw_reason(state, seat, thrown, finished=finished, for_pairs=for_pairs)
    groups, leftovers = _arranged(rack, state.okey, finished=finished, for_pairs=for_pairs)
    return HintView(
        seq=state.seq + 1,
        version=version,
        okey=engine.format_tile(state.okey),
        show=h.show,
        draw=h.draw,
        discard=None if h.discard is None else engine.format_tile(h.discard),
        finish=None if h.finish is None else engine.format_tile(h.finish),
        groups=tuple(_tiles(g) for g in groups),
        leftovers=_tiles(leftovers),
        reason=reason,
    )
