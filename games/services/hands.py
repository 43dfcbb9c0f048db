"""Names of games.services.lifecycle that games.services.moves and games.selectors import from
this module; they are defined in lifecycle, which owns every change of a table's status."""

from .lifecycle import NEXT_HAND_AFTER_VOID_SECONDS as NEXT_HAND_AFTER_VOID_SECONDS
from .lifecycle import NEXT_HAND_SECONDS as NEXT_HAND_SECONDS
from .lifecycle import game_finish as game_finish
from .lifecycle import game_start as game_start
from .lifecycle import hand_deal as hand_deal
from .lifecycle import hand_next as hand_next
