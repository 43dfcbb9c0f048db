"""Bad input at volume: random and malformed socket messages and POSTs never change state,
never crash the server and never reveal a tile.

    .venv/bin/python bench/badinput.py                       # ~60 s, about 10,000 messages
    .venv/bin/python bench/badinput.py --seconds 20 --sockets 12

It starts the site with bin/run (DEBUG=0) on --port (8540) on its own database (recreated), deals
two four-player tables (turn_seconds 120, so no timeout plays during the run), and then, from the
four players of table 1, an outsider and anonymous visitors, sends for --seconds:
- over the table sockets: non-JSON text, binary frames, JSON that is not an object, unknown or
  missing actions, moves with wrong kinds, tiles, versions, keys and extra seat fields, moves for
  another table's socket, chat with wrong types or too long, huge payloads (up to 1 MB), and the
  occasional burst past the flood limit;
- over HTTP: move, sit, leave, start, bot and back POSTs with bad, missing or huge fields, for
  both tables and for tables that do not exist, with and without the CSRF token; arrange GETs.
A message that could be a legal move is never sent with the table's current version by the player
whose turn it is, nor a move allowed out of turn (declaring pairs) by anyone: those would be real
moves, which may change state. Forms without a version, or with a garbled one, are sent: the site
refuses a player's move that names no version.

Then it checks: every table row, seat, hand, move and chat message is exactly as before; daphne
is the same process, /healthz answers 200, no HTTP answer was a 5xx and no socket was closed with
1011; every rack tile any frame or answer showed belongs to the viewer's own rack (none to an
outsider), in #rack-data only: outside it a frame shows only public tiles (the piles, the
indicator, the okey); no seed or stock tile order
appeared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.loadlib import accounts, procs  # noqa: E402
from bench.loadlib.frames import RACK, TILE  # noqa: E402
from bench.loadlib.stats import loadavg  # noqa: E402

KINDS = ["draw", "take", "discard", "finish", "show", "pairs", "take_indicator", "DRAW", "",
         "x" * 300, None, 7, [], {}]  # fmt: skip
TILES = ["R7", "K13", "F", "Z9", "R0", "R14", "", " ", "r7", "R07", "<b>", "R7" * 50, None, 13,
         ["R7"], {"t": 1}, 1.5, True, "ŞĞ", "\x00"]  # fmt: skip
ODD = [None, -1, 0, 2**31, 10**30, 1.5, True, False, "", "x", "12a", [], {}, "9" * 500]
# moves a seated player may make even when it is not their turn (docs/rules.md: going for pairs
# is declared at any time): never sent with the table's current version
OUT_OF_TURN = ("pairs", "show", "take_indicator")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--sockets", type=int, default=16, help="attacking sockets")
    p.add_argument("--rate", type=float, default=10.0, help="messages a second per socket")
    p.add_argument("--port", type=int, default=8540)
    p.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/okey_load_bad")
    p.add_argument("--redis-url", default=procs.DEFAULT_REDIS_URL)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--json")
    return p.parse_args(argv)  # fmt: skip


def snapshot(table_ids) -> dict:
    """Every row a refused message must leave alone."""
    from django.db import close_old_connections

    from games.models import ChatMessage, Game, Hand, Move, Seat, Table

    try:
        return {
            "tables": list(Table.objects.filter(pk__in=table_ids).order_by("pk").values()),
            "games": list(Game.objects.filter(table_id__in=table_ids).order_by("pk").values()),
            "seats": list(Seat.objects.filter(table_id__in=table_ids).order_by("pk").values()),
            "hands": list(
                Hand.objects.filter(game__table_id__in=table_ids).order_by("pk").values()
            ),
            "moves": Move.objects.filter(hand__game__table_id__in=table_ids).count(),
            "chat": ChatMessage.objects.filter(table_id__in=table_ids).count(),
        }
    finally:
        close_old_connections()


class Knowledge:
    """What the harness knows so it can tell a leak: racks, stock, seeds, the current versions."""

    def __init__(self, table_ids, users):
        from games import engine
        from games.models import Game, Hand, Seat

        self.rack: dict[int, Counter] = {}  # user id -> own tiles
        self.secrets: list[str] = []
        self.version: dict[int, int] = {}
        self.turn_user: dict[int, int] = {}
        self.seated: dict[int, set[int]] = {}  # table -> the users seated there
        # the tiles anyone may see: the piles, the indicators, the okeys (and a move's
        # data-move-tile, one of them, which is not a data-tile)
        self.public: set[str] = set()
        for t in table_ids:
            game = Game.objects.get(table_id=t)
            hand = Hand.objects.filter(game=game).order_by("-number").first()
            state = engine.hand_from_dict(hand.state)
            self.version[t] = game.version
            seats = {s.index: s.user_id for s in Seat.objects.filter(table_id=t)}
            self.turn_user[t] = seats[state.turn]
            self.seated[t] = set(seats.values())
            for index, uid in seats.items():
                self.rack[uid] = Counter(engine.format_tile(x) for x in state.racks[index])
            self.public |= {engine.format_tile(x) for pile in state.discards for x in pile}
            self.public |= {engine.format_tile(state.indicator), engine.format_tile(state.okey)}
            self.secrets.append(bytes(hand.seed).hex())
            # the next 12 stock tiles, in order, as they would be written out
            self.secrets.append(" ".join(engine.format_tile(x) for x in state.stock[-12:]))

    def leaks(self, text: str, uid: int | None) -> list[str]:
        """A frame (or page) may carry public tiles anywhere, and in #rack-data only the
        viewer's own tiles."""
        out = []
        own = self.rack.get(uid, Counter()) if uid else Counter()
        for m in RACK.finditer(text):
            shown = Counter(TILE.findall(m.group(2)))
            if shown - own:
                out.append(f"rack tiles {sorted((shown - own).elements())} shown to user {uid}")
        foreign = sorted(set(TILE.findall(RACK.sub("", text))) - self.public)
        if foreign:
            out.append(f"tiles {foreign} outside #rack-data shown to user {uid}")
        for secret in self.secrets:
            if secret and secret in text:
                out.append(f"a secret ({secret[:16]}…) shown to user {uid}")
        return out


