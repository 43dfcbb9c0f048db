"""Okey 101 and Eşli 101 at the site: the board with every player's melds in front of them, the
rack with its opening tray, the results with each hand's penalties and the game's totals, how a
move is cleaned and announced, which parts of the page it changes. Templates:
templates/games/table/okey101/. A game's final places are read as Düz Okey's are."""

from games.variants.family import Family
from games.variants.okey.result import game_result_view
from games.variants.okey101 import board, moves, parts, rack, result, tray

FAMILY = Family(
    name=board.FAMILY,
    board_view=board.board_view,
    rack_view=rack.rack_view,
    rack_class=rack.RackView,
    result_view=result.result_view,
    game_result_view=game_result_view,
    move_clean=moves.move_clean,
    public_tile=moves.public_tile,
    announcement=moves.announcement,
    parts_changed=parts.parts_changed,
    own_changed=parts.own_changed,
    own_seats=parts.own_seats,
    bot_moves=moves.bot_moves,
    tray=tray.tray_value,
)
