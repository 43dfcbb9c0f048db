"""Tiles as HTML: a number and its colour, plus a shape per colour for colour-blind players.

red ●, yellow ▲, blue ■, black ◆; the okey carries a gold star badge; a fake joker (sahte okey)
shows a clover and the face it stands for. Every tile has a spoken label (aria-label).

Below the tiles, the board's seats and centre and the frame around them: what the table page
and every socket frame show, written in Python for speed (the template engine was too slow).
"""

import threading
from collections import OrderedDict
from functools import lru_cache
from html import escape as html_escape

from django import template
from django.template.defaultfilters import add, truncatechars
from django.template.loader import get_template
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString

from games.engine import parse_tile
from games.words import gettext_cached as _
from games.words import language

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
    return _tile_html(str(code).upper(), okey or None, extra or "", language())


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
    lang = language()
    okey, extra = okey or None, extra or ""
    return SafeString("".join(_tile_html(str(c).upper(), okey, extra, lang) for c in codes))


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


# ---- written as the template wrote it ---------------------------------------------------------

# The seats and the centre were partials of games/table.html: under load their cache misses,
# through the template engine, were about 15% of the web process's CPU, so they are written
# here, by the template's rules. Every value is escaped and no number localized (the partials
# were under {% localize off %}); a translation goes in as it is, as {% translate %} and
# {% blocktranslate %} put a literal's translation in: an apostrophe stays an apostrophe.
# No _() is called inside an f-string: xgettext (makemessages) does not look into them.
# Plain text is escaped and marked safe here directly (``_text``, ``SafeString``): that is what
# conditional_escape and mark_safe do with a str, without their checks for lazy text, which were
# a tenth of a frame's rendering.


def _text(value) -> str:
    """A value as ``{{ }}`` wrote it."""
    if type(value) is str:  # as conditional_escape does it, without its checks for lazy text
        return SafeString(html_escape(value))
    if isinstance(value, SafeString):
        return value
    if isinstance(value, str):
        return conditional_escape(value)
    if isinstance(value, int):  # bools too: written as Python writes them, like any int
        return str(value)
    return conditional_escape(localize(value, use_l10n=False))


def _csrf_input(token) -> str:
    """What ``{% csrf_token %}`` wrote: a page's forms carry the viewer's token, a socket's none."""
    if not token or token == "NOTPROVIDED":
        return ""
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)


# the same few forms on every seat and centre: each table's URLs reversed once per language
@lru_cache(maxsize=4096)
def _table_url(name: str, table_pk: int, language: str) -> str:
    return conditional_escape(reverse(name, args=[table_pk]))


def _form_start(name: str, table_pk, extra_class: str = "") -> str:
    """A form's opening tag posting to the table's ``name`` view, plainly and by htmx."""
    url = _table_url(name, table_pk, language())
    return f'<form method="post" action="{url}" hx-post="{url}" class="inline-form{extra_class}">'


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
    """``s`` without its place, hashable: its values are plain but for the pile, a list of tile
    codes (another list would fail the cache's lookup, loudly). Made with the dict's own copy
    and items rather than item by item: this runs for every seat of every frame."""
    key = dict(s)
    for place in _PLACE:
        key.pop(place, None)
    if type(key.get("pile")) is list:
        key["pile"] = tuple(key["pile"])
    return tuple(key.items())


def _seat_given(context, s) -> dict:
    hand = context.get("hand")
    status = context.get("status")
    open_ = status == "open"  # the viewer's rights show only in the forms of an open table
    return {
        "s": s,
        "status": status,
        "signed_in": open_ and context.get("signed_in"),
        "is_manager": open_ and context.get("is_manager"),
        "table_pk": getattr(context.get("table"), "pk", None),
        "turn_seconds": (context.get("options") or {}).get("turn_seconds"),
        "hand": hand
        and {
            # only the seat on turn shows the clock: the others stay cached while it changes
            "deadline": hand.get("deadline") if s.get("is_turn") else None,
            "over": hand.get("over"),
            "histories_public": hand.get("histories_public"),
            "okey": hand.get("okey"),
        },
    }


