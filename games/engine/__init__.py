"""The rules of Düz Okey and Eşli Okey as a pure library: no Django, no I/O, no clock, no global random."""

from .finish import finish_kind as finish_kind
from .finish import finish_value as finish_value
from .finish import finishes as finishes
from .finish import indicator_value as indicator_value
from .finish import meld_groups as meld_groups
from .melds import can_meld as can_meld
from .pairs import can_pairs as can_pairs
