"""A 101 move as the site takes it in and tells it: the client's part of it cleaned (its kind
and what that kind carries: a tile, groups, a meld, a side), the tile it shows everyone, the
line a screen reader says, and a bot's turn."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import format_tile, variant_of
from games.errors import ServiceError
from games.templatetags.okey import tile_label

MOVE_KINDS = ("draw", "take", "give_back", "pairs", "lay", "add", "take_okey", "discard")

# the most tiles a move may carry: a rack's 22
_MOST = 22


def _malformed(detail=None) -> ServiceError:
    return ServiceError("malformed", detail or gettext_lazy("That message is not a move."))


def _tile(value) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= 3:
        raise _malformed(gettext_lazy("Choose a tile for that move."))
    return value


def _index(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1000:
        raise _malformed(gettext_lazy("Choose a meld on the table."))
    return value


def move_clean(move) -> dict:
    """The client's part of a 101 move, in the engine's dict form without the seat: malformed
    input is refused here, the rules' checks are the engine's."""
    if not isinstance(move, dict) or move.get("kind") not in MOVE_KINDS:
        raise _malformed()
    kind = move["kind"]
    clean: dict = {"kind": kind}
    if kind in ("discard", "add", "take_okey"):
        clean["tile"] = _tile(move.get("tile"))
    if kind in ("add", "take_okey"):
        clean["meld"] = _index(move.get("meld"))
    if kind == "add" and "high" in move:
        if not isinstance(move["high"], bool):
            raise _malformed()
        clean["high"] = move["high"]
    if kind == "lay":
        groups = move.get("groups")
        if (
            not isinstance(groups, list)
            or not groups
            or not all(isinstance(g, list) and g for g in groups)
            or sum(len(g) for g in groups) > _MOST
        ):
            raise _malformed(gettext_lazy("Put the tiles to lay in groups first."))
        clean["groups"] = [[_tile(t) for t in g] for g in groups]
        pairs = move.get("pairs", False)
        if not isinstance(pairs, bool):
            raise _malformed()
        clean["pairs"] = pairs
    return clean


def public_tile(kind: str, move: dict, state, seat: int) -> str | None:
    """The tile a move shows everyone: discarded, added to a meld, put in an okey's place, or
    taken from the left pile. A draw shows none: the stock is secret."""
    if kind in ("discard", "add", "take_okey"):
        return move.get("tile") or None
    if kind == "take":
        from_left = state.discards[(seat - 1) % state.n]
        return format_tile(from_left[-1]) if from_left else None
    return None


def bot_moves(state, seat: int, strength: str) -> list:
    """A bot's whole turn at ``strength`` (the engine's 101 bot)."""
    return variant_of(state).bot_moves(state, seat, strength)


def announcement(event, board) -> str:
    """What a screen reader says, and the log line shows: openings, additions, okeys taken
    back and penalties, as well as the draws and discards."""
    seat = board.seats[event.seat]
    before = event.before.seats[event.seat]
    name = _("Bot %(n)d") % {"n": seat.number} if seat.bot else seat.name
    okey = board.centre.okey
    tile = tile_label(event.tile, okey) if event.tile else ""
    kind = event.kind
    if kind == "lay" and before.opened == "none":
        if seat.opened == "pairs":
            text = _("%(name)s opened with %(n)d pairs") % {"name": name, "n": seat.opening}
        else:
            text = _("%(name)s opened with melds worth %(n)d") % {"name": name, "n": seat.opening}
    elif kind == "lay":
        text = _("%(name)s laid more on the table") % {"name": name}
    elif kind in ("add", "take_okey"):
        meld = _meld(board, event)
        owner = board.seats[meld.owner] if meld is not None else seat
        whose = _("Bot %(n)d") % {"n": owner.number} if owner.bot else owner.name
        if kind == "add":
            text = _("%(name)s added %(tile)s to %(owner)s's meld")
        else:
            text = _("%(name)s took the okey back from %(owner)s's meld with %(tile)s")
        text = text % {"name": name, "tile": tile, "owner": whose}
    else:
        text = {
            "draw": _("%(name)s drew from the stock"),
            "take": _("%(name)s took %(tile)s from the left"),
            "give_back": _("%(name)s gave back the tile taken from the left"),
            "pairs": _("%(name)s declared pairs"),
            "discard": _("%(name)s discarded %(tile)s"),
        }[kind] % {"name": name, "tile": tile}
    if seat.penalties > before.penalties:
        text += " " + _("(+101: it could go on a meld on the table)")
    return text


def _meld(board, event):
    index = (event.detail or {}).get("meld")
    return next((m for s in board.seats for m in s.melds if m.index == index), None)
