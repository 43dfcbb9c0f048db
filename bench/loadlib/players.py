"""Simulated players: one WebSocket client each, as a browser tab with table.js would be.

A SitePlayer folds the HTML frames of ws/table/<id>/ into its page's state (bench/loadlib/frames:
full frames, moves' public events, its own rack and moves), and when that state says it may draw
or discard it waits its think time and sends the move a click would send (with the table version
it shows and a fresh idempotency key): draw from the stock, then finish if the engine finds a
finishing tile in its own rack, else discard its loosest tile (``loose_tile``), or the engine's
best discard with ``engine_discards``. The harness shares the machine's cores with the servers it
measures, and the engine's choice cost it 0.5-0.7 ms a discard, a third of its CPU at
saturation, where a bare player chooses nothing: a person's choice is made on their own device. A mover hears its own
move as everyone does, through the move's event; its own part (rack, moves) comes apart from it,
in either order, and it moves again only once both are in. A BarePlayer does the same turn
taking against bench/bare, whose frames are just {"version": n}.

Each frame's bytes (UTF-8) count for the table version they belong to (a full frame's or an
event's version, an own part's data-version), so that the run can tell how many bytes a player
receives for one move; a frame that carries a rack of another seat, or a move's public event that
carries a rack at all, is an error.

Pacing is per table: with ``rate`` > 0 a move is sent no sooner than an interval after the
table's previous one (and at least ``think`` after the frame that allowed it), so a table makes
``rate`` moves a second; rate 0 sends as fast as the answers come (saturation). The interval is
1/rate times a factor drawn between 1 - jitter and 1 + jitter, and a table's first move waits a
random part of one interval: players do not all think for exactly one second, and tables do not
start together. With jitter 0 every table keeps a strict beat from its first move, and the tables
that connect in the same batch (25 at a time) keep moving close together: in a 100-table run at
one move a second (2026-12-02) up to 37 moves went out within 50 ms, against 14-18 with jitter
0.5, and the server met those bursts.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections import deque
from dataclasses import dataclass

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from games import engine
from games.engine.tiles import FAKE

from .frames import FrameState, frame_parse, frame_problems
from .stats import Recorder

ANSWER_TIMEOUT = 10.0
# A player sends at most PLAYER_BURST moves in any PLAYER_WINDOW seconds: the site closes a socket
# that sends more than 15 messages in a second (games.realtime.sockets.FLOOD_LIMIT), which a table that
# played alone as fast as the answers came reached once in a saturating run (8 turns of one player
# in under a second). Below that, as in every run's steady state, it never waits.
PLAYER_BURST = 12
PLAYER_WINDOW = 1.0
GAP_SYNC_EVERY = 1.0  # a player that sees a gap in the versions asks again at most this often


@dataclass
class TablePace:
    rate: float  # moves per second per table; 0: as fast as possible
    think: float  # at least this long after the frame that gave the turn
    jitter: float = 0.0  # each interval is 1/rate times 1 +- up to this
    last_sent: float = 0.0
    planned: float = 0.0  # when the move being thought about is due

    def delay(self, rng: random.Random) -> float:
        now = time.perf_counter()
        wait = self.think * (0.8 + 0.4 * rng.random()) if self.think else 0.0
        if self.rate > 0:
            interval = 1.0 / self.rate
            if not self.last_sent:  # the table's first move: a random phase
                wait = max(wait, interval * rng.random() if self.jitter else 0.0)
            else:
                interval *= 1.0 + self.jitter * (2.0 * rng.random() - 1.0)
                wait = max(wait, self.last_sent + interval - now)
        wait = max(0.0, wait)
        self.planned = now + wait
        return wait

    def sent(self) -> None:
        """A move went out: the next is paced from when this one was due, not from when the
        harness's busy loop got round to it, so that its lag does not lower the offered rate."""
        self.last_sent = min(self.planned, time.perf_counter())


