import pytest

from games.engine import (
    OptionError,
    RuleOptions,
    TableOptions,
    deal,
    game_from_dict,
    game_new,
    game_to_dict,
    hand_from_dict,
    hand_to_dict,
)


def test_defaults_are_the_rules_defaults():
    o = RuleOptions()
    assert (o.mode, o.seats, o.turn_seconds, o.start_count, o.hand_limit) == ("duz", 4, 30, 20, 8)
    assert o.colour_doubling and o.indicator_bonus
    assert not o.pairs_take_indicator


def test_rule_options_hold_only_rules():
    # the site's policy (private, bots_fill, bot_strength) is games.policy.TablePolicy
    assert set(RuleOptions().to_dict()) == {
        "mode",
        "seats",
        "turn_seconds",
        "start_count",
        "hand_limit",
        "colour_doubling",
        "indicator_bonus",
        "pairs_take_indicator",
    }
    for name in ("private", "bots_fill", "bot_strength"):
        with pytest.raises(OptionError, match="unknown table option"):
            RuleOptions.validated(**{name: True})


def test_the_old_name_is_the_same_class():
    assert TableOptions is RuleOptions


@pytest.mark.parametrize(
    "name, low, high",
    [("seats", 2, 4), ("turn_seconds", 15, 120), ("start_count", 5, 50), ("hand_limit", 1, 50)],
)
def test_ranges_are_inclusive_and_enforced(name, low, high):
    assert getattr(RuleOptions.validated(**{name: low}), name) == low
    assert getattr(RuleOptions.validated(**{name: high}), name) == high
    for bad in (low - 1, high + 1):
        with pytest.raises(OptionError, match=f"{name} must be from {low} to {high}"):
            RuleOptions.validated(**{name: bad})


@pytest.mark.parametrize("value", ["4", 4.0, True, None])
def test_numbers_must_be_whole_numbers(value):
    with pytest.raises(OptionError, match="seats must be a whole number"):
        RuleOptions.validated(seats=value)


@pytest.mark.parametrize("flag", ["colour_doubling", "indicator_bonus", "pairs_take_indicator"])
def test_flags_must_be_booleans(flag):
    assert getattr(RuleOptions.validated(**{flag: False}), flag) is False
    with pytest.raises(OptionError, match=f"{flag} must be true or false"):
        RuleOptions.validated(**{flag: "yes"})


def test_mode_accepts_turkish_spelling_and_stores_ascii():
    assert RuleOptions.validated(mode="eşli").mode == "esli"
    assert RuleOptions.validated(mode="düz").mode == "duz"
    with pytest.raises(OptionError, match="mode must be"):
        RuleOptions.validated(mode="101")


def test_esli_needs_four_seats():
    assert RuleOptions(mode="esli").partnership
    with pytest.raises(OptionError, match="needs 4 seats"):
        RuleOptions.validated(mode="esli", seats=3)


def test_unknown_option_is_refused():
    with pytest.raises(OptionError, match="unknown table option"):
        RuleOptions.validated(jokers=3)
    with pytest.raises(OptionError, match="unknown table option"):
        RuleOptions.from_dict({"seats": 3, "colour": "red"})


def test_dict_round_trip():
    o = RuleOptions.validated(mode="esli", turn_seconds=60, hand_limit=3)
    d = o.to_dict()
    assert d["mode"] == "esli"
    assert RuleOptions.from_dict(d) == o
    assert RuleOptions.from_dict({}) == RuleOptions()
    with pytest.raises(OptionError):
        RuleOptions.from_dict(["seats", 4])


# What hand_to_dict wrote into every hand state (and game_to_dict into every game state) before
# the policy left the engine: the rules and the site's three policy keys together.
OLD_OPTIONS = {
    "mode": "duz",
    "seats": 3,
    "turn_seconds": 45,
    "start_count": 20,
    "hand_limit": 8,
    "colour_doubling": False,
    "indicator_bonus": True,
    "pairs_take_indicator": True,
    "bots_fill": False,
    "private": True,
    "bot_strength": "easy",
}


def test_an_old_hand_state_with_the_policy_in_its_options_still_loads():
    state = deal(bytes(range(32)), RuleOptions(seats=3), 1)
    stored = hand_to_dict(state)
    stored["options"] = dict(OLD_OPTIONS)
    loaded = hand_from_dict(stored)
    assert loaded.options == RuleOptions(
        seats=3, turn_seconds=45, colour_doubling=False, pairs_take_indicator=True
    )
    assert loaded.racks == state.racks and loaded.stock == state.stock
    # saved again, it is in the new form: the policy keys are gone for good
    assert "bots_fill" not in hand_to_dict(loaded)["options"]


def test_an_old_game_state_with_the_policy_in_its_options_still_loads():
    stored = game_to_dict(game_new(RuleOptions(seats=3), 0))
    stored["options"] = dict(OLD_OPTIONS)
    assert game_from_dict(stored).options.turn_seconds == 45
    assert set(game_to_dict(game_from_dict(stored))["options"]) == set(RuleOptions().to_dict())


def test_an_old_state_is_still_checked():
    # dropping the former policy keys does not make reading lax about the rules themselves
    with pytest.raises(OptionError, match="seats must be from 2 to 4"):
        RuleOptions.from_dict({**OLD_OPTIONS, "seats": 5})
    with pytest.raises(OptionError, match="unknown table option"):
        RuleOptions.from_dict({**OLD_OPTIONS, "jokers": 3})
