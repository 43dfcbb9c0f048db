"""Tiles as HTML: a number and its colour, plus a shape per colour for colour-blind players.

red ●, yellow ▲, blue ■, black ◆; the okey carries a gold star badge; a fake joker (sahte okey)
shows a clover and the face it stands for. Every tile has a spoken label (aria-label).
"""

import threading
from collections import OrderedDict
from functools import lru_cache

from django import template
from django.template.loader import get_template
from django.utils.html import format_html
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


# ---- a seat and its pile ---------------------------------------------------------------------

# After a move most seats look as they did before it to every viewer: a frame is four of these
# and they were four fifths of its rendering time. Each is rendered from only the values below,
# so those values (and the language) are the whole key of its cached HTML.
SEATS_CACHED = 4096
_seats: OrderedDict = OrderedDict()
_seats_lock = threading.Lock()


def _frozen(value):
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


@register.simple_tag(takes_context=True)
def seat(context, s):
    """The seat ``s`` (a row of selectors.table_view's seats) with its discard pile."""
    hand = context.get("hand")
    table = context.get("table")
    given = {
        "s": s,
        "status": context.get("status"),
        "signed_in": context.get("signed_in"),
        "is_manager": context.get("is_manager"),
        "table": {"pk": getattr(table, "pk", None)},
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
    key = (get_language(), _frozen(given))
    with _seats_lock:
        html = _seats.get(key)
        if html is not None:
            _seats.move_to_end(key)
            return html
    html = _seat_render(given)
    with _seats_lock:
        _seats[key] = html
        while len(_seats) > SEATS_CACHED:
            _seats.popitem(last=False)
    return html


def _seat_render(given: dict) -> str:
    return mark_safe(get_template("games/table.html#seat").render(given))