# what _seat_given takes from the context: plain values, each part of a seat's cache key
_SEAT_PLAIN = ("status", "signed_in", "is_manager", "table_pk", "turn_seconds")


@register.simple_tag(takes_context=True)
def seat(context, s):
    """The seat ``s`` (a row of selectors.table_view's seats) with its discard pile."""
    given = _seat_given(context, s)
    token = context.get("csrf_token")
    if token:  # a page's forms carry the viewer's token: not worth keeping
        return seat_html({**given, "csrf_token": token})
    key = (
        language(),
        _seat_key(s),
        *(given[k] for k in _SEAT_PLAIN),
        given["hand"] and tuple(given["hand"].values()),
    )
    html = _seats.get(key, lambda: seat_html({**given, "s": {**s, **_RENDERED_AT}}))
    return SafeString(_seat_place(html, s.get("position"), s.get("pile_corner")))


def _seat_place(html: str, position, corner) -> str:
    """A seat rendered at the bottom, moved to ``position`` with its pile in ``corner``."""
    if position != "bottom":
        html = html.replace('class="seat seat--bottom', f'class="seat seat--{position}', 1)
    if corner != "br":
        html = html.replace('class="pile pile--br', f'class="pile pile--{corner}', 1)
    return html


def seat_html(given: dict) -> str:
    """One seat and its pile, from only what the seat tag gives: ``s`` (the seat's row), status,
    signed_in, is_manager, table_pk, turn_seconds, hand (its clock, over, histories_public,
    okey) and, on a page, csrf_token."""
    s, hand = given["s"], given["hand"]
    if s.get("reserved"):
        name = _("invited player expected")
    elif s.get("empty"):
        name = _("empty seat")
    else:
        name = _text(s.get("name", ""))
    flags = (
        (" is-turn" if s.get("is_turn") else "")
        + (" is-you" if s.get("is_you") else "")
        + (" is-empty" if s.get("empty") else "")
    )
    number = _("seat %(n)s") % {"n": _text(s.get("number", ""))}
    parts = [
        f'\n<div class="seat seat--{_text(s.get("position", ""))}{flags}"'
        f' data-seat="{_text(s.get("index", ""))}">\n'
        f'<div class="seat-head">\n<span class="seat-name">{name}</span>\n'
        f'<span class="seat-no muted">{number}</span>\n</div>\n'
        f'<div class="seat-badges">\n{_seat_badges(s)}\n</div>\n'
        f'<div class="seat-info">\n{_seat_counts(s)}\n</div>',
        _turn_clock(given),
        *_seat_forms(given),
        "</div>",
    ]
    if hand:
        parts.append(_pile_html(s, hand))
    return SafeString("\n".join(parts) + "\n")


def _span(classes: str, text: str, title: str = "") -> str:
    title = f' title="{title}"' if title else ""
    return f'<span class="{classes}"{title}>{text}</span>'


def _seat_badges(s: dict) -> str:
    """Who sits there, and what they declared or showed in this hand."""
    badges = []
    if s.get("team"):
        team = "badge badge--team badge--team-" + _text(str(s["team"]).lower())
        badges.append(_span(team, _text(s.get("team_name", "")), _("team")))
    if s.get("is_you"):
        badges.append(_span("badge badge--you", _("you")))
    if s.get("is_manager"):
        badges.append(_span("badge", _("manager"), _("table manager")))
    if s.get("partner"):
        badges.append(_span("badge badge--gold", _("partner")))
    if s.get("is_bot"):
        badges.append(_span("badge", _("bot")))
    if s.get("away"):
        badges.append(_span("badge badge--warn", _("away")))
    if s.get("declared_pairs"):
        badges.append(_span("badge badge--gold", _("going for pairs")))
    if s.get("showed"):
        badges.append(_span("badge badge--gold", _("showed the indicator")))
    return "\n".join(badges)


