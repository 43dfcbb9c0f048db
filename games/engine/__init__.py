"""The rules of Düz Okey, Eşli Okey and Okey 101 as a pure library: no Django, no I/O, no clock, no
global random. ``variant(name)`` is the one interface over all of them (variants.py); the names
below without a variant in them are Düz and Eşli Okey's, as they always were.

Every name below is loaded from its module on first use (PEP 562), so that a program pays only
for what it reaches: ``python -m games.engine judge`` starts with the few modules the judge
needs, not the whole engine (the deal's hashing, the bots, the dataclasses of a hand). No
module is named like a name exported here (the deal is in dealing.py): importing it would put
the module in that name's place.
"""

from importlib import import_module

_EXPORTS = {
    "finish_kind": "finish",
    "finish_value": "finish",
    "finishes": "finish",
    "indicator_value": "finish",
    "meld_groups": "finish",
    "can_meld": "melds",
    "can_pairs": "pairs",
    "BOT_STRENGTHS": "rack",
    "arrange_pairs": "rack",
    "arrange_runs": "rack",
    "best_discard": "rack",
    "should_take": "rack",
    "auto_moves": "autoplay",
    "bot_discard": "autoplay",
    "bot_moves": "autoplay",
    "SeedError": "dealing",
    "commitment": "dealing",
    "deal": "dealing",
    "shuffle": "dealing",
    "verify_deal": "hand",
    "GameState": "game",
    "game_apply_hand": "game",
    "game_from_dict": "game",
    "game_leaver_points": "game",
    "game_new": "game",
    "game_places": "game",
    "game_rating_points": "game",
    "game_rating_whole": "game",
    "game_to_dict": "game",
    "team_totals": "game",
    "hand_apply": "hand",
    "hand_replay": "hand",
    "hand_void": "hand",
    "legal_kinds": "hand",
    "legal_moves": "hand",
    "SeatKnowledge": "knowledge",
    "seat_knowledge": "knowledge",
    "DeclarePairs": "moves",
    "Discard": "moves",
    "Draw": "moves",
    "Finish": "moves",
    "IllegalMove": "moves",
    "Move": "moves",
    "ShowIndicator": "moves",
    "TakeDiscard": "moves",
    "TakeIndicator": "moves",
    "move_from_dict": "moves",
    "move_kind": "moves",
    "move_to_dict": "moves",
    "RANGES": "options",
    "OptionError": "options",
    "RuleOptions": "options",
    "TableOptions": "options",
    "JUDGE_STRENGTH": "review",
    "MARKS_VERSION": "review",
    "Hint": "review",
    "Mark": "review",
    "hand_marks": "review",
    "hint": "review",
    "seen_by": "review",
    "HandResult": "state",
    "HandState": "state",
    "hand_from_dict": "state",
    "hand_to_dict": "state",
    "TileError": "tiles",
    "format_tile": "tiles",
    "format_tiles": "tiles",
    "full_set": "tiles",
    "okey_of": "tiles",
    "parse_tile": "tiles",
    "parse_tiles": "tiles",
    "hand_view": "views",
    "VARIANTS": "variants",
    "Variant": "variants",
    "variant": "variants",
    "variant_of": "variants",
    "variant_of_options": "variants",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
