"""Okey 101 and Eşli 101 at the site: the board with every player's melds in front of them, the
rack with its opening tray, the results with each hand's penalties and the game's totals, how a
move is cleaned and announced, which parts of the page it changes. Templates:
templates/games/table/okey101/ (and the shared ones in templates/games/table/)."""

from games.variants.family import family_from
from games.variants.okey101 import board, moves, parts, rack, result, tray

FAMILY = family_from(board, rack, result, moves, parts, tray=tray.tray_value)
