"""Reading the table socket's HTML frames the way table.js does, with a few regular expressions.

A frame starts with #table-version (data-version); a frame with the board also carries
#rack-data: the hand, the okey, the phase, the moves the viewer may make now (data-can) and the
viewer's own tiles (data-tile). A refusal carries a non-empty #table-message.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

VERSION = re.compile(r'id="table-version"[^>]*data-version="(\d+)"')
RACK = re.compile(r'<div id="rack-data"([^>]*)>(.*?)</div>', re.S)
ATTR = re.compile(r'data-([a-z]+)="([^"]*)"')
TILE = re.compile(r'data-tile="([A-Z0-9]+)"')
STATUS = re.compile(r'id="table-board"[^>]*class="[^"]*\bstatus-([a-z]+)')
MESSAGE = re.compile(r'<div id="table-message"[^>]*>(.*?)</div>', re.S)
TAG = re.compile(r"<[^>]+>")


@dataclass
class Frame:
    version: int | None = None
    has_board: bool = False
    status: str = ""  # the table's: open, starting, playing, finished, closed
    hand: str = ""
    okey: str = ""
    phase: str = ""
    can: tuple[str, ...] = ()
    rack: list[str] = field(default_factory=list)
    message: str = ""


def frame_parse(text: str) -> Frame:
    f = Frame()
    m = VERSION.search(text)
    if m:
        f.version = int(m.group(1))
    m = STATUS.search(text)
    if m:
        f.status = m.group(1)
    m = RACK.search(text)
    if m:
        f.has_board = True
        attrs = dict(ATTR.findall(m.group(1)))
        f.hand = attrs.get("hand", "")
        f.okey = attrs.get("okey", "")
        f.phase = attrs.get("phase", "")
        f.can = tuple(attrs.get("can", "").split())
        f.rack = TILE.findall(m.group(2))
    m = MESSAGE.search(text)
    if m:
        f.message = html.unescape(TAG.sub("", m.group(1))).strip()
    return f