def message_random(rng: random.Random, table: int, version: int, is_mover: bool) -> str | bytes:
    """One bad message for a table socket."""
    r = rng.random()
    if r < 0.08:
        return bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 64)))
    if r < 0.16:
        return rng.choice(["", "{", "}", "null", "[]", "123", '"move"', "{'action': 'move'}",
                           "\ud800" if False else "\x00\x01", "{" * 1000, "NaN", "true"])  # fmt: skip
    if r < 0.20:
        return json.dumps({"action": "move", "kind": "draw", "version": version - 1,
                           "pad": "x" * rng.choice([2_000, 50_000, 1_000_000])})  # fmt: skip
    if r < 0.30:
        return json.dumps({"action": rng.choice(["", "MOVE", "moves", None, 1, [], "sync "])})
    if r < 0.40:
        return json.dumps({"action": "chat", "text": rng.choice([None, 5, [], {}, "", "x" * 201,
                                                                   "a" * 5000])})  # fmt: skip
    if r < 0.45:
        return json.dumps({"action": "sync", "version": rng.choice(ODD)})
    move = {"action": "move", "kind": rng.choice(KINDS), "tile": rng.choice(TILES)}
    if rng.random() < 0.2:
        move["seat"] = rng.choice([0, 1, 2, 3, -1, "0", None])
    if rng.random() < 0.3:
        move["key"] = rng.choice([None, 5, [], "k" * 65, "k" * 10_000, "same-key"])
    choices = [version - 1, version + 1, version + 1000, *ODD]
    if not is_mover:
        choices += [version, str(version)]
    move["version"] = rng.choice(choices)
    if move["version"] in (version, str(version)) and move["kind"] in OUT_OF_TURN:
        move["version"] = version - 1  # declaring pairs is a real move at any time
    return json.dumps(move)


def form_random(rng: random.Random, version: int, is_mover: bool) -> dict:
    form = {}
    for name, values in (
        ("kind", KINDS[:9] + ["", "draw;drop"]),
        ("tile", ["R7", "Z1", "", "R" * 5000, "F", "K13"]),
        ("seat", ["0", "1", "3", "4", "-1", "x", "9" * 40, ""]),
        ("key", ["", "k" * 65, "abc"]),
        ("version", [str(version - 1), str(version + 1), "x", "", "1e9", "-5", "9" * 400]),
    ):
        if rng.random() < 0.8:
            v = rng.choice(values)
            form[name] = str(v) if v is not None else ""
    if not is_mover:
        if rng.random() < 0.3 and form.get("kind") not in OUT_OF_TURN:
            form["version"] = str(version)
        elif form.get("kind") in OUT_OF_TURN and form.get("version") == str(version):
            form["version"] = str(version - 1)
    elif form.get("version") == str(version):
        form["version"] = str(version - 1)  # the mover never sends a move that could apply
    return form


