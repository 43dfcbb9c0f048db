"""Which of the project's modules one socket move runs through, from the mover's socket to the
other players' sockets, in the order they are first entered.

Run from the repository root:
    .venv/bin/python bench/move_path.py [--kind discard|draw] [--all]

Four players' sockets (Channels' WebsocketCommunicator, the in-memory channel layer) sit at a
dealt table; the player on turn sends a move as the page does, and every Python call in any
thread is watched (sys.setprofile, threading.setprofile) until each other socket has sent its
update. A module is *entered* when code of another module calls into it; the report lists each
module of the project (games/, accounts/, okeysite/) with how many times it was entered, the
engine (games/engine/) counted as the one interface the site asks. --all lists the engine's own
modules too.
"""

import argparse
import asyncio
import os
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
os.environ["PYTEST_CURRENT_TEST"] = "bench/move_path.py"  # fixed deals (games.table.seeds)
os.environ.setdefault("OKEY_TEST_SEED_HEX", "5a" * 32)


def module_of(filename: str, engine_whole: bool) -> str | None:
    try:
        rel = Path(filename).resolve().relative_to(ROOT)
    except ValueError:
        return None
    if rel.parts[0] not in ("games", "accounts", "okeysite") or rel.suffix != ".py":
        return None
    if engine_whole and rel.parts[:2] == ("games", "engine"):
        return "games/engine (the rules engine)"
    return str(rel)


class Path_:
    """Every entry into a project module, from any thread, while it watches."""

    def __init__(self, engine_whole: bool):
        self.engine_whole = engine_whole
        self.entries: list[str] = []
        self.lock = threading.Lock()

    def profile(self, frame, event, arg):
        if event != "call":
            return
        callee = module_of(frame.f_code.co_filename, self.engine_whole)
        if callee is None:
            return
        caller = frame.f_back
        while (
            caller is not None and module_of(caller.f_code.co_filename, self.engine_whole) is None
        ):
            if caller.f_code.co_filename.startswith("<"):
                break
            caller = caller.f_back
        from_module = module_of(caller.f_code.co_filename, self.engine_whole) if caller else None
        if from_module != callee:
            with self.lock:
                self.entries.append(callee)

    def start(self):
        threading.setprofile(self.profile)
        sys.setprofile(self.profile)

    def stop(self):
        sys.setprofile(None)
        threading.setprofile(None)


async def play(args):
    from asgiref.sync import sync_to_async
    from benchdb import table_of_four
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from games import engine
    from games.routing import websocket_urlpatterns
    from games.table.reads import table_rows

    # watched from the start, so that the threads Channels runs sync code in carry the profile
    # (threading.setprofile reaches only threads started after it); counted from the move on
    watched = Path_(engine_whole=not args.all)
    watched.start()
    users, table = await sync_to_async(table_of_four)(lang="en")
    app = URLRouter(websocket_urlpatterns)
    socks = []
    for user in users:
        comm = WebsocketCommunicator(app, f"/ws/table/{table.pk}/?lang=en")
        comm.scope["user"] = user
        assert (await comm.connect())[0]
        await comm.receive_from(timeout=10)  # its whole table
        socks.append(comm)
    rows = await sync_to_async(table_rows)(table.pk)
    state, seat = rows.state, rows.state.turn
    if args.kind == "discard" and state.drawn is None and len(state.racks[seat]) == 14:
        await socks[seat].send_json_to(
            {"action": "move", "kind": "draw", "version": rows.game.version}
        )
        for s in socks:
            while not await s.receive_nothing(timeout=0.3):
                pass
        rows = await sync_to_async(table_rows)(table.pk)
        state = rows.state
    move = {"action": "move", "kind": args.kind, "version": rows.game.version, "key": "k1"}
    if args.kind == "discard":
        move["tile"] = engine.format_tile(engine.best_discard(state.racks[seat], state.okey))
    with watched.lock:
        watched.entries.clear()
    await socks[seat].send_json_to(move)
    for i, s in enumerate(socks):
        if i != seat:
            await s.receive_from(timeout=10)  # the move's update reached this player
    watched.stop()
    for s in socks:
        await s.disconnect()
    return watched.entries


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", choices=("discard", "draw"), default="discard")
    parser.add_argument("--all", action="store_true", help="the engine's modules one by one")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "bench"))
    from benchdb import bench_database, bench_django

    bench_django(OKEY_TEST_SEED_HEX=os.environ["OKEY_TEST_SEED_HEX"])
    with bench_database():
        entries = asyncio.run(play(args))
    order = list(dict.fromkeys(entries))
    print(f"a socket's {args.kind}, from the mover's socket to the other players' sockets:")
    for module in order:
        print(f"  {module:<45} entered {entries.count(module)} time(s)")
    print(f"{len(order)} modules of the project")


if __name__ == "__main__":
    main()
