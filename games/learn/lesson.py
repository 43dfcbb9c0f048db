"""The first hand: a lesson table for one newcomer against three gentle bots, dealt at once from
the fixed, friendly deal (games.table.seeds.FIRST_HAND_SEED), one hand long, with time to think.
It is a real practice table: the moves go through the table's one path, and the coach
(games.learn.coaching) reads the hand as it stands."""

from games.lobby.quick import practice_open
from games.models import Table
from games.table.create import game_running_check

# Düz Okey, one hand, the longest turn the rules allow, the gentle bots; the lobby does not
# list it (private), and it rates nobody (practice, as practice_open makes every such table).
LESSON_OPTIONS = {
    "hand_limit": 1,
    "turn_seconds": 120,
    "bot_strength": "easy",
    "private": True,
    "lesson": True,
}
UNFINISHED = (Table.Status.OPEN, Table.Status.STARTING, Table.Status.PLAYING)


def lesson_start(user) -> Table:
    """``user``'s first-hand table: the one they have not finished yet, else a new one, dealt
    at once (practice_open: no countdown, there is nobody to wait for)."""
    mine = (
        Table.objects.filter(manager=user, status__in=UNFINISHED, options__lesson=True)
        .order_by("-pk")
        .first()
    )
    if mine is not None:
        return mine
    game_running_check(user)  # not while another game of theirs runs: it would play on alone
    return practice_open(user, "duz", options=LESSON_OPTIONS)  # dealt at once
