"""Tiles as HTML: a number and its colour, plus a shape per colour for colour-blind players.

red ●, yellow ▲, blue ■, black ◆; the okey carries a gold star badge; a fake joker (sahte okey)
shows a clover and the face it stands for. Every tile has a spoken label (aria-label).
"""

import threading
from collections import OrderedDict
from functools import lru_cache

from django import template
from django.template.loader import get_template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engine import parse_tile

register = template.Library()

SHAPES = {"R": "●", "Y": "▲", "B": "■", "K": "◆"}
CLASSES = {"R": "t-red", "Y": "t-yellow", "B": "t-blue", "K": "t-black"}


def colour_name(letter: str) -> str:
    return {"R": _("red"), "Y": _("yellow"), "B": _("blue"), "K": _("black")}[letter]


def tile_label(code: str, okey: str | None = None) -> str:
    if code == "F":
        if okey:
            return _("fake joker (stands for %(tile)s)") % {"tile": tile_label(okey)}
        return _("fake joker")
    text = f"{colour_name(code[0])} {code[1:]}"
    if okey and code == okey:
        text = _("%(tile)s, the okey") % {"tile": text}
    return text


@register.simple_tag
def tile(code, okey=None, extra=""):
    """One face-up tile; ``okey`` (a code) marks the okey and explains the fake joker."""
    return _tile_html(str(code).upper(), okey or None, extra or "", get_language())


# A frame shows 20 to 80 tiles, each a few translated strings and escapes: the same few hundred
# (tile, okey, class, language) combinations every time, so each is built once per process.
@lru_cache(maxsize=8192)
def _tile_html(code, okey, extra, language):
    return _tile_build(code, okey, extra)


def _tile_build(code, okey, extra):
    parse_tile(code)  # a bad code is a bug in the caller: fail loudly
    label = tile_label(code, okey)
    if code == "F":
        stands = ""
        if okey:
            stands = format_html(
                '<small class="tile-for {}">{}</small>', CLASSES[okey[0]], okey[1:]
            )
        return format_html(
            '<span class="tile t-fake {}" data-tile="F" role="img" aria-label="{}" title="{}">'
            '<b class="tile-n" aria-hidden="true">✤</b>{}</span>',
            extra,
            label,
            label,
            stands,
        )
    classes = CLASSES[code[0]] + (" is-okey" if okey and code == okey else "")
    return format_html(
        '<span class="tile {} {}" data-tile="{}" role="img" aria-label="{}" title="{}">'
        '<b class="tile-n" aria-hidden="true">{}</b><i class="tile-s" aria-hidden="true">{}</i>'
        "</span>",
        classes,
        extra,
        code,
        label,
        label,
        code[1:],
        SHAPES[code[0]],
    )


@register.simple_tag
def tiles(codes, okey=None, extra=""):
    language = get_language()
    okey, extra = okey or None, extra or ""
    return mark_safe("".join(_tile_html(str(c).upper(), okey, extra, language) for c in codes))


@register.simple_tag
def tile_back(extra=""):
    return format_html(
        '<span class="tile t-back {}" role="img" aria-label="{}"></span>', extra, _("a tile")
    )


@register.filter
def signed(value):
    try:
        v = float(value)
    except (TypeError, ValueError):
        return value
    text = f"{v:+g}"
    return text.replace("-", "−")


# ---- cached parts of a frame -----------------------------------------------------------------


class RenderedCache:
    """Rendered HTML by a key that holds everything it was rendered from: a small
    least-recently-used store, shared by the socket threads (hence the lock)."""

    def __init__(self, size: int):
        self.size, self.items, self.lock = size, OrderedDict(), threading.Lock()

    def get(self, key, render):
        with self.lock:
            html = self.items.get(key)
            if html is not None:
                self.items.move_to_end(key)
                return html
        html = render()
        with self.lock:
            self.items[key] = html
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return html


# ---- a seat and its pile ---------------------------------------------------------------------

# After a move most seats look as they did before it to every viewer: a frame is four of these
# and they were four fifths of its rendering time. Each is rendered from only the values below,
# so those values (and the language) are the whole key of its cached HTML.
#
# Where a seat sits on the screen (bottom, right, top, left: counted from the viewer) is left out
# of the key: the seat that a move changed looks the same to most viewers, each of whom sees it
# in another place. It is rendered at the bottom and moved by rewriting its two place classes,
# which are the first `class="seat seat--` and `class="pile pile--` in its HTML: whatever a
# player wrote (a name) is escaped, so it holds no `"` and cannot be mistaken for them.
_seats = RenderedCache(4096)
_PLACE = ("position", "pile_corner")
_RENDERED_AT = {"position": "bottom", "pile_corner": "br"}


def _seat_key(s: dict) -> tuple:
    """``s`` without its place, hashable: its values are plain, or lists of tile codes."""
    return tuple(
        (k, tuple(v) if isinstance(v, list) else v) for k, v in s.items() if k not in _PLACE
    )


