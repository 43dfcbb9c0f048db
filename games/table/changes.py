"""A change of the table: its lock (always taken first), its version, and the news of it."""

from functools import partial

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.models import Game, Table
from games.table.deadlines import deadline_arm
from games.table.publish import table_changed_publish
from games.table.store import GAME_FIELDS, game_lock


def table_lock(table_id) -> tuple[Game, Table]:
    """Lock the table's Game row, always first, and return it with its table."""
    game = game_lock(table_id)
    if game is None:
        raise ServiceError("no_table", _("There is no such table."))
    return game, game.table


def version_check(game: Game, expected_version) -> None:
    if expected_version is not None and expected_version != game.version:
        raise ServiceError(
            "stale",
            _("The table has changed since you last saw it; here it is again."),
        )


def table_version_next(game: Game, *, hand=None, seats=None) -> int:
    """Count one visible change on ``game`` (not saved) and work the table's next action out
    again (``deadline_arm``): pass the current ``hand`` and the table's ``seats`` when the caller
    has them, to spare queries. A move saves the game with its other rows (move_save)."""
    game.version += 1
    deadline_arm(game, hand=hand, seats=seats)
    return game.version


def table_bump(game: Game, *, lobby: bool = False, hand=None, seats=None) -> int:
    """Count one visible change and save the game; its pages hear of it once the transaction
    commits (each shows its viewer's whole table again)."""
    table_version_next(game, hand=hand, seats=seats)
    game.save(update_fields=GAME_FIELDS)
    publish = partial(table_changed_publish, game.table_id, game.version, lobby=lobby)
    transaction.on_commit(publish)
    return game.version
