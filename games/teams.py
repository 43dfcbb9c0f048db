"""Eşli Okey's two teams: who is on which, their names, a hand's change to their totals.

Partners sit opposite: seats 1 & 3 (team A) and seats 2 & 4 (team B) on the screen, which are
seats 0 & 2 and 1 & 3 inside. A team's name is the one the manager gave it, else its partners'
names once both seats have people; else none here, and the page says "Team A" / "Team B" in the
viewer's language. A team's total is the sum of its two counts (docs/rules.md); lower is better.
"""

from games.names import player_name


def team_of(seat_index: int) -> int:
    return seat_index % 2


def team_names(table, seats) -> tuple[str, str]:
    """``seats``: the table's Seat rows, with their users."""
    custom = (table.team_a_name, table.team_b_name)
    out = []
    for t in (0, 1):
        members = [s for s in seats if team_of(s.index) == t]
        if custom[t]:
            out.append(custom[t])
        elif len(members) == 2 and all(s.user_id for s in members):
            out.append(" & ".join(player_name(s.user) for s in members))
        else:
            out.append("")
    return out[0], out[1]


def team_deltas(deltas) -> tuple[int, int] | None:
    """A hand's change to each team's total."""
    if not deltas or len(deltas) != 4:
        return None
    return (deltas[0] + deltas[2], deltas[1] + deltas[3])


TEAM_NAME_MAX = 30