def _seat_counts(s: dict) -> str:
    """The tiles in the seat's rack (once dealt) and its count in the game (once started)."""
    counts = []
    if s.get("rack_size") is not None:
        counts.append(_span("seat-tiles", _("tiles") + " " + _text(s["rack_size"])))
    if s.get("count") is not None:
        count = _("count") + " " + _text(s["count"])
        counts.append(_span("seat-count", count, _("count: lower is better")))
    return "\n".join(counts)


def _turn_clock(given: dict) -> str:
    """The seat on turn's clock, while a person's turn runs out (a bot's pause has none)."""
    hand = given["hand"]
    if not (given["s"].get("is_turn") and hand and hand.get("deadline")):
        return ""
    return (
        f'<div class="turn-clock" data-countdown-to="{_text(hand["deadline"])}"'
        f' data-countdown-total="{_text(given["turn_seconds"])}">\n'
        '<span class="turn-clock-bar"></span><span class="turn-clock-text" data-countdown-text>'
        "</span>\n</div>"
    )


def _seat_forms(given: dict) -> list[str]:
    """What the viewer may do at this seat: sit, seat or remove a bot (the manager of an open
    table), come back from being away (the seat's own player)."""
    s, pk, csrf = given["s"], given["table_pk"], _csrf_input(given.get("csrf_token"))
    seat_input = f'{csrf}<input type="hidden" name="seat" value="{_text(s.get("index", ""))}">'
    forms = []
    open_ = given["status"] == "open" and not s.get("reserved")  # an invite keeps the seat
    if open_ and s.get("empty") and given["signed_in"]:
        sit = _("Sit here")
        forms.append(
            f"{_form_start('games:sit', pk)}\n{seat_input}\n"
            f'<button type="submit" class="button button--primary button--small">{sit}</button>\n'
            "</form>"
        )
    if open_ and given["is_manager"] and (s.get("empty") or s.get("is_bot")):
        if s.get("is_bot"):
            action, data, label = "remove", "data-bot-remove", _("Remove the bot")
        else:
            action, data, label = "add", "data-bot-add", _("Seat a bot")
        forms.append(
            f"{_form_start('games:bot', pk)}\n{seat_input}\n"
            f'<input type="hidden" name="action" value="{action}">\n'
            f'<button type="submit" class="button button--secondary button--small" {data}>'
            f"{label}</button>\n</form>"
        )
    if s.get("is_you") and s.get("away"):
        note, back = _("You were away: your turns are played for you."), _("I'm back")
        forms.append(
            f"{_form_start('games:back', pk, ' away-form')}\n{csrf}\n"
            f'<p class="board-note">{note}</p>\n'
            '<button type="submit" class="button button--primary button--small" data-back>'
            f"{back}</button>\n</form>"
        )
    return forms


