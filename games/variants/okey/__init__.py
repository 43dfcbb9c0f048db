"""Düz Okey and Eşli Okey at the site: the board, rack and result views, how a move is cleaned
and announced, which parts of the page it changes. Templates: templates/games/table/okey/."""

from games.variants.family import Family
from games.variants.okey import board, moves, parts, rack, result

FAMILY = Family(
    name=board.FAMILY,
    board_view=board.board_view,
    rack_view=rack.rack_view,
    rack_class=rack.RackView,
    result_view=result.result_view,
    game_result_view=result.game_result_view,
    move_clean=moves.move_clean,
    public_tile=moves.public_tile,
    announcement=moves.announcement,
    parts_changed=parts.parts_changed,
    own_changed=parts.own_changed,
    own_seats=parts.own_seats,
    bot_moves=moves.bot_moves,
)