class Player:
    kind = "?"

    def __init__(self, *, url, origin, table, seat, cookie, recorder: Recorder, pace, rng,
                 play=True, heartbeat=0.0, heartbeat_quiet=0.0, reconnect=True):  # fmt: skip
        self.url, self.origin, self.table, self.seat = url, origin, table, seat
        self.cookie, self.rec, self.pace, self.rng = cookie, recorder, pace, rng
        self.play_moves, self.heartbeat, self.reconnect = play, heartbeat, reconnect
        self.heartbeat_quiet = heartbeat_quiet or heartbeat
        self.heard_at = 0.0  # the last frame, or the last heartbeat sent
        self.status = ""  # the table's, from the last board frame
        self.version = 0  # the table's, as this player's page shows it
        self.state = None
        self.synced_at = 0.0  # the last sync sent for a gap
        self.inflight: int | None = None  # the version our move should reach
        self.inflight_since = 0.0
        self.moving: asyncio.Task | None = None
        self.sent_times: deque[float] = deque(maxlen=PLAYER_BURST)  # of this player's moves
        self.ws = None
        self.connected = asyncio.Event()
        self.frames = 0
        self.closed_codes: list[int] = []
        self.opened_at: list[float] = []  # perf_counter of each (re)connection
        self.skip_chance = 0.0  # a sleepy player lets this share of its turns time out
        self._turn_seen: tuple | None = None
        self._skipping = False

    # --- to be filled by each kind ----------------------------------------------------------

    def parse(self, text: str):
        raise NotImplementedError

    def move_choose(self):
        """The message to send now, or None when it is not this player's turn."""
        raise NotImplementedError

    def may_move(self) -> bool:
        """Whether move_choose would choose a move now (cheaper than choosing it)."""
        return self.move_choose() is not None

    # --- the loop -----------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        headers = {"Cookie": f"sessionid={self.cookie}"} if self.cookie else {}
        while not stop.is_set():
            try:
                async with connect(
                    self.url,
                    origin=self.origin,
                    additional_headers=headers,
                    ping_interval=None,  # browsers do not ping; daphne pings us
                    max_size=2**23,
                    open_timeout=30,
                ) as ws:
                    self.ws = ws
                    self.opened_at.append(time.perf_counter())
                    self.connected.set()
                    await self._session(ws, stop)
                    if not stop.is_set():
                        code = ws.close_code
                        self.closed_codes.append(code)
                        self.rec.error(f"{self.kind} socket closed by the server ({code})")
            # WebSocketException: also a handshake the server dropped unanswered (daphne closes
            # one its application has not accepted within websocket_connect_timeout, 5 s); left
            # uncaught it ended this player, and the harness waited for it to connect forever
            except (OSError, TimeoutError, WebSocketException) as e:
                code = getattr(getattr(e, "rcvd", None), "code", None)
                if code is not None:
                    self.closed_codes.append(code)
                if not stop.is_set():
                    self.rec.error(f"{self.kind} socket: {type(e).__name__}", str(e))
            finally:
                self.ws = None
                self.connected.clear()
                if self.moving:
                    self.moving.cancel()
                    self.moving = None
                self.inflight = None
            if not self.reconnect or stop.is_set():
                return
            await asyncio.sleep(0.5 + self.rng.random())

    async def _session(self, ws, stop: asyncio.Event) -> None:
        beat = asyncio.create_task(self._heartbeat(ws)) if self.heartbeat else None
        try:
            async for text in ws:  # ends when the harness closes the socket at the stop
                self.on_frame(text)
        finally:
            if beat:
                beat.cancel()

    async def close(self) -> None:
        ws = self.ws
        if ws is not None:
            await ws.close()

    async def _heartbeat(self, ws) -> None:
        """table.js's heartbeat: ask after ``heartbeat`` seconds without a frame while the game is
        on (or starting), after ``heartbeat_quiet`` seconds at any other table."""
        self.heard_at = time.perf_counter() - self.rng.random() * self.heartbeat_quiet
        while True:
            await asyncio.sleep(self.heartbeat / 3)
            live = self.status in ("starting", "playing")
            if time.perf_counter() - self.heard_at < (
                self.heartbeat if live else self.heartbeat_quiet
            ):
                continue
            self.heard_at = time.perf_counter()
            await ws.send(json.dumps({"action": "sync", "version": self.version}))

    def watchdog(self) -> None:
        """Called every second or so: a move left unanswered is an error; ask for the view."""
        if self.inflight is not None and time.perf_counter() - self.inflight_since > ANSWER_TIMEOUT:
            self.rec.error(f"{self.kind}: no answer to a move within {ANSWER_TIMEOUT:.0f} s")
            self.inflight = None
            asyncio.ensure_future(self._send({"action": "sync", "version": self.version}))

    def absorb(self, text: str) -> tuple[int | None, str, bool]:
        """Fold one frame into what this player knows (``version``, ``status``, ``state``):
        (the table version its bytes belong to or None, a refusal's text or "", whether it
        showed a gap in the versions, which a sync should heal)."""
        raise NotImplementedError

    def on_frame(self, text: str) -> None:
        self.frames += 1
        self.heard_at = time.perf_counter()
        before = self.version
        attributed, message, gap = self.absorb(text)
        if attributed is not None:
            self.rec.frame_bytes(self.table, self.seat, attributed, len(text.encode()))
        if self.version > before:
            self.rec.frame_seen(self.table, self.seat, before, self.version)
        if gap and time.perf_counter() - self.synced_at > GAP_SYNC_EVERY:
            # as table.js does: the event after a missed one is dropped, the page asks anew
            self.synced_at = time.perf_counter()
            asyncio.ensure_future(self._send({"action": "sync", "version": self.version}))
        if message:
            self.rec.error(f"{self.kind}: refused", message)
            self.inflight = None
        if self.inflight is not None and self.version >= self.inflight:
            self.rec.move_done(self.table, self.inflight)
            self.inflight = None
        self._maybe_move()

    def _maybe_move(self) -> None:
        if not self.play_moves or self.inflight is not None or self.moving is not None:
            return
        if not self.may_move():
            self._turn_seen = None
            return
        if self.skip_chance:
            turn = self.turn_key()
            if turn != self._turn_seen:  # a new turn: sleep through it or not, once
                self._turn_seen = turn
                self._skipping = self.rng.random() < self.skip_chance
            if self._skipping:
                return
        self.moving = asyncio.ensure_future(self._move_later())

    async def _move_later(self) -> None:
        try:
            wait = self.pace.delay(self.rng)
            if len(self.sent_times) == PLAYER_BURST:
                wait = max(wait, self.sent_times[0] + PLAYER_WINDOW - time.perf_counter())
            await asyncio.sleep(wait)
            message = self.move_choose()  # the state may have moved on while we thought
            if message is None or self.ws is None:
                return
            self.inflight = self.version + 1
            self.inflight_since = time.perf_counter()
            self.pace.sent()
            self.sent_times.append(time.perf_counter())
            self.rec.move_sent(self.table, self.inflight, self.seat)
            await self._send(message)
        finally:
            self.moving = None
        if self.inflight is None:
            self._maybe_move()

    async def _send(self, message: dict) -> None:
        ws = self.ws
        if ws is None:
            return
        try:
            await ws.send(json.dumps(message))
        except ConnectionClosed:
            pass


