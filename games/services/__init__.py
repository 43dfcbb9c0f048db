"""The only code that changes game state: one transaction per action, the Game row locked first.

Import services from here (``from games.services import move_submit``); the modules below are
split by the thing they act on.
"""

from .bots import bot_add, bot_remove, bot_table_create
from .chat import chat_post, chat_prune
from .deadlines import deadline_due, deadline_wait
from .errors import ServiceError
from .invites import invite_accept, invite_cancel, invite_create, invite_resend
from .lifecycle import game_start, hand_deal, hand_next, table_start
from .moves import MoveOutcome, move_submit, move_version
from .quick import table_quick_join
from .results import game_results_record
from .reviews import hand_review_make
from .staff import game_end, hand_void_redeal, seat_remove, table_close
from .sweep import sweep_run, table_due
from .tables import seat_leave, seat_take, table_create, tables_idle_close
from .teams import team_names_set
from .timeouts import seat_back, turn_due_play

__all__ = [
    "MoveOutcome",
    "ServiceError",
    "bot_add",
    "bot_remove",
    "bot_table_create",
    "chat_post",
    "chat_prune",
    "deadline_due",
    "deadline_wait",
    "game_end",
    "game_results_record",
    "game_start",
    "hand_deal",
    "hand_next",
    "hand_review_make",
    "hand_void_redeal",
    "invite_accept",
    "invite_cancel",
    "invite_create",
    "invite_resend",
    "move_submit",
    "move_version",
    "seat_back",
    "seat_leave",
    "seat_remove",
    "seat_take",
    "table_close",
    "sweep_run",
    "table_create",
    "table_due",
    "table_quick_join",
    "table_start",
    "tables_idle_close",
    "team_names_set",
    "turn_due_play",
]