def _pile_html(s: dict, hand: dict) -> str:
    """The seat's discard pile: its top tile, and the ones under it where histories are public."""
    pile = s.get("pile") or []
    flags = (" is-takeable" if s.get("takeable") else "") + (" is-own" if s.get("is_you") else "")
    drop = ' data-drop="discard"' if s.get("is_you") and not hand.get("over") else ""
    label = _("Discard pile of %(name)s: %(n)s tiles") % {
        "name": _text(s.get("name", "") or s.get("number", "")),
        "n": _text(s.get("pile_size", "")),
    }
    owner = _("your pile") if s.get("is_you") else _text(s.get("name", ""))
    history = ""
    if hand.get("histories_public") and len(pile) > 1:
        history = f'<div class="pile-history">{tiles(pile[:-1], hand.get("okey"), "tile--s")}</div>'
    top = tile(pile[-1], hand.get("okey")) if pile else ""
    return (
        f'<div class="pile pile--{_text(s.get("pile_corner", ""))}{flags}"\n'
        f'data-seat="{_text(s.get("index", ""))}"{drop}\naria-label="{label}">\n'
        f'<span class="pile-label muted">{owner} · {_text(s.get("pile_size", ""))}</span>\n'
        f"{history}\n"
        f'<div class="pile-top{" pile-source" if s.get("takeable") else ""}">{top}</div>\n'
        "</div>"
    )


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
        "hand_limit": (context.get("options") or {}).get("hand_limit"),
        "start_at": context.get("start_at") if before else None,
        "seated": before and context.get("me") is not None,
        "is_manager": before and context.get("is_manager"),
        "can_start": before and context.get("can_start"),
        "bots_fill": before and context.get("bots_fill"),
        "table_pk": getattr(table, "pk", None) if before else None,
    }
    token = context.get("csrf_token")
    if token:  # a page's forms carry the viewer's token: not worth keeping
        return centre_html({**given, "csrf_token": token})
    key = (
        language(),
        given["teams"] and _frozen(given["teams"]),  # Eşli only
        given["hand"] and tuple(given["hand"].values()),
        tuple(given["can"]),
        given["turn"] and tuple(given["turn"].values()),
        *(given[k] for k in _CENTRE_PLAIN),
    )
    return _centres.get(key, lambda: centre_html(given))


# the rest of what the centre is given: plain values, each part of its cache key as it is
_CENTRE_PLAIN = ("status", "hands_played", "hand_limit", "start_at", "seated", "is_manager",
                 "can_start", "bots_fill", "table_pk")  # fmt: skip


def centre_html(given: dict) -> str:
    """The board's centre, from only what the centre tag gives: teams, status, hand (not its
    clock), can, turn (the seat on turn: is_you, name), hands_played, hand_limit, start_at,
    seated, is_manager, can_start, bots_fill, table_pk and, on a page, csrf_token."""
    parts = ['\n<div class="center">']
    if given["teams"]:
        parts.append(_teams_bar(given["teams"]))
    if given["status"] == "closed":
        parts.append('<p class="table-closed">' + _("This table is closed.") + "</p>")
    if given["hand"]:
        parts.extend((_centre_tiles(given), _status_line(given), _moves(given["can"])))
        parts.append(_commitment(given["hand"]))
    elif given["status"] == "starting":
        parts.append(_start_countdown(given))
    elif given["status"] == "open":
        parts.append(_waiting(given))
    parts.append("</div>\n")
    return SafeString("\n".join(parts))


def _teams_bar(teams: list[dict]) -> str:
    """Eşli: the two teams (teams.teams_view), their seats and totals."""
    rows = []
    for t in teams:
        letter = t.get("letter", "")
        flags = (" is-yours" if t.get("is_yours") else "") + (
            " is-leading" if t.get("leading") else ""
        )
        a, b = t.get("numbers") or ("", "")
        seats = _("seats %(a)s & %(b)s") % {"a": _text(a), "b": _text(b)}
        total = ""
        if t.get("total") is not None:
            total = _span("team-total", _text(t["total"]), _("team total: lower is better"))
        rows.append(
            f'<div class="team team--{_text(str(letter).lower())}{flags}"'
            f' data-team="{_text(letter)}">\n'
            f'<span class="team-name">{_text(t.get("name", ""))}</span>\n'
            f'<span class="team-seats muted">{seats}</span>\n'
            f"{total}\n</div>"
        )
    label = _("Teams: lower total is better")
    return f'<div class="teams-bar" aria-label="{label}">\n' + "\n".join(rows) + "\n</div>"


