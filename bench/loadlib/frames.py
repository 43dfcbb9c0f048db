"""Reading the table socket's HTML frames the way table.js does, with a few regular expressions.

A socket hears four kinds of frame (games.render, templates/games/table.html):

- a full frame: ``#table-version`` with ``data-version`` and ``data-full`` (and ``data-me``, the
  viewer's seat), the board (``#table-board``, whose class says the table's status), and for a
  seated player ``#rack-data`` (``data-version``, ``data-seat``, the hand, the okey, the drawn
  tile, the player's own tiles as ``data-tile`` spans) and ``#my-moves`` (``data-version``, the
  phase and ``data-can``, the moves the player may make now);
- a move's event: its public part, the same bytes for everyone at the table, ``#table-version``
  with ``data-delta``, ``#table-event`` (``data-kind``, ``data-seat``, ``data-move-tile``: a
  public tile, not a ``data-tile``), then only what changed: seats, piles, ``#stock``,
  ``#turn-line`` (``data-turn``), the whole ``#centre`` now and then, ``#table-announce``; after
  it, in the same frame, the player's own part when the move changed it: ``#rack-data`` and/or
  ``#my-moves``, each with its ``data-version``;
- a refusal (a non-empty ``#table-message``, no version), and chat lines.

``frame_parse`` reads one frame; a ``FrameState`` is what a page shows, each frame folded into it
as table.js swaps it in: a delta or an own part changes only what it carries.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

VERSION_TAG = re.compile(r'<div id="table-version"([^>]*)>')
EVENT_TAG = re.compile(r'<div id="table-event"([^>]*)>')
RACK = re.compile(r'<div id="rack-data"([^>]*)>(.*?)</div>', re.S)
MOVES_TAG = re.compile(r'<div id="my-moves"([^>]*)>')
TURN_TAG = re.compile(r'<p id="turn-line"([^>]*)>')
ATTR = re.compile(r'\bdata-([a-z][a-z-]*)(?:="([^"]*)")?')
TILE = re.compile(r'data-tile="([A-Z0-9]+)"')
STATUS = re.compile(r'id="table-board"[^>]*class="[^"]*\bstatus-([a-z]+)')
MESSAGE = re.compile(r'<div id="table-message"[^>]*>(.*?)</div>', re.S)
TAG = re.compile(r"<[^>]+>")
MELD = re.compile(r'data-meld="(\d+)"\s+data-okey-for="([^"]*)"')


def _attrs(text: str) -> dict[str, str]:
    """A tag's data- attributes; a bare one (``data-full``) maps to ""."""
    return {k: v or "" for k, v in ATTR.findall(text)}