class Http:
    """A tiny cookie-keeping client (one per user)."""

    def __init__(self, base: str, session: str | None):
        self.base = base
        self.cookies = {"sessionid": session} if session else {}
        self.statuses: Counter = Counter()
        self.bodies = 0

    def request(self, path, data=None, method=None, csrf=True):
        headers = {"Origin": self.base, "Referer": self.base + path}
        if data is not None:
            if csrf and "csrftoken" in self.cookies and isinstance(data, dict):
                data = {**data, "csrfmiddlewaretoken": self.cookies["csrftoken"]}
            body = urllib.parse.urlencode(data).encode() if isinstance(data, dict) else data
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        else:
            body = None
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        req = urllib.request.Request(self.base + path, data=body, headers=headers, method=method)
        opener = urllib.request.build_opener(accounts.NoRedirect)
        try:
            resp = opener.open(req, timeout=30)
        except urllib.error.HTTPError as e:
            resp = e
        for h in resp.headers.get_all("Set-Cookie") or []:
            name, _, rest = h.partition("=")
            self.cookies[name.strip()] = rest.split(";")[0]
        self.statuses[resp.status] += 1
        text = resp.read().decode("utf-8", "replace")
        self.bodies += 1
        return resp.status, text


def http_attack(args, base, tables, ghost, users, cookies, know, stop_at, rng, leaks, counts):
    """Runs in a thread: bad POSTs and GETs from every kind of visitor."""
    clients = [(u.pk, Http(base, c)) for u, c in zip(users, cookies, strict=True)]
    clients.append((None, Http(base, None)))
    for uid, c in clients:  # the table page sets the CSRF cookie, and is checked for leaks too
        status, text = c.request(f"/table/{tables[0]}/")
        leaks += know.leaks(text, uid)
    paths = ["move", "sit", "leave", "start", "bot", "back"]
    while time.monotonic() < stop_at:
        uid, c = rng.choice(clients)
        table = rng.choice([*tables, ghost, 0])
        is_mover = uid is not None and know.turn_user.get(table) == uid
        version = know.version.get(table, 5)
        r = rng.random()
        if r < 0.1:
            status, text = c.request(
                f"/table/{table}/arrange/?how={rng.choice(['runs', 'pairs', 'x', ''])}"
            )
        elif r < 0.15:
            status, text = c.request(
                f"/table/{table}/move/", data=b"x" * rng.choice([10, 100_000, 3_000_000])
            )
        else:
            path = rng.choice(paths)
            if path in ("back", "leave") and uid in know.seated.get(table, ()):
                # "I'm back" and leaving (giving the game up, issue 42) are real actions for a
                # seated player: not bad input; sitting again is refused
                path = "sit"
            form = form_random(rng, version, is_mover)
            if path == "bot":
                form["action"] = rng.choice(["add", "remove", "x", ""])
            status, text = c.request(f"/table/{table}/{path}/", data=form, csrf=rng.random() < 0.9)
        counts["http"] += 1
        leaks += know.leaks(text, uid)
    return [c.statuses for _, c in clients]


async def socket_attack(args, port, tables, ghost, users, cookies, know, stop_at, rng, leaks,
                        counts, closes):  # fmt: skip
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    visitors = [(u.pk, c) for u, c in zip(users, cookies, strict=True)] + [(None, None)]

    async def one(k):
        r = random.Random(rng.random())
        uid, cookie = visitors[k % len(visitors)]
        table = tables[0] if k % 3 else r.choice([*tables, ghost])
        headers = {"Cookie": f"sessionid={cookie}"} if cookie else {}
        while time.monotonic() < stop_at:
            try:
                async with connect(
                    f"ws://127.0.0.1:{port}/ws/table/{table}/?lang=en",
                    origin=f"http://127.0.0.1:{port}",
                    additional_headers=headers,
                    ping_interval=None,
                    max_size=2**24,
                ) as ws:
                    reader = asyncio.create_task(read(ws, uid))
                    while time.monotonic() < stop_at and not reader.done():
                        burst = r.random() < 0.01  # past the flood limit now and then
                        for _ in range(25 if burst else 1):
                            msg = message_random(
                                r, table, know.version.get(table, 5),
                                uid is not None and know.turn_user.get(table) == uid,
                            )  # fmt: skip
                            await ws.send(msg)
                            counts["socket"] += 1
                        await asyncio.sleep(1 / args.rate)
                    reader.cancel()
            except InvalidStatus as e:
                closes[f"refused {e.response.status_code}"] += 1
                await asyncio.sleep(0.5)
            except ConnectionClosed as e:
                closes[str(e.rcvd.code if e.rcvd else "no close frame")] += 1
                await asyncio.sleep(0.2)
            except OSError as e:
                closes[type(e).__name__] += 1
                await asyncio.sleep(0.5)

    async def read(ws, uid):
        try:
            async for text in ws:
                counts["frames"] += 1
                if isinstance(text, str):
                    leaks.extend(know.leaks(text, uid))
        except ConnectionClosed as e:
            closes[str(e.rcvd.code if e.rcvd else "no close frame")] += 1

    await asyncio.gather(*(one(k) for k in range(args.sockets)))


