import pytest

from games.engine import OptionError, TableOptions


def test_defaults_are_the_rules_defaults():
    o = TableOptions()
    assert (o.mode, o.seats, o.turn_seconds, o.start_count, o.hand_limit) == ("duz", 4, 30, 20, 8)
    assert o.colour_doubling and o.indicator_bonus and o.bots_fill
    assert not o.pairs_take_indicator and not o.private
    assert o.bot_strength == "normal"


@pytest.mark.parametrize(
    "name, low, high",
    [("seats", 2, 4), ("turn_seconds", 15, 120), ("start_count", 5, 50), ("hand_limit", 1, 50)],
)
def test_ranges_are_inclusive_and_enforced(name, low, high):
    assert getattr(TableOptions.validated(**{name: low}), name) == low
    assert getattr(TableOptions.validated(**{name: high}), name) == high
    for bad in (low - 1, high + 1):
        with pytest.raises(OptionError, match=f"{name} must be from {low} to {high}"):
            TableOptions.validated(**{name: bad})


@pytest.mark.parametrize("value", ["4", 4.0, True, None])
def test_numbers_must_be_whole_numbers(value):
    with pytest.raises(OptionError, match="seats must be a whole number"):
        TableOptions.validated(seats=value)


@pytest.mark.parametrize(
    "flag",
    ["colour_doubling", "indicator_bonus", "pairs_take_indicator", "bots_fill", "private"],
)
def test_flags_must_be_booleans(flag):
    assert getattr(TableOptions.validated(**{flag: False}), flag) is False
    with pytest.raises(OptionError, match=f"{flag} must be true or false"):
        TableOptions.validated(**{flag: "yes"})


def test_mode_accepts_turkish_spelling_and_stores_ascii():
    assert TableOptions.validated(mode="eşli").mode == "esli"
    assert TableOptions.validated(mode="düz").mode == "duz"
    with pytest.raises(OptionError, match="mode must be"):
        TableOptions.validated(mode="101")


def test_esli_needs_four_seats():
    assert TableOptions(mode="esli").partnership
    with pytest.raises(OptionError, match="needs 4 seats"):
        TableOptions.validated(mode="esli", seats=3)


def test_bot_strength():
    assert TableOptions.validated(bot_strength="easy").bot_strength == "easy"
    with pytest.raises(OptionError, match="bot_strength"):
        TableOptions.validated(bot_strength="hard")


def test_unknown_option_is_refused():
    with pytest.raises(OptionError, match="unknown table option"):
        TableOptions.validated(jokers=3)
    with pytest.raises(OptionError, match="unknown table option"):
        TableOptions.from_dict({"seats": 3, "colour": "red"})


def test_dict_round_trip():
    o = TableOptions.validated(mode="esli", turn_seconds=60, hand_limit=3, private=True)
    d = o.to_dict()
    assert d["mode"] == "esli"
    assert TableOptions.from_dict(d) == o
    assert TableOptions.from_dict({}) == TableOptions()
    with pytest.raises(OptionError):
        TableOptions.from_dict(["seats", 4])
