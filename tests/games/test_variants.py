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
