"""The only code that changes game state: one transaction per action, the Game row locked first.

Import services from here (``from games.services import move_submit``); the modules below are
split by the thing they act on.
"""

from .chat import chat_post
from .errors import ServiceError
from .hands import game_start, hand_deal, hand_next
from .invites import invite_accept, invite_cancel, invite_create, invite_resend
from .moves import MoveOutcome, move_submit
from .staff import game_end, hand_void_redeal, seat_remove, table_close
from .tables import seat_leave, seat_take, table_create, table_start
from .teams import team_names_set

__all__ = [
    "MoveOutcome",
    "ServiceError",
    "chat_post",
    "game_end",
    "game_start",
    "hand_deal",
    "hand_next",
    "hand_void_redeal",
    "invite_accept",
    "invite_cancel",
    "invite_create",
    "invite_resend",
    "move_submit",
    "seat_leave",
    "seat_remove",
    "seat_take",
    "table_close",
    "table_create",
    "table_start",
    "team_names_set",
]
