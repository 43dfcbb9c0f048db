"""What the arena's pages show: the list of tournaments, a tournament's standings and podium,
and one player's own place in it. Reads only."""

from dataclasses import dataclass

from django.utils import timezone

from games.labels import mode_label
from games.models import Entrant, Table, Tournament
from games.names import player_name
from games.policy import options_split

STANDINGS_SHOWN = 30  # the standings' first page, pushed to every page of the tournament
PODIUM = 3


def tournament_state(t: Tournament, now=None) -> str:
    """upcoming, running, ending (time up, games finishing), or finished."""
    now = now or timezone.now()
    if t.finished:
        return "finished"
    if now < t.starts:
        return "upcoming"
    if now < t.ends:
        return "running"
    return "ending"


def variant_label(t: Tournament) -> str:
    """The game the tournament's tables play (its options name it, games.arena.schedule)."""
    rules = options_split(t.options)[0]
    return mode_label(rules.get("variant") or rules.get("mode", "duz"))


def tournaments_listed(now=None) -> dict:
    """The lobby's list: upcoming and running ones, and the latest finished."""
    now = now or timezone.now()
    live = Tournament.objects.filter(finished__isnull=True).order_by("starts", "pk")[:50]
    done = Tournament.objects.filter(finished__isnull=False).order_by("-finished", "-pk")[:20]
    counts = {}
    ids = [t.pk for t in live] + [t.pk for t in done]
    for tid in Entrant.objects.filter(tournament_id__in=ids).values_list(
        "tournament_id", flat=True
    ):
        counts[tid] = counts.get(tid, 0) + 1
    out = {"upcoming": [], "running": [], "finished": []}
    for t in [*live, *done]:
        state = tournament_state(t, now)
        row = {"t": t, "state": state, "variant": variant_label(t), "players": counts.get(t.pk, 0)}
        out[
            "finished" if state == "finished" else state if state == "upcoming" else "running"
        ].append(row)
    return out


@dataclass(frozen=True)
class Row:
    rank: int
    user_id: int
    name: str
    points: int
    fire: bool
    games: int
    games_shown: tuple  # each game: (its points, its classes), as the standings show it
    status: str  # playing, waiting, paused


def _status(e: Entrant) -> str:
    if e.table_id is not None:
        return "playing"
    return "waiting" if e.active else "paused"


def game_shown(line: dict) -> tuple[int, str]:
    """One game of a player's line: its points and how it is marked (a win, on fire, left)."""
    marks = ""
    if line.get("left"):
        marks += " is-left"
    elif line.get("place") == 1:
        marks += " is-win"
    if line.get("fire"):
        marks += " is-fire"
    return line.get("points", 0), marks


def standings(t: Tournament, *, offset: int = 0, limit: int = STANDINGS_SHOWN) -> list[Row]:
    rows = (
        Entrant.objects.filter(tournament=t)
        .select_related("user__profile")
        .order_by("-points", "-wins", "games", "pk")[offset : offset + limit]
    )
    return [
        Row(
            rank=offset + i + 1,
            user_id=e.user_id,
            name=player_name(e.user),
            points=e.points,
            fire=e.on_fire,
            games=e.games,
            games_shown=tuple(game_shown(g) for g in e.results),
            status=_status(e),
        )
        for i, e in enumerate(rows)
    ]


def entrants_count(t: Tournament) -> int:
    return Entrant.objects.filter(tournament=t).count()


@dataclass(frozen=True)
class Own:
    """One player's own box: joined or not, their rank, their table."""

    joined: bool
    active: bool
    table_id: int | None
    rank: int | None
    points: int
    fire: bool


def own_view(t: Tournament, user) -> Own | None:
    if user is None or not user.is_authenticated:
        return None
    e = Entrant.objects.filter(tournament=t, user=user).first()
    if e is None:
        return Own(False, False, None, None, 0, False)
    better = Entrant.objects.filter(tournament=t, points__gt=e.points).count()
    table_id = e.table_id
    if (
        table_id is not None
        and not Table.objects.filter(
            pk=table_id,
            status__in=(Table.Status.STARTING, Table.Status.PLAYING, Table.Status.FINISHED),
        ).exists()
    ):
        table_id = None
    return Own(True, e.active, table_id, better + 1, e.points, e.on_fire)


def podium(t: Tournament) -> list[Row]:
    return standings(t, limit=PODIUM) if t.finished else []


def tournament_context(t: Tournament, now=None) -> dict:
    """What the tournament's page and its pushes share: its state, times and standings."""
    now = now or timezone.now()
    state = tournament_state(t, now)
    return {
        "t": t,
        "state": state,
        "variant": variant_label(t),
        "options": options_split(t.options)[0],
        "rows": standings(t),
        "count": entrants_count(t),
        "podium": podium(t),
        "starts_in": max(0, int((t.starts - now).total_seconds())),
        "ends_in": max(0, int((t.ends - now).total_seconds())),
    }