def _centre_tiles(given: dict) -> str:
    """The indicator (where a finishing tile is dropped), the stock and the okey."""
    hand, can = given["hand"], given["can"]
    indicator = tile_back() if hand["indicator_taken"] else tile(hand["indicator"])
    stock = tile_back("stock-tile") if hand["stock_size"] else ""
    drop = ' data-drop="finish"' if "discard" in can else ""
    drawable = " is-drawable" if "draw" in can else ""
    indicator_label, stock_label, okey_label = _("indicator"), _("stock"), _("okey")
    left = _("tiles left in the stock")
    return (
        f'<div class="center-tiles">\n<div class="indicator"{drop}>\n'
        f'<span class="center-label">{indicator_label}</span>\n{indicator}\n</div>\n'
        f'<div class="stock{drawable}">\n<span class="center-label">{stock_label}</span>\n'
        f'<div class="stock-source">{stock}</div>\n'
        f'<span class="stock-count" aria-label="{left}">{_text(hand["stock_size"])}</span>\n'
        f'</div>\n<div class="okey-info">\n<span class="center-label">{okey_label}</span>\n'
        f"{tile(hand['okey'], hand['okey'])}\n</div>\n</div>"
    )


def _status_line(given: dict) -> str:
    """Which hand of how many, and whose turn it is."""
    hand, turn = given["hand"], given["turn"]
    line = [
        _("Hand %(n)s · %(h)s of %(limit)s")
        % {
            "n": _text(hand["number"]),
            "h": _text(add(given["hands_played"], 1)),
            "limit": _text(given["hand_limit"]),
        }
    ]
    if not hand["over"]:
        line.append("·")
        if turn and turn.get("is_you"):
            if hand["phase"] == "draw":
                line.append("<strong>" + _("Your turn: draw a tile") + "</strong>")
            else:
                line.append("<strong>" + _("Your turn: discard or finish") + "</strong>")
        elif turn:
            line.append(_("%(name)s to play") % {"name": _text(turn.get("name", ""))})
    return '<p class="status-line">\n' + "\n".join(line) + "\n</p>"


def _moves(can: list) -> str:
    """The buttons for the moves the viewer may make now (discarding and finishing are drags)."""
    if not can:
        return ""
    buttons = []  # each label translated only when its button shows: most frames show none
    if "draw" in can:
        buttons.append(_move_button("draw", "primary", _("Draw from the stock")))
    if "take" in can:
        buttons.append(_move_button("take", "primary", _("Take the left discard")))
    if "show" in can:
        buttons.append(_move_button("show", "secondary", _("Show the indicator")))
    if "pairs" in can:
        buttons.append(_move_button("pairs", "secondary", _("Declare pairs")))
    if "take_indicator" in can:
        buttons.append(_move_button("take_indicator", "secondary", _("Take the indicator")))
    return '<div class="actions">\n' + "\n".join(buttons) + "\n</div>"


def _move_button(move: str, kind: str, label: str) -> str:
    return (
        f'<button type="button" class="button button--{kind}" data-move="{move}">{label}</button>'
    )


def _commitment(hand: dict) -> str:
    """The deal's commitment, and a link to check the previous hand's deal against its own."""
    previous = ""
    if hand["previous_url"]:
        link = _("the previous hand")
        previous = f'· <a href="{_text(hand["previous_url"])}">{link}</a>'
    commitment = _("Deal commitment (SHA-256)")
    return (
        f'<p class="commitment muted"><span>{commitment}:</span>'
        f" <code>{_text(_truncated(hand['commitment'], 20))}</code>\n{previous}</p>"
    )


def _truncated(text, length: int):
    """``truncatechars``: the same for ASCII text (a hex digest) without Django's Truncator,
    which was a tenth of a centre's rendering."""
    if isinstance(text, str) and text.isascii():
        return text if len(text) <= length else text[: length - 1] + "…"
    return truncatechars(text, length)


def _start_countdown(given: dict) -> str:
    starts = _("The game starts in")
    html = (
        f'<p class="start-countdown" role="timer">{starts}'
        f' <strong data-countdown-to="{_text(given["start_at"])}">'
        "<span data-countdown-text></span></strong></p>"
    )
    return html + ("\n" + _leave_form(given) if given["seated"] else "")


