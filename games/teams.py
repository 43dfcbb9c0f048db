"""Eşli Okey's two teams as the table page shows them: names, members, totals.

Partners sit opposite: seats 1 & 3 (team A) and seats 2 & 4 (team B) on the screen, which are
seats 0 & 2 and 1 & 3 inside. A team's name is the one the manager gave it, else its partners'
names once both seats are taken, else "Team A" / "Team B". A team's total is the sum of its two
counts (okey-rules.md); lower is better.
"""

from django.utils.translation import gettext as _

from games import engine


def team_of(seat_index: int) -> int:
    return seat_index % 2


def team_default(t: int) -> str:
    return _("Team A") if t == 0 else _("Team B")


def team_names(table, seat_names: dict[int, str]) -> tuple[str, str]:
    """``seat_names``: seat index -> the name shown for it ("" for an empty seat)."""
    custom = (table.team_a_name, table.team_b_name)
    out = []
    for t in (0, 1):
        members = [seat_names.get(i, "") for i in (t, t + 2)]
        if custom[t]:
            out.append(custom[t])
        elif all(members):
            out.append(" & ".join(members))
        else:
            out.append(team_default(t))
    return out[0], out[1]


def teams_view(table, seats: list[dict], gstate, me) -> list[dict] | None:
    """The two teams for the page, or None at a Düz table. ``seats`` are selectors' seat rows."""
    if table.mode != "esli":
        return None
    names = team_names(table, {s["index"]: s["name"] for s in seats})
    totals = engine.team_totals(gstate) if gstate is not None else None
    teams = []
    for t in (0, 1):
        teams.append(
            {
                "index": t,
                "letter": "AB"[t],
                "name": names[t],
                "default_name": team_default(t),
                "custom": bool((table.team_a_name, table.team_b_name)[t]),
                "numbers": (t + 1, t + 3),
                "members": [s["name"] for s in seats if team_of(s["index"]) == t],
                "total": totals[t] if totals is not None else None,
                "is_yours": me is not None and team_of(me) == t,
            }
        )
    if totals is not None and totals[0] != totals[1]:
        teams[0 if totals[0] < totals[1] else 1]["leading"] = True
    return teams


def team_deltas(deltas) -> tuple[int, int] | None:
    """A hand's change to each team's total."""
    if not deltas or len(deltas) != 4:
        return None
    return (deltas[0] + deltas[2], deltas[1] + deltas[3])


def game_teams(results: dict, teams: list[dict]) -> dict | None:
    """The game-end line for Eşli: each team's final total and who won (None: a draw)."""
    totals = results.get("teams")
    if not totals or teams is None:
        return None
    rows = [
        {
            **teams[t],
            "total": totals[t],
            "points": results["points"][t],  # both partners get the same points
            "won": totals[t] < totals[1 - t],
        }
        for t in (0, 1)
    ]
    winner = next((r for r in rows if r["won"]), None)
    return {"rows": rows, "winner": winner, "draw": winner is None}
