"""One read of a table per version per process, shared by every socket that shows it.

After a move, each socket at the table renders its own viewer's view ("notify, then pull"). The
rows those views are made of are the same for all of them, so the first socket to ask for a
version reads them (selectors.table_snapshot) and the others reuse that read. A snapshot is
reused only for a request that names a version it already has (a group message "table 7 is now
at version 42"); a socket that connects or asks to sync reads the database afresh. Snapshots are
never written to; the cache keeps the latest one of each recently shown table.

The process that applies a move already holds the table as the move left it (``move_submit``
read it under the table's lock), so once the move commits it stores that as the next snapshot
(``snapshot_after_move``) and its sockets render the move without reading the table again.

Renders can run in more than one thread (database_sync_to_async, HTTP views), so one read per
table is in flight at a time and a thread that asks meanwhile waits for it instead of reading
the same rows again.
"""

import copy
import threading
from collections import OrderedDict

from games.engine import HandState
from games.models import Game, Table
from games.selectors import TableSnapshot, table_snapshot

CACHED_TABLES = 2000

_cache: OrderedDict[int, TableSnapshot] = OrderedDict()
_lock = threading.Lock()
_reading: dict[int, threading.Lock] = {}  # table -> held while one thread reads it


def _latest(table_id: int) -> TableSnapshot | None:
    with _lock:
        return _cache.get(table_id)


def _cached(table_id: int, at_least: int | None) -> TableSnapshot | None:
    if at_least is None:
        return None
    snap = _latest(table_id)
    return snap if snap is not None and snap.version >= at_least else None


def snapshot_cached(table_id: int, at_least: int) -> TableSnapshot | None:
    """The stored snapshot at version ``at_least`` or later, without reading: None if this
    process holds none that recent."""
    return _cached(table_id, at_least)


def snapshot_hand_state(table_id: int) -> tuple[tuple[int, int, str], HandState] | None:
    """((id, version, commitment), engine state) of the hand being played in this process's
    snapshot of the table, of any version; None when there is none. A move passes the first
    part to its read, which then leaves out a state that is still this one
    (rows.move_rows_locked)."""
    snap = _latest(table_id)
    if snap is None or snap.hand is None or snap.state is None or snap.hand.over:
        return None
    hand = snap.hand
    return (hand.pk, hand.version, hand.commitment), snap.state


def snapshot_get(table_id: int, at_least: int | None = None) -> TableSnapshot | None:
    """The table at version ``at_least`` or later (None: as it is now); None if it is gone."""
    snap = _cached(table_id, at_least)
    if snap is not None:
        return snap
    with _lock:
        reading = _reading.setdefault(table_id, threading.Lock())
    with reading:
        snap = _cached(table_id, at_least)  # read by another thread while this one waited
        if snap is not None:
            return snap
        return _read(table_id)


def _read(table_id: int) -> TableSnapshot | None:
    table = Table.objects.select_related("game").filter(pk=table_id).first()
    if table is None:
        with _lock:
            _cache.pop(table_id, None)
        return None
    _game_unlink(table.game)  # select_related cached the table on its game too
    snap = table_snapshot(table)
    _store(snap)
    return snap


def _game_unlink(game: Game) -> None:
    """Drop ``game``'s cached table. A Table and its Game that cache each other are a reference
    cycle, which only the cyclic garbage collector frees, in the full walks that stop the process
    (okeysite/gc_pauses.py): every move left one behind, in the snapshot it replaced. Nothing
    that reads a snapshot goes from the game back to its table."""
    link = Game._meta.get_field("table")
    if link.is_cached(game):
        link.delete_cached_value(game)


def _store(snap: TableSnapshot) -> None:
    table_id = snap.table.pk
    with _lock:
        old = _cache.get(table_id)
        if old is None or old.version <= snap.version:
            _cache[table_id] = snap
            _cache.move_to_end(table_id)
            while len(_cache) > CACHED_TABLES:
                gone, _ = _cache.popitem(last=False)
                _reading.pop(gone, None)


def snapshot_after_move(game, hand, state) -> None:
    """Store the table as a committed move left it, when this process holds the snapshot of the
    version just before it: the move changed the hand (and the game's version and deadline)
    and nothing else, so the seats, the game's scores and the invites carry over.

    ``game`` (with its ``table``) and ``hand`` are the rows the move saved, ``state`` the hand's
    new engine state. The caller leaves out moves that changed more: a hand's end (scores,
    maybe the table's status) and a player coming back from away (their seat)."""
    table = game.table
    old = _latest(table.pk)
    if old is None or old.version != game.version - 1 or old.hand is None:
        return
    if old.hand.pk != hand.pk:
        return
    # table_view reads the game through the table (table.game); the move's own game object
    # keeps its table for the rest of the move's commit callbacks, so a copy is cached
    game = copy.copy(game)
    _game_unlink(game)
    Table._meta.get_field("game").set_cached_value(table, game)  # no link back, unlike table.game =
    _store(old.after(table=table, hand=hand, state=state))


def snapshots_clear() -> None:
    with _lock:
        _cache.clear()
        _reading.clear()
