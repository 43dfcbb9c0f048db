"""The variant seam: Düz Okey, Eşli Okey, 101 and Eşli 101 behind one interface.

The variants share tiles, notation, the seeded deal and its commitment, and the okey; each has
its own options, deal, moves, views, scoring and auto-play. ``variant(name)`` gives the site one
``Variant`` to call, whatever the game; Düz and Eşli are the engine's long-standing functions,
unchanged, and 101 is the ``okey101`` package.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from . import autoplay, dealing, game, hand, moves, options, rack, state, views
from .okey101 import autoplay as autoplay101
from .okey101 import bots as bots101
from .okey101 import game as game101
from .okey101 import hand as hand101
from .okey101 import moves as moves101
from .okey101 import options as options101
from .okey101 import scoring as scoring101
from .okey101 import state as state101
from .okey101 import views as views101


@dataclass(frozen=True)
class Variant:
    """One game's rules. ``make_options(**kw)`` checks the table's options (raises
    ``OptionError``); a hand's state comes from ``deal(seed, options, first_seat)``, and every
    function after takes that state."""

    name: str
    family: str  # "okey" (Düz, Eşli) or "okey101": variants of one family share a table's look
    make_options: Callable[..., Any]
    options_from_dict: Callable[[Any], Any]
    deal: Callable[[bytes, Any, int], Any]
    apply: Callable[[Any, Any], Any]  # (state, move) -> state, or IllegalMove
    legal_kinds: Callable[[Any, int], set[str]]
    move_from_dict: Callable[[Any], Any]
    move_to_dict: Callable[[Any], dict[str, Any]]
    view: Callable[[Any, int | None], dict[str, Any]]
    hand_to_dict: Callable[[Any], dict[str, Any]]
    hand_from_dict: Callable[[dict[str, Any]], Any]
    auto_moves: Callable[[Any, int], list]  # the timeout play
    bot_moves: Callable[[Any, int, str], list]
    bot_strengths: tuple[str, ...]
    game_new: Callable[[Any, int], Any]
    game_apply_hand: Callable[[Any, Any], Any]
    game_places: Callable[[Any], tuple[int, ...]]
    game_rating_whole: Callable[[Any], tuple[int, ...]]
    judge_command: str  # python -m games.engine <this>
    hand_void: Callable[[Any], Any]  # the hand over as void, nobody scoring (not a move)
    result_to_dict: Callable[[Any], dict[str, Any]]
    result_from_dict: Callable[[dict[str, Any]], Any]
    game_to_dict: Callable[[Any], dict[str, Any]]
    game_from_dict: Callable[[dict[str, Any]], Any]
    # (seed, options, first_seat, moves as Move objects or dicts) -> the hand after them
    replay: Callable[[bytes, Any, int, Iterable[Any]], Any]
    # (seed, commitment, state, moves=None) -> does the seed match and deal this hand?
    verify_deal: Callable[..., bool]
    # the two teams' totals of a game (seats 0+2, seats 1+3); None: the variant has no teams
    team_totals: Callable[[Any], tuple[int, int]] | None
    # (options) -> the rating points of a player who leaves a rated game: the last place's
    leaver_points: Callable[[Any], int]
    # the game state's field of each seat's running score, lower better: "counts" (Düz Okey's
    # count down from start_count) or "totals" (101's sum of hand scores)
    scores_field: str


def _replayer(deal, apply, move_from_dict):
    def replay(seed: bytes, opts: Any, first_seat: int, moves_done: Iterable[Any]) -> Any:
        s = deal(seed, opts, first_seat)
        for m in moves_done:
            s = apply(s, move_from_dict(m) if isinstance(m, dict) else m)
        return s

    return replay


def _verifier(deal, replay):
    def verify(seed: bytes, commitment_hex: str, s: Any, moves_done: Any = None) -> bool:
        return dealing.deal_verified(deal, replay, seed, commitment_hex, s, moves_done)

    return verify


def _duz(mode: str) -> Variant:
    return Variant(
        name=mode,
        family="okey",
        make_options=lambda **kw: options.RuleOptions.validated(**{**kw, "mode": mode}),
        options_from_dict=options.RuleOptions.from_dict,
        deal=dealing.deal,
        apply=hand.hand_apply,
        legal_kinds=hand.legal_kinds,
        move_from_dict=moves.move_from_dict,
        move_to_dict=moves.move_to_dict,
        view=views.hand_view,
        hand_to_dict=state.hand_to_dict,
        hand_from_dict=state.hand_from_dict,
        auto_moves=autoplay.auto_moves,
        bot_moves=autoplay.bot_moves,
        bot_strengths=rack.BOT_STRENGTHS,
        game_new=game.game_new,
        game_apply_hand=game.game_apply_hand,
        game_places=game.game_places,
        game_rating_whole=game.game_rating_whole,
        judge_command="judge",
        hand_void=hand.hand_void,
        result_to_dict=state.result_to_dict,
        result_from_dict=state.result_from_dict,
        game_to_dict=game.game_to_dict,
        game_from_dict=game.game_from_dict,
        replay=hand.hand_replay,
        verify_deal=hand.verify_deal,
        team_totals=game.team_totals if mode == "esli" else None,
        leaver_points=game.game_leaver_points,
        scores_field="counts",
    )


def _okey101(esli: bool) -> Variant:
    replay = _replayer(hand101.hand101_deal, hand101.hand101_apply, moves101.move_from_dict)
    return Variant(
        name="esli101" if esli else "101",
        family="okey101",
        # through from_dict: an unknown name is an OptionError, as RuleOptions.validated says
        make_options=lambda **kw: options101.Options101.from_dict({**kw, "esli": esli}),
        options_from_dict=options101.Options101.from_dict,
        deal=hand101.hand101_deal,
        apply=hand101.hand101_apply,
        legal_kinds=hand101.legal_kinds101,
        move_from_dict=moves101.move_from_dict,
        move_to_dict=moves101.move_to_dict,
        view=views101.hand101_view,
        hand_to_dict=state101.hand101_to_dict,
        hand_from_dict=state101.hand101_from_dict,
        auto_moves=autoplay101.auto101_moves,
        bot_moves=bots101.bot101_moves,
        bot_strengths=bots101.BOT101_STRENGTHS,
        game_new=game101.game101_new,
        game_apply_hand=game101.game101_apply_hand,
        game_places=game101.game101_places,
        game_rating_whole=game101.game101_rating_whole,
        judge_command="judge101",
        hand_void=hand101.hand101_void,
        result_to_dict=state101.result101_to_dict,
        result_from_dict=state101.result101_from_dict,
        game_to_dict=game101.game101_to_dict,
        game_from_dict=game101.game101_from_dict,
        replay=replay,
        verify_deal=_verifier(hand101.hand101_deal, replay),
        team_totals=_team_totals101 if esli else None,
        leaver_points=game.game_leaver_points,  # 101 rates by place as Düz Okey does
        scores_field="totals",
    )


def _team_totals101(g: Any) -> tuple[int, int]:
    return scoring101.team_scores(g.totals)


VARIANTS = {v.name: v for v in (_duz("duz"), _duz("esli"), _okey101(False), _okey101(True))}


def variant(name: str) -> Variant:
    """The variant called ``name``: "duz", "esli", "101" or "esli101"."""
    found = VARIANTS.get(name)
    if found is None:
        raise ValueError(f"unknown variant {name!r}: one of {', '.join(VARIANTS)}")
    return found


def variant_of(hand_state: Any) -> Variant:
    """The variant a hand's state (or a game's) is played under, read from its options."""
    return variant_of_options(hand_state.options)


def variant_of_options(opts: Any) -> Variant:
    """The variant whose ``make_options`` made ``opts``."""
    if isinstance(opts, options101.Options101):
        return VARIANTS[opts.variant]
    return VARIANTS[opts.mode]
