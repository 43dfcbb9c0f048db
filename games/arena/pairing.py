"""The arena's pairing: who sits with whom at the next four-seat tables. Pure: no Django, no
clock, no random; the caller passes the pool as it is now and seats whatever comes back.

- Players meet others of nearby standing: the pool is taken in the order of the standings and
  cut into tables of four.
- Two players who sat at the same table in their last game are not seated together again when
  the pool allows another table; four who just played together wait (up to ``repeat_wait``
  seconds) for someone else to come back before they are seated again.
- A forbidden pair (one blocked the other) never sits at one table: their table is made without
  one of them, who waits for the next pairing.
- Bots take the seats nobody can fill only when the tournament allows them, and only for players
  who have waited ``bot_wait`` seconds without a table of people.
- The seats of a table go best, second, fourth, third: in a game of two partnerships (seats 1 and
  3 against 2 and 4) the best and the weakest play together against the two between them; in a
  game of four it changes nothing. One order for every variant, so nothing here asks which game
  is played.

Each player appears in at most one table of the result, so nobody is ever seated twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

SEATS = 4

# What a table costs: a forbidden pair far more than anything, a repeated pair more than any
# gap in the standings (the squares of the gaps between its players, in places of the pool,
# at most 6 a table).
FORBIDDEN_COST = 1_000_000.0
REPEAT_COST = 1_000.0


@dataclass(frozen=True)
class Waiting:
    """A player in the pool: ``rank`` is their place in the standings (0 the best), ``mates``
    who sat at their last table, ``waited`` the seconds since they came back to the pool."""

    user_id: int
    rank: int
    mates: frozenset[int] = frozenset()
    waited: float = 0.0


def _pair_cost(a: Waiting, b: Waiting, forbidden) -> float:
    cost = 0.0
    if forbidden and frozenset((a.user_id, b.user_id)) in forbidden:
        cost += FORBIDDEN_COST
    if b.user_id in a.mates or a.user_id in b.mates:
        cost += REPEAT_COST
    return cost


def _table_cost(group: list[Waiting], forbidden, span: float) -> float:
    cost = 0.0
    for a, b in combinations(group, 2):
        cost += _pair_cost(a, b, forbidden) + ((a.rank - b.rank) / span) ** 2
    return cost


def _improve(groups: list[list[Waiting]], forbidden, span: float, passes: int = 4) -> None:
    """Swap players between tables near each other in the standings while that lowers the
    cost: a forbidden or repeated pair moves to a neighbouring table, whose standing is close."""
    costs = [_table_cost(g, forbidden, span) for g in groups]
    for _ in range(passes):
        better = False
        for i in range(len(groups)):
            if costs[i] < REPEAT_COST:
                continue  # nothing to mend here; the gaps in standing are the order's own
            for j in _neighbours(i, len(groups)):
                if _swap_best(groups, costs, i, j, forbidden, span):
                    better = True
                    if costs[i] < REPEAT_COST:
                        break
        if not better:
            return


def _neighbours(i: int, n: int, reach: int = 3) -> list[int]:
    out = []
    for d in range(1, reach + 1):
        for j in (i + d, i - d):
            if 0 <= j < n:
                out.append(j)
    return out


def _swap_best(groups, costs, i, j, forbidden, span) -> bool:
    gi, gj = groups[i], groups[j]
    base = costs[i] + costs[j]
    best = None
    for a in range(len(gi)):
        for b in range(len(gj)):
            ni = gi[:a] + [gj[b]] + gi[a + 1 :]
            nj = gj[:b] + [gi[a]] + gj[b + 1 :]
            ci, cj = _table_cost(ni, forbidden, span), _table_cost(nj, forbidden, span)
            if ci + cj < base - 1e-9 and (best is None or ci + cj < best[0]):
                best = (ci + cj, ni, nj, ci, cj)
    if best is None:
        return False
    _, groups[i], groups[j], costs[i], costs[j] = best
    return True


def _forbidden_in(group: list[Waiting], forbidden) -> bool:
    return any(frozenset((a.user_id, b.user_id)) in forbidden for a, b in combinations(group, 2))


def _all_just_met(group: list[Waiting]) -> bool:
    """Everyone at the table sat with everyone else in their last game."""
    return all(b.user_id in a.mates for a, b in combinations(group, 2))


def seat_order(group: list[Waiting]) -> tuple[Waiting, ...]:
    """Best, second, fourth, third (see the module's notes); fewer than four keep their order."""
    g = sorted(group, key=lambda p: p.rank)
    if len(g) == SEATS:
        return (g[0], g[1], g[3], g[2])
    return tuple(g)


def pool_pair(
    pool: list[Waiting],
    *,
    forbidden: set[frozenset[int]] | frozenset = frozenset(),
    bots: bool = False,
    bot_wait: float = 20.0,
    repeat_wait: float = 20.0,
) -> list[tuple[int | None, ...]]:
    """The tables to seat now, each a tuple of four user ids in seat order, ``None`` for a bot's
    seat. Players not in any table stay in the pool for the next pairing."""
    if not pool:
        return []
    players = sorted(pool, key=lambda p: (p.rank, p.user_id))
    span = float(max(len(players), 1))
    whole = len(players) // SEATS * SEATS
    if whole:
        # those left over wait: the ones who came back last, so that nobody waits long
        by_wait = sorted(players, key=lambda p: (-p.waited, p.rank, p.user_id))
        seated_now = {p.user_id for p in by_wait[:whole]}
        rest = [p for p in players if p.user_id not in seated_now]
        players = [p for p in players if p.user_id in seated_now]
    else:
        rest = players
        players = []
    groups = [players[k : k + SEATS] for k in range(0, len(players), SEATS)]
    _improve(groups, forbidden, span)
    tables: list[tuple[int | None, ...]] = []
    for group in groups:
        if forbidden and _forbidden_in(group, forbidden):
            rest.extend(group)  # no way found this time: they wait, bots may seat them apart
            continue
        if _all_just_met(group) and min(p.waited for p in group) < repeat_wait:
            rest.extend(group)  # the same four again: give the others a moment to come back
            continue
        tables.append(tuple(p.user_id for p in seat_order(group)))
    if bots:
        tables.extend(_with_bots(rest, forbidden, bot_wait))
    return tables


def _with_bots(rest: list[Waiting], forbidden, bot_wait: float) -> list[tuple[int | None, ...]]:
    """Tables for the players who waited ``bot_wait`` seconds, nearby standings together, the
    seats nobody fills left to bots; a forbidden pair goes to different tables."""
    due = sorted((p for p in rest if p.waited >= bot_wait), key=lambda p: (p.rank, p.user_id))
    groups: list[list[Waiting]] = []
    for p in due:
        for g in groups:
            if len(g) < SEATS and not any(
                frozenset((p.user_id, q.user_id)) in forbidden for q in g
            ):
                g.append(p)
                break
        else:
            groups.append([p])
    out = []
    for g in groups:
        seats = [p.user_id for p in seat_order(g)]
        out.append(tuple(seats + [None] * (SEATS - len(seats))))
    return out
