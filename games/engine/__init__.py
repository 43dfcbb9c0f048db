"""The rules of Düz Okey and Eşli Okey as a pure library: no Django, no I/O, no clock, no global random."""

from .finish import finish_kind as finish_kind
from .finish import finish_value as finish_value
from .finish import finishes as finishes
from .finish import indicator_value as indicator_value
from .finish import meld_groups as meld_groups
from .melds import can_meld as can_meld
from .pairs import can_pairs as can_pairs
from .rack import arrange_pairs as arrange_pairs
from .rack import arrange_runs as arrange_runs
from .rack import best_discard as best_discard
from .rack import should_take as should_take
