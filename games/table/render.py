"""View dataclasses to HTML: the only place the table's HTML is made.

Every piece is a partial of templates/games/table.html, so the page, a socket's full frame and a
move's event are the same markup; the board, the rack and the results inside them are the
templates of the table's family of games (templates/games/table/<family>/, games.variants). What a socket sends is a run of elements with ``id`` and
``hx-swap-oob`` that the htmx WebSocket extension swaps into the page:

- a full frame (``frame_full``): one viewer's whole table, on connect, on a reported gap, and
  after a change of the table's life (a seat taken, the start, a deal, a hand's end);
- a move's public event (``event_html``): the seats (or only their live parts), piles and
  centre the move changed and a line that says what happened, rendered once per language for
  everyone at the table;
- a player's own part (``own_html``): their rack and the moves they may make, for their tabs
  only: after a move, in the same frame as its event (games.table.socket).
"""

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation

from games.table.chat_view import ChatLine
from games.table.reads import MoveEvent, OwnView, TableView
from games.variants import family_named
from games.variants.common import epoch_ms

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
    """The public part of a move: what changed on the board (the parts the move's family says
    it changed), and what happened."""
    family = family_named(event.after.family)
    return _partial(
        "event",
        {
            "event": event,
            "board": event.after,
            **event.parts,
            "announce": family.announcement(event, event.after),
            "server_now": epoch_ms(timezone.now()),
        },
    )