def main(argv=None):
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # still stop what we started
    rng = random.Random(args.seed)
    env = procs.site_env(args.database_url, args.redis_url)
    procs.db_recreate(args.database_url)
    log_dir = ROOT / "var" / "load" / "bad-logs"
    shutil.rmtree(log_dir, ignore_errors=True)  # the server log is read for tracebacks below
    stack = procs.Stack(env=dict(env), log_dir=log_dir)
    base = f"http://127.0.0.1:{args.port}"
    print(f"load average at the start: {loadavg()}", flush=True)
    try:
        stack.site_run("127.0.0.1", args.port)
        daphne = stack.processes()["daphne"][0]
        daphne_pid, daphne_started = daphne.pid, daphne.create_time()
        accounts.django_setup(env)
        from games.models import Table

        players = accounts.users_create(f"bad-{int(time.time())}", 9)
        table_ids = accounts.tables_create(players[:8], options={"turn_seconds": 120})
        ghost = Table.objects.order_by("-pk").first().pk + 1000
        users = players[:4] + [players[8]]  # table 1's four players and an outsider
        cookies = [accounts.session_cookie(u) for u in users]
        know = Knowledge(table_ids, users)
        before = snapshot(table_ids)
        leaks: list[str] = []
        counts: Counter = Counter()
        closes: Counter = Counter()
        stop_at = time.monotonic() + args.seconds
        t0 = time.monotonic()

        async def run():
            http = asyncio.to_thread(
                http_attack, args, base, table_ids, ghost, users, cookies, know, stop_at,
                random.Random(rng.random()), leaks, counts,
            )  # fmt: skip
            sockets = socket_attack(
                args, args.port, table_ids, ghost, users, cookies, know, stop_at, rng, leaks,
                counts, closes,
            )  # fmt: skip
            statuses, _ = await asyncio.gather(http, sockets)
            return statuses

        statuses = asyncio.run(run())
        elapsed = time.monotonic() - t0
        after = snapshot(table_ids)
        http_status = sum(statuses, Counter())
        alive = daphne.is_running() and daphne.create_time() == daphne_started
        health = urllib.request.urlopen(base + "/healthz", timeout=10).status
        changed = [k for k in before if before[k] != after[k]]
        log = (ROOT / "var" / "load" / "bad-logs" / "run.log").read_text(errors="replace")
        # Django logs a too-big body (the 3 MB POSTs: a 400) with its traceback; a crash is a
        # 500 ("Internal Server Error") or a consumer that raised ("Exception inside application").
        crashes = log.count("Internal Server Error") + log.count("Exception inside application")
        result = {
            "seconds": round(elapsed, 1),
            "socket_messages": counts["socket"],
            "http_requests": counts["http"],
            "frames_received": counts["frames"],
            "http_statuses": {str(k): v for k, v in sorted(http_status.items())},
            "socket_closes": dict(closes),
            "state_changed": changed,
            "leaks": leaks[:20],
            "leak_count": len(leaks),
            "daphne_same_process": alive,
            "daphne_pid": daphne_pid,
            "healthz": health,
            "http_5xx": sum(v for k, v in http_status.items() if k >= 500),
            "socket_1011": closes.get("1011", 0),
            "crashes_in_server_log": crashes,
            "too_big_bodies_refused": log.count("Request body exceeded"),
            "loadavg": loadavg(),
        }
    finally:
        stack.stop()
    print(json.dumps(result, indent=1))
    ok = (
        not changed and not leaks and alive and health == 200 and not result["http_5xx"]
        and not result["socket_1011"] and not result["crashes_in_server_log"]
    )  # fmt: skip
    print("verdict:", "no state change, no crash, no tile shown" if ok else "FAILED")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