@register.simple_tag(takes_context=True)
def seat(context, s):
    """The seat ``s`` (a row of selectors.table_view's seats) with its discard pile."""
    hand = context.get("hand")
    status = context.get("status")
    open_ = status == "open"  # the viewer's rights show only in the forms of an open table
    given = {
        "s": s,
        "status": status,
        "signed_in": open_ and context.get("signed_in"),
        "is_manager": open_ and context.get("is_manager"),
        "table": {"pk": getattr(context.get("table"), "pk", None)},
        "options": {"turn_seconds": (context.get("options") or {}).get("turn_seconds")},
        "hand": hand
        and {
            # only the seat on turn shows the clock: the others stay cached while it changes
            "deadline": hand.get("deadline") if s.get("is_turn") else None,
            "over": hand.get("over"),
            "histories_public": hand.get("histories_public"),
            "okey": hand.get("okey"),
        },
    }
    token = context.get("csrf_token")
    if token:  # a page's forms carry the viewer's token: not worth keeping
        return _seat_render({**given, "csrf_token": token})
    key = (
        get_language(),
        _seat_key(s),
        given["status"],
        given["signed_in"],
        given["is_manager"],
        given["table"]["pk"],
        given["options"]["turn_seconds"],
        given["hand"] and tuple(given["hand"].values()),
    )
    html = _seats.get(key, lambda: _seat_render({**given, "s": {**s, **_RENDERED_AT}}))
    return mark_safe(_seat_place(html, s.get("position"), s.get("pile_corner")))


def _seat_place(html: str, position, corner) -> str:
    """A seat rendered at the bottom, moved to ``position`` with its pile in ``corner``."""
    if position != "bottom":
        html = html.replace('class="seat seat--bottom', f'class="seat seat--{position}', 1)
    if corner != "br":
        html = html.replace('class="pile pile--br', f'class="pile pile--{corner}', 1)
    return html


def _seat_render(given: dict) -> str:
    return mark_safe(get_template("games/table.html#seat").render(given))


# ---- the board's centre ----------------------------------------------------------------------

# After a move the centre (indicator, stock, whose turn, the viewer's buttons) looks the same to
# every player but the one on turn: cached like the seats, by exactly what it is rendered from.
CENTRE_HAND = (
    "indicator",
    "indicator_taken",
    "okey",
    "stock_size",
    "number",
    "phase",
    "over",
    "commitment",
    "previous_url",
)
_centres = RenderedCache(2048)


def _frozen(value):
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


@register.simple_tag(takes_context=True)
def centre(context):
    """The board's centre for the view in ``context`` (selectors.table_view)."""
    hand = context.get("hand")
    table = context.get("table")
    turn = next((s for s in context.get("seats") or () if s.get("is_turn")), None)
    status = context.get("status")
    # the start and leave forms show only before the game: during it, the viewer's rights
    # stay out of the key, so all who are not on turn share one centre
    before = status in ("open", "starting")
    given = {
        "teams": context.get("teams"),
        "status": status,
        "hand": hand and {k: hand.get(k) for k in CENTRE_HAND},
        "can": list(context.get("can") or ()),
        "turn": turn and {"is_you": turn.get("is_you"), "name": turn.get("name")},
        "hands_played": context.get("hands_played"),
        "options": {"hand_limit": (context.get("options") or {}).get("hand_limit")},
        "start_at": context.get("start_at") if before else None,
        "seated": before and context.get("me") is not None,
        "is_manager": before and context.get("is_manager"),
        "can_start": before and context.get("can_start"),
        "bots_fill": before and context.get("bots_fill"),
        "table": {"pk": getattr(table, "pk", None) if before else None},
    }
    token = context.get("csrf_token")
    if token:  # a page's forms carry the viewer's token: not worth keeping
        return _centre_render({**given, "csrf_token": token})
    return _centres.get((get_language(), _frozen(given)), lambda: _centre_render(given))


def _centre_render(given: dict) -> str:
    return mark_safe(get_template("games/table.html#centre").render(given))


# ---- the frame: the parts of the page that every change sends again -------------------------

# Four frames go out after every move, one per player. Their own markup (the version, the board
# around its seats and centre, the rack's data) is a few elements around parts that are cached,
# but through the template engine it was a quarter of the frames' rendering time: it is built
# here instead, each value escaped as the template escaped it.


def _attr(value) -> str:
    """A value as the template wrote it in an attribute: None as "", escaped."""
    return "" if value is None else conditional_escape(value)


@register.simple_tag(takes_context=True)
def frame(context) -> str:
    """The version, the board and the rack's data for the view in ``context``
    (selectors.table_view): what a socket sends after each change."""
    hand = context.get("hand")
    seats = context.get("seats") or ()
    can = context.get("can") or ()
    can_text = " ".join(conditional_escape(c) for c in can)
    phase = _attr(hand.get("phase")) if hand else ""
    over = " hand-over" if hand and hand.get("over") else ""
    parts = [
        f'<div id="table-version" hidden data-version="{_attr(context.get("version"))}"'
        f' data-server-now="{_attr(context.get("server_now"))}" hx-swap-oob="true"></div>\n',
        f'<section id="table-board" hx-swap-oob="true"\n'
        f'         class="board board-n{len(seats)} status-{_attr(context.get("status"))}{over}"\n'
        f'         data-phase="{phase}" data-can="{can_text}"\n'
        f'         aria-label="{conditional_escape(_("The table"))}">\n',
    ]
    parts.extend(seat(context, s) for s in seats)
    parts.append(centre(context))
    if context.get("result"):
        flat = context.flatten() if hasattr(context, "flatten") else context
        parts.append(get_template("games/table.html#result").render(flat))
    rack = context.get("rack")
    okey = hand.get("okey") if hand else None
    parts.append(
        "\n</section>\n"
        f'<div id="rack-data" hidden hx-swap-oob="true"\n'
        f'     data-hand="{_attr(hand.get("id")) if hand else ""}" data-okey="{_attr(okey)}"\n'
        f'     data-phase="{phase}" data-drawn="{_attr(hand.get("drawn")) if hand else ""}"\n'
        f'     data-can="{can_text}">{tiles(rack, okey) if rack else ""}</div>\n'
    )
    return mark_safe("".join(parts))
