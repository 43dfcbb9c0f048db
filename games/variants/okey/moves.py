"""A Düz or Eşli move as the site takes it in and tells it: the client's part of it cleaned
(its kind and, for a discard or a finish, the tile), the tile it shows everyone, and the line a
screen reader says."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import engine
from games.errors import ServiceError
from games.templatetags.okey import tile_label

MOVE_KINDS = ("draw", "take", "discard", "finish", "show", "pairs", "take_indicator")


def _malformed(detail=None) -> ServiceError:
    return ServiceError("malformed", detail or gettext_lazy("That message is not a move."))


def move_clean(move) -> dict:
    """The client's part of a move: its kind and, for discard and finish, the tile."""
    if not isinstance(move, dict) or move.get("kind") not in MOVE_KINDS:
        raise _malformed()
    clean = {"kind": move["kind"]}
    if move["kind"] in ("discard", "finish"):
        tile = move.get("tile")
        if not isinstance(tile, str) or not 1 <= len(tile) <= 3:
            raise _malformed(gettext_lazy("Choose a tile for that move."))
        clean["tile"] = tile
    return clean


def public_tile(kind: str, move: dict, state: engine.HandState, seat: int) -> str | None:
    """The tile a move shows everyone: the one discarded or finished with, or the top of the
    left pile that was taken. A draw shows none: the stock is secret."""
    if kind in ("discard", "finish"):
        return move.get("tile") or None
    if kind == "take":
        return engine.format_tile(state.discards[(seat - 1) % state.n][-1])
    return None


def bot_moves(state: engine.HandState, seat: int, strength: str) -> list:
    """A bot's whole turn at ``strength``: it shows the indicator, finishes when it can."""
    return engine.bot_moves(state, seat, strength)


def announcement(event, board) -> str:
    """What a screen reader says, and the log line shows: "Can discarded red 7"."""
    seat = board.seats[event.seat]
    name = _("Bot %(n)d") % {"n": seat.number} if seat.bot else seat.name
    okey = board.centre.okey
    tile = tile_label(event.tile, okey) if event.tile else ""
    text = {
        "draw": _("%(name)s drew from the stock"),
        "take": _("%(name)s took %(tile)s from the left"),
        "discard": _("%(name)s discarded %(tile)s"),
        "finish": _("%(name)s finished with %(tile)s"),
        "show": _("%(name)s showed the indicator"),
        "pairs": _("%(name)s declared pairs"),
        "take_indicator": _("%(name)s took the indicator"),
    }[event.kind]
    return text % {"name": name, "tile": tile}
