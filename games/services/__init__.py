"""The only code that changes game state: one transaction per action, the Game row locked first.

Import services from here (``from games.services import move_submit``); the modules below are
split by the thing they act on.
"""

from .chat import chat_post
from .errors import ServiceError
from .hands import game_start, hand_deal, hand_next
from .moves import MoveOutcome, move_submit
from .tables import seat_leave, seat_take, table_create, table_start

__all__ = [
    "MoveOutcome",
    "ServiceError",
    "chat_post",
    "game_start",
    "hand_deal",
    "hand_next",
    "move_submit",
    "seat_leave",
    "seat_take",
    "table_create",
    "table_start",
]
