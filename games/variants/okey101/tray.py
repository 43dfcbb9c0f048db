"""The opening tray's running value: the groups a player composes before laying them, each read
as the engine reads a laid group (a run, a set or a pair, and its value), against what an
opening needs now. The player sees it before committing; the lay itself is checked again by the
engine, which refuses an opening under the threshold and says why."""

from games.engine import TileError, parse_tile
from games.engine.okey101.laying import threshold
from games.engine.okey101.table import read_meld, read_pair

MOST_GROUPS = 11  # 22 tiles make at most 11 pairs


def tray_value(state, seat: int, groups, pairs: bool) -> dict:
    """``groups``: lists of tile codes. JSON-safe: each group's kind and value (None: not a
    run, set or pair), the total (the pairs' count for pairs), what is needed and whether it
    is enough."""
    okey = state.okey
    rows = []
    for g in list(groups)[:MOST_GROUPS]:
        try:
            faces = [parse_tile(t) for t in g]
        except (TileError, TypeError, ValueError):
            faces = None
        meld = None
        if faces:
            meld = read_pair(faces, okey, seat) if pairs else read_meld(faces, okey, seat)
        rows.append(
            {
                "tiles": list(g),
                "kind": meld.kind if meld else None,
                "value": meld.value if meld else 0,
            }
        )
    good = [r for r in rows if r["kind"]]
    total = len(good) if pairs else sum(r["value"] for r in good)
    opened = state.opened[seat] != "none"
    need = 0 if opened else threshold(state, pairs)
    return {
        "groups": rows,
        "pairs": pairs,
        "total": total,
        "need": need,
        "opened": opened,
        "enough": bool(rows) and len(good) == len(rows) and total >= need,
    }