def loose_tile(rack: list[int], okey: int) -> int:
    """The tile with the fewest partners in the rack (the same number in another colour, or the
    same colour within two), never the okey or a fake okey; on a tie the highest."""

    def partners(t: int) -> int:
        if t == okey or t == FAKE:
            return len(rack)
        colour, number = divmod(t, 13)
        return sum(
            1
            for u in rack
            if u != t
            and u != FAKE
            and (
                (u // 13 != colour and u % 13 == number)
                or (u // 13 == colour and abs(u % 13 - number) <= 2)
            )
        )

    return min(rack, key=lambda t: (partners(t), -t))


class SitePlayer(Player):
    """Reads the site's HTML frames into a FrameState, as table.js swaps them into the page: a
    full frame, a move's public event (data-delta), the player's own part (rack and moves)."""

    kind = "site"

    def __init__(self, *, engine_discards=False, **kwargs):
        super().__init__(**kwargs)
        self.engine_discards = engine_discards
        self.state = FrameState()
        self.full_at = 0.0  # perf_counter of the last full frame that fitted

    def turn_key(self):
        f = self.state
        return (f.hand, len(f.rack))

    def absorb(self, text):
        f = frame_parse(text)
        for problem in frame_problems(f, self.seat if self.cookie else None):
            self.rec.error(f"{self.kind}: {problem}", text[:200])
        fit = self.state.fold(f)
        if fit == "ok" and f.full:
            self.full_at = time.perf_counter()
        self.version = self.state.version
        self.status = self.state.status or self.status
        return f.attributed, f.message, fit == "gap"

    def may_move(self) -> bool:
        # the engine's choice of a discard takes milliseconds of the harness's loop: made once,
        # when the move is sent
        f = self.state
        can = f.can_now()
        return "draw" in can or ("discard" in can and bool(f.rack) and bool(f.okey))

    def move_choose(self):
        f = self.state
        can = f.can_now()
        if not can:
            return None
        message = {"action": "move", "version": self.version, "key": uuid.uuid4().hex}
        if "draw" in can:
            return {**message, "kind": "draw"}
        if "discard" not in can or not f.rack or not f.okey:
            return None
        rack = [engine.parse_tile(t) for t in f.rack]
        okey = engine.parse_tile(f.okey)
        done = engine.finishes(rack, okey) if len(rack) == 15 else {}
        if done:
            tile, kind = min(done.items()), "finish"
            tile = tile[0]
        else:
            choose = engine.best_discard if self.engine_discards else loose_tile
            tile, kind = choose(rack, okey), "discard"
        return {**message, "kind": kind, "tile": engine.format_tile(tile)}


class Player101(SitePlayer):
    """A player at a 101 table, reading the same frames plus 101's #my-moves (what an opening
    needs, how it opened, its işlek tiles). On its turn, one move at a time, as a person plays:
    draw; open with its best melds once they reach the threshold (the engine's ``best_melds``),
    and once open lay any further melds; add each tile the page marks as işlek to its meld (or
    take back that meld's okey with it);
    then discard its loosest tile that is neither işlek nor the okey."""

    def turn_key(self):
        f = self.state
        return (f.hand, f.turn)

    def may_move(self) -> bool:
        f = self.state
        return bool(f.can_now()) and bool(f.rack) and bool(f.okey)

    def move_choose(self):
        f = self.state
        can = f.can_now()
        if not can or not f.rack or not f.okey:
            return None
        message = {"action": "move", "version": self.version, "key": uuid.uuid4().hex}
        if "draw" in can:
            return {**message, "kind": "draw"}
        rack = [engine.parse_tile(t) for t in f.rack]
        okey = engine.parse_tile(f.okey)
        if "lay" in can and f.opened in ("none", "melds"):
            groups = melds_to_lay(rack, okey)
            if groups and (f.opened == "melds" or melds_value(groups, okey) >= (f.need or 101)):
                groups = [[engine.format_tile(t) for t in g] for g in groups]
                return {**message, "kind": "lay", "groups": groups}
        adds = [(tile, meld) for tile, meld in f.islek if meld >= 0]
        if "add" in can and adds and len(rack) > 1:
            # an işlek tile goes on its meld, or in place of that meld's okey if it is what
            # the okey stands for there (the meld's data-okey-for)
            tile, meld = adds[0]
            kind = "take_okey" if tile in f.okey_for.get(meld, ()) else "add"
            return {**message, "kind": kind, "meld": meld, "tile": tile}
        if "discard" not in can:
            return None
        keep = {engine.parse_tile(tile) for tile, _ in f.islek} | {okey}
        pool = [t for t in rack if t not in keep] or rack
        return {**message, "kind": "discard", "tile": engine.format_tile(loose_tile(pool, okey))}


def melds_to_lay(rack: list[int], okey: int) -> list[tuple[int, ...]]:
    """The rack's best melds as its tiles (a fake okey stands for the okey's face), leaving at
    least one tile to discard (the smallest melds dropped first), as the normal bot lays them."""
    from games.engine.okey101.opening import best_melds

    left, groups = list(rack), []
    for faces, jokers in best_melds(rack, okey)[1]:
        group = [FAKE if face == okey else face for face in faces] + [okey] * jokers
        for tile in group:
            left.remove(tile)
        groups.append(tuple(group))
    groups.sort(key=len, reverse=True)
    while groups and sum(map(len, groups)) >= len(rack):
        groups.pop()
    return groups


def melds_value(groups, okey: int) -> int:
    from games.engine.okey101.table import read_meld

    return sum(read_meld(g, okey, 0).value for g in groups)


class BarePlayer(Player):
    """Turns go round as in a hand: each seat makes two moves (draw, discard) in a row."""

    kind = "bare"

    def turn_key(self):
        return self.version // 2

    def absorb(self, text):
        data = json.loads(text)
        version = data.get("version")
        if version is not None and version >= self.version:
            self.version, self.state = version, data
        return version, data.get("error", ""), False

    def move_choose(self):
        if self.state is None or (self.version // 2) % 4 != self.seat:
            return None
        return {"action": "move", "version": self.version}
