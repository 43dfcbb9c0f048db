"""Sending a tournament's news to its pages, after the change has committed.

- The standings: rendered once per language and the same bytes sent to the tournament's group
  of that language (every page of it that shows it, on any daphne: a page gets only its own
  language's bytes), at most once a second whatever happens: the first change
  of a second goes out at once, the changes after it within that second go out together one
  second later (``arena_standings_task``, sent by its pinned name), rendered from the rows as
  they are then.
- A player's own box (joined, paused, their rank and table) goes to their own group when their
  own entry changed; each of their sockets renders it in its language (a few players at a time).
- A player just seated at a table is sent its number: their page goes to the table.

A failed send is logged and swallowed: the change is committed, and a page that reconnects gets
everything again.
"""

import logging

from celery import current_app
from django.core.cache import cache
from django.template.loader import render_to_string

from games.arena.reads import tournament_context
from games.models import Tournament
from games.table.publish import messages_send
from games.table.render import in_every_language

logger = logging.getLogger(__name__)

STANDINGS_TASK = "games.tasks.arena_standings_task"
PUSH_SECONDS = 1


def arena_group(tournament_id: int, lang: str) -> str:
    return f"arena.{tournament_id}.{lang}"


def arena_player_group(tournament_id: int, user_id: int) -> str:
    return f"arena.{tournament_id}.player.{user_id}"


def standings_html(t: Tournament) -> str:
    """The standings' part of the page (in the active language)."""
    return render_to_string("games/arena/standings.html", tournament_context(t))


def standings_changed(tournament_id: int, *, user_ids=()) -> None:
    """Something the standings show changed (call on commit): each of ``user_ids`` gets their
    own box now; everyone gets the standings now, or with the next push within the second."""
    if user_ids:
        messages_send(
            [
                (arena_player_group(tournament_id, u), {"type": "arena.own"})
                for u in sorted(set(user_ids))
            ]
        )
    if cache.add(f"arena:{tournament_id}:pushed", 1, PUSH_SECONDS):
        standings_send(tournament_id)
    elif cache.add(f"arena:{tournament_id}:due", 1, PUSH_SECONDS):
        # the mark lasts until the task's moment, whether or not the task comes: a lost task
        # holds back no change after it
        _later(tournament_id)


def _later(tournament_id: int) -> None:
    if current_app.conf.task_always_eager:
        return  # tests: a timed task would run at once; they call standings_due themselves
    try:
        current_app.send_task(STANDINGS_TASK, args=[tournament_id], countdown=PUSH_SECONDS)
    except Exception:  # the broker is down: the next change pushes the standings again
        cache.delete(f"arena:{tournament_id}:due")
        logger.exception("arena standings task not sent", extra={"tournament": tournament_id})


def standings_due(tournament_id: int) -> bool:
    """The push that changes within a second waited for (the task's work)."""
    cache.delete(f"arena:{tournament_id}:due")
    cache.set(f"arena:{tournament_id}:pushed", 1, PUSH_SECONDS)
    return standings_send(tournament_id)


def standings_send(tournament_id: int) -> bool:
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return False
    html = in_every_language(lambda: standings_html(t))
    messages_send(
        [
            (arena_group(tournament_id, lang), {"type": "arena.standings", "html": text})
            for lang, text in html.items()
        ]
    )
    return True


def seated_publish(tournament_id: int, seated: list[tuple[int, int]]) -> None:
    """Each (user, table) just seated: their pages go to the table."""
    messages_send(
        [
            (arena_player_group(tournament_id, u), {"type": "arena.seated", "table": table_id})
            for u, table_id in seated
        ]
    )
