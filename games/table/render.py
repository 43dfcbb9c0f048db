"""View dataclasses to HTML: the only place the table's HTML is made.

Every piece is a partial of templates/games/table.html, so the page, a socket's full frame and a
move's event are the same markup. What a socket sends is a run of elements with ``id`` and
``hx-swap-oob`` that the htmx WebSocket extension swaps into the page:

- a full frame (``frame_full``): one viewer's whole table, on connect, on a reported gap, and
  after a change of the table's life (a seat taken, the start, a deal, a hand's end);
- a move's public event (``event_html``): the seats (or only their live parts), piles and
  centre the move changed and a line that says what happened, rendered once per language for
  everyone at the table;
- a player's own part (``rack_html``): their rack and the moves they may make, for their tabs
  only.
"""

from dataclasses import fields

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.table.reads import BoardView, ChatLine, MoveEvent, OwnView, TableView, epoch_ms
from games.templatetags.okey import tile_label

TEMPLATE = "games/table.html"


def languages() -> tuple[str, ...]:
    return tuple(code for code, _name in settings.LANGUAGES)


def in_every_language(render) -> dict[str, str]:
    """``render()`` once in each of the site's languages: what a group message carries, so that
    each socket sends its own language's bytes as they are."""
    out = {}
    for lang in languages():
        with translation.override(lang):
            out[lang] = render()
    return out


def _partial(name: str, context: dict) -> str:
    return render_to_string(f"{TEMPLATE}#{name}", context)


def frame_full(view: TableView, *, chat: tuple[ChatLine, ...] | None = None) -> str:
    """One viewer's whole table (in the active language)."""
    html = _partial("frame", {"view": view, "server_now": epoch_ms(timezone.now())})
    if chat is not None:
        html += chat_html(chat)
    return html


def own_html(own: OwnView) -> str:
    """A player's own rack and moves, where a move changed them: only ever sent to that
    player."""
    return _partial("own", {"rack": own.rack, "own": own})


def message_html(text: str) -> str:
    """#table-message: a refusal or a notice, or empty to clear one."""
    return _partial("message", {"message": text})


def chat_html(lines: tuple[ChatLine, ...]) -> str:
    return _partial("chat", {"chat": lines})


def chat_line_html(line: ChatLine) -> str:
    return _partial("chat_line", {"m": line})


def event_html(event: MoveEvent) -> str:
    """The public part of a move: what changed on the board, and what happened."""
    before, after = event.before, event.after
    changed = [
        (s, _parts_changed(old, s, SEAT_PARTS))
        for s, old in zip(after.seats, before.seats, strict=True)
    ]
    return _partial(
        "event",
        {
            "event": event,
            "board": after,
            "seats": [s for s, parts in changed if parts == "whole"],
            "lives": [s for s, parts in changed if parts != "whole" and "live" in parts],
            # once histories open, every pile shows more: all of them are sent again
            "piles": [
                s
                for s, old in zip(after.seats, before.seats, strict=True)
                if _differ(old, s, SEAT_PARTS["pile"])
            ],
            "centre": _parts_changed(before.centre, after.centre, CENTRE_PARTS),
            "announce": move_announcement(event, after),
            "server_now": epoch_ms(timezone.now()),
        },
    )


# The parts of the centre and of a seat that most moves change, each its own element: the rest
# of it (the centre's indicator, okey, teams and commitment; a seat's name and badges) is sent
# again only when that changes.
CENTRE_PARTS = {
    "stock": ("stock_size",),
    "turn": ("turn", "turn_name", "turn_bot", "over", "hand_of"),
}


SEAT_PARTS = {
    "live": ("turn", "deadline", "rack_size", "count"),
    "pile": ("pile", "pile_size", "histories_public", "pile_history"),
}


def _parts_changed(before, after, parts: dict) -> str | tuple[str, ...]:
    """ "whole", or the parts of a view (one of ``parts``) that changed."""
    moving = {f for names in parts.values() for f in names}
    rest = [f.name for f in fields(after) if f.name not in moving]
    if _differ(before, after, rest):
        return "whole"
    return tuple(part for part, fields in parts.items() if _differ(before, after, fields))


def _differ(before, after, fields) -> bool:
    return any(getattr(before, f) != getattr(after, f) for f in fields)


def move_announcement(event: MoveEvent, board: BoardView) -> str:
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
