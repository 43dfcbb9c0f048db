"""Tiles as HTML: a number and its colour, plus a shape per colour for colour-blind players.

red ●, yellow ▲, blue ■, black ◆; the okey carries a gold star badge; a fake joker (sahte okey)
shows a clover and the face it stands for. Every tile has a spoken label (aria-label), in the
active language.
"""

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engine import parse_tile
from games.labels import finish_label, mode_label, move_label

register = template.Library()

SHAPES = {"R": "●", "Y": "▲", "B": "■", "K": "◆"}
CLASSES = {"R": "t-red", "Y": "t-yellow", "B": "t-blue", "K": "t-black"}


COLOUR_NAMES = {
    "R": gettext_noop("red"),
    "Y": gettext_noop("yellow"),
    "B": gettext_noop("blue"),
    "K": gettext_noop("black"),
}


def colour_name(letter: str) -> str:
    return _(COLOUR_NAMES[letter])


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
    return tile_html(str(code).upper(), okey or None, extra or "")


def tile_html(code, okey, extra=""):
    extra = f" {extra}" if extra else ""
    parse_tile(code)  # a bad code is a bug in the caller: fail loudly
    label = tile_label(code, okey)
    if code == "F":
        # The clover and the face it stands for are drawn by the style sheet: the tile's visible
        # text is then none, and its label (read out, and the name of a rack tile's button) is
        # not contradicted by a clover glyph that is no word.
        stands = ""
        if okey:
            stands = format_html(
                '<small class="tile-for {}" data-for="{}"></small>', CLASSES[okey[0]], okey[1:]
            )
        return format_html(
            '<span class="tile t-fake{}" data-tile="F" role="img" aria-label="{}">'
            '<b class="tile-n"></b>{}</span>',
            extra,
            label,
            stands,
        )
    # role="img" makes the number and the shape presentational: the label is what is spoken.
    # A rack or a pile is many tiles: the markup is put together directly, the code having been
    # checked by parse_tile and only the translated label needing escaping.
    classes = CLASSES[code[0]] + (" is-okey" if okey and code == okey else "") + escape(extra)
    return SafeString(
        f'<span class="tile {classes}" data-tile="{code}" role="img" aria-label="{escape(label)}">'
        f'<b class="tile-n">{code[1:]}</b><i class="tile-s">{SHAPES[code[0]]}</i></span>'
    )


@register.simple_tag
def tiles(codes, okey=None, extra=""):
    okey, extra = okey or None, extra or ""
    return SafeString("".join(tile_html(str(c).upper(), okey, extra) for c in codes))


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


@register.filter
def minus(value):
    """A whole number with the typographic minus that ``signed`` writes, without its plus: a
    total beside the games' "−12" read "-12" (issue 42)."""
    return str(value).replace("-", "−")


@register.simple_tag
def seat_name(seat):
    """A seat's name in the active language: a person's own name, "Bot 3" for a bot. ``seat``
    is a view (selectors.SeatView, ResultRow) or a lobby row (a dict)."""
    get = seat.get if isinstance(seat, dict) else lambda key: getattr(seat, key)
    if get("bot"):
        return _("Bot %(n)d") % {"n": get("index") + 1}
    return get("name")


@register.filter(name="move_label")
def move_label_filter(kind):
    return move_label(kind)


@register.filter(name="finish_label")
def finish_label_filter(kind):
    return finish_label(kind)


@register.filter(name="mode_label")
def mode_label_filter(mode):
    return mode_label(mode)


@register.simple_tag
def team_name(team):
    """An Eşli team's name: the one given, the partners', else "Team A" / "Team B"."""
    if team.name:
        return team.name
    return _("Team A") if team.index == 0 else _("Team B")


@register.simple_tag
def turn_name(centre):
    """The name of the seat on turn, for the board's status line."""
    if centre.turn_bot:
        return _("Bot %(n)d") % {"n": centre.turn + 1}
    return centre.turn_name


@register.simple_tag
def result_headline(result, board):
    """Who finished a hand, how, and for how much."""
    name = seat_name(board.seats[result.finisher]) if result.finisher is not None else ""
    return _("%(name)s: %(kind)s (%(v)s)") % {
        "name": name,
        "kind": finish_label(result.kind),
        "v": result.value,
    }


@register.simple_tag
def result_shower(result, board):
    return _("%(name)s showed the indicator.") % {"name": seat_name(board.seats[result.shower])}
