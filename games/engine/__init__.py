"""The rules of Düz Okey and Eşli Okey as a pure library: no Django, no I/O, no clock, no global random."""

from .finish import finish_kind as finish_kind
from .finish import finish_value as finish_value
from .finish import finishes as finishes
from .finish import indicator_value as indicator_value
from .finish import meld_groups as meld_groups
from .melds import can_meld as can_meld
from .pairs import can_pairs as can_pairs

# isort: split
# hand, deal, options, views, game (branch engine)
from .deal import SeedError as SeedError
from .deal import commitment as commitment
from .deal import deal as deal
from .deal import shuffle as shuffle
from .deal import verify_deal as verify_deal
from .game import GameState as GameState
from .game import game_apply_hand as game_apply_hand
from .game import game_from_dict as game_from_dict
from .game import game_new as game_new
from .game import game_places as game_places
from .game import game_rating_points as game_rating_points
from .game import game_to_dict as game_to_dict
from .game import team_totals as team_totals
from .hand import hand_apply as hand_apply
from .hand import hand_replay as hand_replay
from .hand import legal_moves as legal_moves
from .moves import DeclarePairs as DeclarePairs
from .moves import Discard as Discard
from .moves import Draw as Draw
from .moves import Finish as Finish
from .moves import IllegalMove as IllegalMove
from .moves import Move as Move
from .moves import ShowIndicator as ShowIndicator
from .moves import TakeDiscard as TakeDiscard
from .moves import TakeIndicator as TakeIndicator
from .moves import move_from_dict as move_from_dict
from .moves import move_kind as move_kind
from .moves import move_to_dict as move_to_dict
from .options import OptionError as OptionError
from .options import TableOptions as TableOptions
from .state import HandResult as HandResult
from .state import HandState as HandState
from .state import hand_from_dict as hand_from_dict
from .state import hand_to_dict as hand_to_dict
from .tiles import TileError as TileError
from .tiles import format_tile as format_tile
from .tiles import format_tiles as format_tiles
from .tiles import full_set as full_set
from .tiles import okey_of as okey_of
from .tiles import parse_tile as parse_tile
from .tiles import parse_tiles as parse_tiles
from .views import hand_view as hand_view

# isort: split
# rack helpers (branch finish)
from .rack import arrange_pairs as arrange_pairs
from .rack import arrange_runs as arrange_runs
from .rack import best_discard as best_discard
from .rack import should_take as should_take