def _waiting(given: dict) -> str:
    """An open table: the manager's start button, and a seated player's way out."""
    parts = ['<p class="waiting">' + _("Waiting for players.") + "</p>"]
    if given["is_manager"]:
        disabled = "" if given["can_start"] else "disabled"
        start = _("Start")
        parts.append(
            f"{_form_start('games:start', given['table_pk'])}"
            f"{_csrf_input(given.get('csrf_token'))}\n"
            f'<button type="submit" class="button button--primary" data-start {disabled}>'
            f"{start}</button>\n</form>"
        )
        if not given["can_start"]:
            note = _("Start when every seat is taken.")
            parts.append(f'<p class="board-note">{note}</p>')
        elif given["bots_fill"]:
            note = _("Bots take the seats that are still empty at the start.")
            parts.append(f'<p class="board-note">{note}</p>')
    if given["seated"]:
        parts.append(_leave_form(given))
    return "\n".join(parts)


def _leave_form(given: dict) -> str:
    leave = _("Leave the seat")
    return (
        f"{_form_start('games:leave', given['table_pk'])}{_csrf_input(given.get('csrf_token'))}\n"
        f'<button type="submit" class="button button--secondary">{leave}</button></form>'
    )


@register.simple_tag
def table_message(message) -> str:
    """#table-message, swapped in out of band: a refusal or a notice, or empty to clear one (a
    mover's every answer carries it, so it is not rendered through the template engine)."""
    if not message:
        return SafeString(_MESSAGE_START.format(shown="") + "</div>")
    return SafeString(
        _MESSAGE_START.format(shown=" is-shown") + f"<p>{conditional_escape(message)}</p></div>"
    )


_MESSAGE_START = (
    '<div id="table-message" class="table-message{shown}" role="alert" aria-live="assertive"'
    ' hx-swap-oob="true">'
)


@lru_cache(maxsize=16)
def _no_invites(language: str) -> str:
    return get_template("games/invite_list.html").render({"invites": {"rows": []}})


def invite_list(context) -> str:
    """games/invite_list.html for the manager's view in ``context``: the same few words in every
    frame of a table that has no invites (the most), so those are rendered once per language."""
    invites = context.get("invites")
    if invites is not None and not invites.get("rows"):
        return _no_invites(language())
    flat = context.flatten() if hasattr(context, "flatten") else context
    return get_template("games/invite_list.html").render(flat)


# ---- the frame: the parts of the page that every change sends again -------------------------

# Four frames go out after every move, one per player. Their own markup (the version, the board
# around its seats and centre, the rack's data) is a few elements around parts that are cached,
# but through the template engine it was a quarter of the frames' rendering time: it is built
# here instead, each value escaped as the template escaped it.


def _attr(value) -> str:
    """A value as the template wrote it in an attribute: None as "", escaped."""
    if value is None:
        return ""
    if type(value) in (str, int):  # as _text writes them: the same as conditional_escape
        return _text(value)
    return conditional_escape(value)


@register.simple_tag(takes_context=True)
def frame(context) -> str:
    """The version, the board and the rack's data for the view in ``context``
    (selectors.table_view): what a socket sends after each change."""
    hand = context.get("hand")
    seats = context.get("seats") or ()
    can = context.get("can") or ()
    can_text = " ".join(_text(c) for c in can)
    phase = _attr(hand.get("phase")) if hand else ""
    over = " hand-over" if hand and hand.get("over") else ""
    board = _text(_("The table"))  # outside the f-string, where xgettext finds it
    parts = [
        f'<div id="table-version" hidden data-version="{_attr(context.get("version"))}"'
        f' data-server-now="{_attr(context.get("server_now"))}" hx-swap-oob="true"></div>\n',
        f'<section id="table-board" hx-swap-oob="true"\n'
        f'         class="board board-n{len(seats)} status-{_attr(context.get("status"))}{over}"\n'
        f'         data-phase="{phase}" data-can="{can_text}"\n'
        f'         aria-label="{board}">\n',
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
    return SafeString("".join(parts))
