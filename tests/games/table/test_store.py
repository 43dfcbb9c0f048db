"""games.table.store: the fixed statements (PostgreSQL) read and write the same rows as the ORM.

The rest of the suite runs the store the database's settings choose ("sql" on PostgreSQL, "orm"
on SQLite); here both are run side by side on PostgreSQL, on the same table.
"""

import random
import uuid

import pytest
from django.conf import settings
from django.db import transaction

from games import engine
from games.models import Game, Hand, Move, Seat
from games.names import player_name
from games.table.bots import bot_add
from games.table.moves import move_submit
from games.table.store import move_rows_lock
from tests.games.conftest import game_started, table_full
from tests.games.helpers import hand_state, random_move, version_of

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "okeysite.postgresql",
        reason="the sql store needs PostgreSQL: set DATABASE_URL=postgres://...",
    ),
]


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def rows_seen(table_id, which):
    with transaction.atomic():
        settings.OKEY_MOVE_STORE = which
        rows = move_rows_lock(table_id)
    return {
        "game": fields_of(rows.game),
        "table": fields_of(rows.table),
        "hand": fields_of(rows.hand) if rows.hand else None,
        "seats": [
            (
                fields_of(s),
                fields_of(s.user) if s.user else None,
                fields_of(s.user.profile) if s.user else None,
            )
            for s in rows.seats
        ],
    }


@pytest.mark.django_db
def test_both_stores_read_the_same_rows(users, fixed_seed, in_memory_layer, settings):
    # three players and a bot: an empty-user seat must come back without a user
    table = table_full(users[:3])
    bot_add(table_id=table.pk, user=users[0], index=3)
    game_started(table)
    sql, orm = rows_seen(table.pk, "sql"), rows_seen(table.pk, "orm")
    assert sql == orm
    assert sql["hand"]["state"]["racks"], "the hand's JSON state is decoded, not left as text"
    assert [s[2]["display_name"] for s in sql["seats"][:3]] == [
        u.profile.display_name for u in users[:3]
    ]
    assert sql["seats"][3][1] is None


@pytest.mark.django_db
@pytest.mark.parametrize("which", ["sql", "orm"])
def test_a_player_without_a_profile_is_named_without_a_query_per_read(
    users, fixed_seed, in_memory_layer, settings, which, django_assert_num_queries
):
    # accounts made outside sign-up (a script's bulk insert) have no profile: the move path
    # names them from their login, and must not ask the database again at every seat's read
    table = game_started(table_full(users))
    users[1].profile.delete()
    with transaction.atomic():
        settings.OKEY_MOVE_STORE = which
        rows = move_rows_lock(table.pk)
    with django_assert_num_queries(0):
        names = [player_name(s.user) for s in rows.seats]
    assert names[1] == users[1].get_username().split("@")[0]
    assert names[0] == users[0].profile.display_name


@pytest.mark.django_db
def test_a_table_that_does_not_exist_has_no_rows(settings):
    settings.OKEY_MOVE_STORE = "sql"
    with transaction.atomic():
        assert move_rows_lock(10**12) is None
        assert move_rows_lock("not a table") is None


def play(users, which, settings, moves=40) -> tuple[list, dict, list]:
    """Play the same seeded moves on a fresh table with the ``which`` store; what the rows
    hold after them."""
    settings.OKEY_MOVE_STORE = which
    table = game_started(table_full(users))
    rng = random.Random(7)
    for _ in range(moves):
        state = hand_state(table)
        if state.phase == "over":
            break
        move_submit(
            table_id=table.pk,
            user=users[state.turn],
            move=random_move(state, rng),
            expected_version=version_of(table),
            idempotency_key=uuid.uuid4().hex,
        )
    hand = Hand.objects.get(game__table=table)
    game = Game.objects.get(table=table)
    log = list(
        Move.objects.filter(hand=hand).values_list("seq", "seat", "kind", "tile", "version", "user")
    )
    seats = list(Seat.objects.filter(table=table).values_list("index", "away", "timeouts_in_row"))
    return (
        log,
        {"state": hand.state, "version": hand.version, "over": hand.over, "g": game.version},
        seats,
    )


@pytest.mark.django_db
def test_both_stores_write_the_same_moves(users, fixed_seed, in_memory_layer, settings):
    sql = play(users, "sql", settings)
    Game.objects.all().delete()
    orm = play(users, "orm", settings)
    assert sql == orm
    assert len(sql[0]) == 40


@pytest.mark.django_db
def test_a_move_through_the_sql_store_is_a_model_row(users, fixed_seed, in_memory_layer, settings):
    settings.OKEY_MOVE_STORE = "sql"
    table = game_started(table_full(users))
    state = hand_state(table)
    tile = engine.format_tile(state.racks[state.turn][0])
    outcome = move_submit(
        table_id=table.pk,
        user=users[state.turn],
        move={"kind": "discard", "tile": tile},
        expected_version=version_of(table),
        idempotency_key="k1",
    )
    saved = Move.objects.get(pk=outcome.move.pk)
    assert (saved.kind, saved.tile, saved.idempotency_key, saved.version) == (
        "discard",
        tile,
        "k1",
        outcome.version,
    )
    assert saved.created is not None
    # a retry with the same key finds it through the ORM's own lookup
    again = move_submit(
        table_id=table.pk,
        user=users[state.turn],
        move={"kind": "discard", "tile": tile},
        expected_version=outcome.version - 1,
        idempotency_key="k1",
    )
    assert again.duplicate and again.version == outcome.version