def _int(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


@dataclass
class Frame:
    version: int | None = None  # #table-version's (a full frame or a move's event)
    full: bool = False
    delta: bool = False
    me: int | None = None  # the viewer's seat, in a full frame
    status: str = ""  # the table's, in a full frame: open, starting, playing, finished, closed
    has_board: bool = False
    # the player's own part, each with the table version it is for
    has_rack: bool = False
    rack_version: int | None = None
    seat: int | None = None
    hand: str = ""
    okey: str = ""
    drawn: str = ""
    rack: list[str] = field(default_factory=list)
    has_moves: bool = False
    moves_version: int | None = None
    phase: str = ""
    can: tuple[str, ...] = ()
    # 101's #my-moves: what an opening needs, how the player opened, the işlek (tile, meld)s
    need: int | None = None
    opened: str = ""
    islek: tuple[tuple[str, int], ...] = ()
    # 101's laid melds this frame shows: (index, the tiles that would take its okey back)
    melds: tuple[tuple[int, tuple[str, ...]], ...] = ()
    # a move's event
    event_kind: str = ""
    event_seat: int | None = None
    event_tile: str = ""  # data-move-tile: a tile everyone may see
    has_turn: bool = False
    turn: int | None = None  # #turn-line's data-turn: the seat on turn
    has_message: bool = False
    message: str = ""
    public_tiles: list[str] = field(default_factory=list)  # data-tile outside #rack-data
    racks: int = 0  # how many #rack-data it carries (at most one, the viewer's own)

    @property
    def attributed(self) -> int | None:
        """The table version this frame's bytes belong to (None: a refusal, a chat line)."""
        if self.version is not None:
            return self.version
        return self.moves_version if self.rack_version is None else self.rack_version


def frame_parse(text: str) -> Frame:
    f = Frame()
    m = VERSION_TAG.search(text)
    if m:
        a = _attrs(m.group(1))
        f.version = _int(a.get("version"))
        f.full, f.delta = "full" in a, "delta" in a
        f.me = _int(a.get("me"))
    m = STATUS.search(text)
    if m:
        f.has_board = True
        f.status = m.group(1)
    outside = text
    racks = RACK.findall(text)
    f.racks = len(racks)
    if racks:
        attrs, tiles = racks[0]
        a = _attrs(attrs)
        f.has_rack = True
        f.rack_version = _int(a.get("version"))
        f.seat = _int(a.get("seat"))
        f.hand, f.okey, f.drawn = a.get("hand", ""), a.get("okey", ""), a.get("drawn", "")
        f.rack = TILE.findall(tiles)
        outside = RACK.sub("", text)
    f.public_tiles = TILE.findall(outside)
    f.melds = tuple((int(i), tuple(tiles.split())) for i, tiles in MELD.findall(outside))
    m = MOVES_TAG.search(text)
    if m:
        a = _attrs(m.group(1))
        f.has_moves = True
        f.moves_version = _int(a.get("version"))
        f.phase = a.get("phase", "")
        f.can = tuple(a.get("can", "").split())
        f.need, f.opened = _int(a.get("need")), a.get("opened", "")
        f.islek = tuple(
            (tile, int(meld))
            for tile, _, meld in (p.partition(":") for p in a.get("islek", "").split())
        )
    m = EVENT_TAG.search(text)
    if m:
        a = _attrs(m.group(1))
        f.event_kind, f.event_seat = a.get("kind", ""), _int(a.get("seat"))
        f.event_tile = a.get("move-tile", "")
    m = TURN_TAG.search(text)
    if m:
        f.has_turn = True
        f.turn = _int(_attrs(m.group(1)).get("turn"))
    m = MESSAGE.search(text)
    if m:
        f.has_message = True
        f.message = html.unescape(TAG.sub("", m.group(1))).strip()
    return f


def frame_problems(f: Frame, seat: int | None) -> list[str]:
    """What a frame must never carry, told from the frame alone: more than one rack, or a rack
    of another seat than the viewer's own (``seat``; None: a spectator, who gets no rack). A
    move's frame carries the viewer's own part after its public part when the move changed it."""
    out = []
    if f.racks > 1:
        out.append(f"a frame carries {f.racks} racks")
    if f.has_rack and f.seat != seat:
        out.append(f"the rack of seat {f.seat} shown to seat {seat}")
    return out


# the moves that need the turn (pairs and the indicator's may come at other times)
TURN_MOVES = frozenset({"draw", "take", "discard", "finish"})


@dataclass
class FrameState:
    """One page's view, folded from its frames as table.js does (``frameFits``): a move's event
    fits only at the next version (a later one is a gap: the page asks for the whole table), a
    full frame at its version or later, an own part at its own version or later."""

    version: int = 0  # the table's, from the last full frame or event that fitted
    full_version: int = 0
    full_frames: int = 0
    status: str = ""
    me: int | None = None
    rack_version: int = 0
    hand: str = ""
    okey: str = ""
    drawn: str = ""
    rack: list[str] = field(default_factory=list)
    moves_version: int = 0
    phase: str = ""
    can: tuple[str, ...] = ()
    need: int | None = None  # 101 (Frame's)
    opened: str = ""
    islek: tuple[tuple[str, int], ...] = ()
    okey_for: dict[int, tuple[str, ...]] = field(default_factory=dict)  # 101's melds
    turn: int | None = None
    mine_version: int = 0  # the last event of a move made at this seat (by us or for us)
    message: str = ""  # the last refusal

    def fold(self, f: Frame) -> str:
        """Take in ``f``: "ok", or "stale" (an event already shown: dropped), or "gap" (an event
        after a missed one: dropped; the page syncs)."""
        if f.version is not None:
            if f.delta:
                if f.version <= self.version:
                    return "stale"
                if f.version > self.version + 1:
                    return "gap"
            elif f.version < self.version:
                return "stale"
            self.version = f.version
            if f.full:
                self.full_version, self.full_frames = f.version, self.full_frames + 1
                self.me = f.me
                self.okey_for = {}  # a new hand's table, or the whole of this one's
            self.okey_for.update(f.melds)
            if f.has_board:
                self.status = f.status
            if f.has_turn:
                self.turn = f.turn
            if f.delta and f.event_seat is not None and f.event_seat == self.seat:
                self.mine_version = f.version
        if f.has_rack and (f.rack_version or 0) >= self.rack_version:
            self.rack_version = f.rack_version or 0
            self.hand, self.okey, self.drawn, self.rack = f.hand, f.okey, f.drawn, f.rack
            if f.seat is not None and self.me is None:
                self.me = f.seat
        if f.has_moves and (f.moves_version or 0) >= self.moves_version:
            self.moves_version = f.moves_version or 0
            self.phase, self.can = f.phase, f.can
            self.need, self.opened, self.islek = f.need, f.opened, f.islek
        if f.has_message:
            self.message = f.message
        return "ok"

    @property
    def seat(self) -> int | None:
        return self.me

    def can_now(self) -> tuple[str, ...]:
        """The moves this player may make at ``version``: none while its own part is ahead of
        the events it has heard, or behind a move made at its seat (its own part after that move
        has not come yet); no turn's move when the turn line says another seat is on turn."""
        if not self.can or self.moves_version > self.version or self.rack_version > self.version:
            return ()
        if self.moves_version < self.mine_version or self.rack_version < self.mine_version:
            return ()
        if self.turn is not None and self.me is not None and self.turn != self.me:
            return tuple(k for k in self.can if k not in TURN_MOVES)
        return self.can
