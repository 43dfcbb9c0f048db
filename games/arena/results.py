"""A tournament game's end: its points in the standings, its players back in the pool.

The table sends ``game_results_written`` in the transaction that writes a game's results, under
the table's lock, once per game (games.table.results): the game is counted there, exactly once,
with the results the players see. Entrants' rows are locked in id order, as the pairing locks
them, so two games ending at once never wait on each other in a cycle.
"""

from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games.arena.points import game_outcomes, outcome_score
from games.arena.publish import standings_changed
from games.models import Entrant, Tournament
from games.table.results import game_results_written


@receiver(game_results_written, dispatch_uid="arena_game_count")
def game_count(sender, game, table, **kwargs) -> None:
    if table.tournament_id is None:
        return
    tournament_game_count(table.tournament_id, table.pk, game.results or {}, game.ended)


def tournament_game_count(tournament_id: int, table_id: int, results: dict, ended=None) -> int:
    """Add a finished game to its tournament's standings (caller's transaction): each person's
    points and streak (games.arena.points), their line of results, and their way back to the
    pool; a player who left the game, or paused during it, does not wait for another. How many
    entrants it counted for."""
    now = ended or timezone.now()
    outcomes = {o.user_id: o for o in game_outcomes(results)} if results.get("players") else {}
    people = [p.get("user") for p in results.get("players") or () if p.get("user")]
    entrants = list(
        Entrant.objects.select_for_update()
        .filter(tournament_id=tournament_id, table_id=table_id)
        .order_by("pk")
    )
    for e in entrants:
        outcome = outcomes.get(e.user_id)
        if outcome is not None:
            scored = outcome_score(outcome, e.streak)
            e.points += scored.points
            e.streak = scored.streak
            e.games += 1
            e.wins += outcome.won
            e.results = [
                *e.results,
                {
                    "table": table_id,
                    "place": outcome.place,
                    "points": scored.points,
                    "fire": scored.doubled,
                    "left": outcome.left,
                },
            ]
            if outcome.left:
                e.active = False  # walked away: back in the pool only if they join again
        e.table = None
        e.mates = [u for u in people if u != e.user_id]
        e.waiting_since = now if e.active else None
        e.save(
            update_fields=[
                "points", "streak", "games", "wins", "results", "active", "table", "mates",
                "waiting_since",
            ]
        )  # fmt: skip
    if entrants:
        user_ids = [e.user_id for e in entrants]
        transaction.on_commit(lambda: standings_changed(tournament_id, user_ids=user_ids))
        tournament_finish_if_done(tournament_id, now)
    return len(entrants)


def tournament_finish_if_done(tournament_id: int, now) -> bool:
    """Once the time is up and no game of the tournament is left, its standings are final:
    the podium is shown from then on. True when it finished now."""
    t = Tournament.objects.filter(pk=tournament_id, finished__isnull=True).first()
    if t is None or now < t.ends:
        return False
    if Entrant.objects.filter(tournament_id=tournament_id, table__isnull=False).exists():
        return False
    done = Tournament.objects.filter(pk=tournament_id, finished__isnull=True).update(finished=now)
    if done:  # everyone's own box says where they finished
        everyone = list(
            Entrant.objects.filter(tournament_id=tournament_id).values_list("user_id", flat=True)
        )
        transaction.on_commit(lambda: standings_changed(tournament_id, user_ids=everyone))
    return bool(done)
