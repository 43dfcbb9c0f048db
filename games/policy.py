"""Table policy: what the site does around the rules at a table.

The table manager chooses these with the rule options (docs/rules.md lists them in one table),
but they change nothing in how a hand is played or counted, so the engine never sees them:
whether the lobby lists the table, whether bots take the seats nobody took, how well those
bots play (an argument of ``engine.bot_moves``), and whether the game is a practice game (not
rated). The defaults are the field defaults below and nowhere else; ``RuleOptions``
(games.engine) holds the rules' own.

A table stores both in one JSON column (``Table.options``, flat, as the manager chose them):
``options_split`` is where the two are told apart, and ``Table.rules``/``Table.policy`` read it.
The game itself (Düz, Eşli, 101, Eşli 101) is the manager's choice ``variant``, stored in its own
column (``Table.variant``); without it, Düz Okey's own option ``mode`` names Düz or Eşli, as it
always did.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from games.engine import BOT_STRENGTHS, OptionError, variant, variant_of_options

_FLAGS = ("private", "bots_fill", "practice", "lesson")


@dataclass(frozen=True)
class TablePolicy:
    private: bool = False  # invite only: the lobby does not list it
    bots_fill: bool = True  # bots take the empty seats at the start
    bot_strength: str = "normal"  # engine.BOT_STRENGTHS
    # a practice game is not rated, and a player alone with bots may ask for hints
    practice: bool = False
    # the first hand (games.learn): its deal is the fixed, friendly one (table.seeds) and the
    # newcomer starts it; the site opens such tables itself, the lobby's form never offers it
    lesson: bool = False

    def __post_init__(self) -> None:
        # the same error as a bad rule option: a caller validating the manager's choices
        # catches one kind of error for all of them
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"{name} must be true or false")
        if self.bot_strength not in BOT_STRENGTHS:
            choices = " or ".join(repr(s) for s in sorted(BOT_STRENGTHS))
            raise OptionError(f"bot_strength must be {choices}, not {self.bot_strength!r}")

    @classmethod
    def validated(cls, **kw: Any) -> TablePolicy:
        unknown = sorted(set(kw) - NAMES)
        if unknown:
            raise OptionError(f"unknown table policy: {', '.join(unknown)}")
        return cls(**kw)

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_dict(cls, d: Any) -> TablePolicy:
        if not isinstance(d, Mapping):
            raise OptionError("table policy must be a mapping of names to values")
        return cls.validated(**d)


_FIELD_NAMES = tuple(f.name for f in fields(TablePolicy))


NAMES = frozenset(_FIELD_NAMES)


def options_split(choices: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The manager's choices, or a table's stored options, as (rule options, policy). A name
    that is neither goes with the rules, whose check refuses it."""
    if not isinstance(choices, Mapping):
        raise OptionError("table options must be a mapping of names to values")
    rules = {k: v for k, v in choices.items() if k not in NAMES}
    policy = {k: v for k, v in choices.items() if k in NAMES}
    return rules, policy


def table_choices(choices: Mapping[str, Any]) -> tuple[Any, TablePolicy]:
    """The manager's choices checked: (the variant's rule options, the policy). Raises
    OptionError for an unknown game, an unknown name or a bad value, and for a bot strength
    the game's bots do not play at. The variant is ``engine.variant_of_options(rules)``."""
    rules, policy_names = options_split(choices)
    # "mode" named the game before there was more than Düz and Eşli: it still may, any game
    mode = rules.pop("mode", None)
    name = rules.pop("variant", None) or mode or "duz"
    if mode is not None and mode != name:
        raise OptionError(f"mode {mode!r} and variant {name!r} name different games")
    try:
        game = variant(name)
    except (ValueError, TypeError):
        raise OptionError(f"there is no game {name!r}") from None
    policy = TablePolicy.validated(**policy_names)
    if policy.bot_strength not in game.bot_strengths:
        choices = " or ".join(repr(s) for s in game.bot_strengths)
        raise OptionError(f"bot_strength must be {choices} in this game")
    return game.make_options(**rules), policy


def options_stored(rules: Any, policy: TablePolicy) -> dict[str, Any]:
    """What ``Table.options`` holds: every name written out, defaults included, so that the
    stored row says what the table plays by and the database can filter on it
    (``options__private``). The variant is the table's own column, not among them."""
    return {**rules.to_dict(), **policy.to_dict()}


def table_variant(rules: Any) -> str:
    """The name of the game ``rules`` (from ``table_choices``) are the options of."""
    return variant_of_options(rules).name
