"""Düz Okey and Eşli Okey at the site: the board, rack and result views, how a move is cleaned
and announced, which parts of the page it changes. Templates: templates/games/table/okey/ (and
the shared ones in templates/games/table/)."""

from games.variants.family import family_from
from games.variants.okey import board, moves, parts, rack, result

FAMILY = family_from(board, rack, result, moves, parts)
