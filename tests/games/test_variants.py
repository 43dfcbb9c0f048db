"""The game a table plays (Table.variant): chosen once with the table's options, stored in its own
column, and the rules read through the engine's record of that game."""

import pytest

from games import engine
from games.engine import OptionError
from games.engine.okey101.options import Options101
from games.errors import ServiceError
from games.models import Table
from games.policy import TablePolicy, table_choices
from games.table.create import table_create


def test_the_variant_choice_picks_the_games_options():
    assert table_choices({"variant": "101", "katlamali": True}) == (
        Options101(katlamali=True),
        TablePolicy(),
    )
    rules, _ = table_choices({"variant": "esli101", "hand_limit": 5})
    assert rules == Options101(esli=True, hand_limit=5)
    # Düz Okey's own option still names Düz or Eşli
    assert table_choices({"mode": "esli"})[0].mode == "esli"
    assert table_choices({"variant": "esli"})[0].mode == "esli"


@pytest.mark.parametrize(
    "choices",
    [
        {"variant": "okey"},
        {"variant": 101},
        {"variant": "101", "start_count": 20},  # a Düz option is no 101 option
        {"variant": "esli101", "seats": 3},
        {"variant": "101", "bot_strength": "hard"},  # 101's bots play "normal" or "easy"
    ],
)
def test_a_choice_the_game_does_not_have_is_refused(choices):
    with pytest.raises(OptionError):
        table_choices(choices)


@pytest.mark.django_db
def test_a_101_table_stores_its_variant_and_reads_its_rules(users):
    table = table_create(manager=users[0], options={"variant": "esli101", "katlamali": True})
    table = Table.objects.get(pk=table.pk)
    assert table.variant == "esli101"
    assert table.engine_variant is engine.variant("esli101")
    assert table.rules == Options101(esli=True, katlamali=True)
    assert table.seats.count() == 4
    with pytest.raises(ServiceError):
        table_create(manager=users[0], options={"variant": "101", "colour_doubling": True})


@pytest.mark.django_db
def test_a_duz_table_named_by_its_mode_keeps_it(users):
    table = table_create(manager=users[0], options={"mode": "esli"})
    table.refresh_from_db()
    assert table.variant == "esli" and table.options["mode"] == "esli"
    assert table.game.latest_hand() is None


@pytest.mark.parametrize(
    ("name", "options"),
    [("duz", {}), ("esli", {}), ("101", {"katlamali": True}), ("esli101", {})],
)
def test_a_move_changes_no_own_part_but_those_its_family_names(name, options):
    """A move's publish builds and compares only the own parts of the seats the family names
    (games.table.publish.move_event): every other player's rack and moves must be as they were,
    or their page would miss the change. Bots play whole hands (a katlamalı 101 hand, whose
    openings raise every player's threshold, too)."""
    import random
    from types import SimpleNamespace

    from games.variants import site_variant

    variant = site_variant(name)
    rules, family = variant.engine, variant.family
    rng = random.Random(7)
    checked = 0
    for _hand in range(3):
        seed = bytes(rng.getrandbits(8) for _ in range(32))
        state = rules.deal(seed, rules.options_from_dict(options), rng.randrange(4))
        while state.phase != "over" and checked < 400:
            before_turn = state.turn
            for move in rules.bot_moves(state, before_turn, variant.bot_strengths[-1]):
                if state.phase == "over":
                    break
                new = rules.apply(state, move)
                named = family.own_seats(state, new, before_turn)
                for i in set(range(state.n)) - named:
                    seat = SimpleNamespace(index=i, away=False)
                    old, now = (family.rack_view(1, 1, seat, None, s) for s in (state, new))
                    assert family.own_changed(old, now) == (False, False), (name, move, i)
                state, checked = new, checked + 1
    assert checked > 100
