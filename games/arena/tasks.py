"""The arena's Celery tasks: thin, each calls one service, by a pinned name (beat's schedule and
tasks waiting in Redis name them). Each is harmless when late or repeated: a tick reads the
pool as it is then, a push sends the standings as they are then."""

from celery import shared_task

from games.arena.publish import standings_due
from games.arena.rounds import tournaments_tick
from games.arena.schedule import schedules_make


@shared_task(name="games.tasks.arena_tick_task")
def arena_tick_task() -> int:
    """Pair the waiting players of every tournament under way (beat, every few seconds)."""
    return tournaments_tick()


@shared_task(name="games.tasks.arena_standings_task")
def arena_standings_task(tournament_id: int) -> bool:
    """The standings' push that the changes within the last second waited for."""
    return standings_due(tournament_id)


@shared_task(name="games.tasks.arena_schedules_task")
def arena_schedules_task() -> int:
    """Make the recurring tournaments' next ones ahead of time (beat, hourly)."""
    return schedules_make()
