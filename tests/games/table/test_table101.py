"""A 101 table at the site: dealt, played through the one move path (a person's moves, bots'
turns, timeouts), its moves stored whole and replayed from the seed, its page and frames showing
the melds, its results counting penalties and totals."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import engine
from games.errors import ServiceError
from games.models import Move, Table
from games.table.create import table_create
from games.table.lifecycle import game_start, table_start
from games.table.moves import move_submit
from games.table.reads import table_rows, table_view
from games.table.render import frame_full
from tests.games.helpers import current_hand, version_of
from tests.games.timing import run_due

pytestmark = pytest.mark.django_db


def start_now(table):
    version = table_start(table_id=table.pk, user=table.manager)
    assert game_start(table_id=table.pk, expected_version=version)
    table.refresh_from_db()
    return table


def state_of(table):
    return engine.variant(table.variant).hand_from_dict(current_hand(table).state)


@pytest.mark.parametrize("variant", ["101", "esli101"])
def test_a_101_game_is_played_to_its_end_and_each_hand_replays_from_its_seed(
    client, users, variant, django_user_model
):
    table = table_create(manager=users[0], options={"variant": variant, "hand_limit": 2})
    table = start_now(table)
    hand = current_hand(table)
    assert len(state_of(table).racks[hand.first_seat]) == 22
    run_due(table)  # bots play; the person's turns time out and are played for them
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    game = table.game
    game.refresh_from_db()
    assert game.results["hands"] == 2 and len(game.results["counts"]) == 4
    rules = table.engine_variant
    for hand in game.hands.all():
        rows = list(Move.objects.filter(hand=hand).order_by("seq"))
        moves = [m.as_engine_dict() for m in rows]
        final = rules.hand_from_dict(hand.state)
        assert rules.verify_deal(bytes(hand.seed), hand.commitment, final, moves)
        if final.table:  # somebody laid: its move carried its groups whole
            assert any(m.kind == "lay" and m.detail["groups"] for m in rows)
        # the deal's check page replays the stored moves: every verdict is "yes"
        page = client.get(reverse("games:verify", args=[table.pk, hand.number])).content.decode()
        assert 'class="verdict bad"' not in page and page.count('class="verdict ok"') >= 2
        # the staff's replay steps through it, the log matching the stored hand
        replay = staff_client(django_user_model).get(
            reverse("admin:games_hand_replay", args=[hand.pk]), {"step": len(moves)}
        )
        assert replay.status_code == 200
        assert replay.context["log_matches"]


def staff_client(django_user_model):
    from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
    from django.contrib.auth.models import Permission

    staff, _ = django_user_model.objects.get_or_create(
        username="moderator", defaults={"email": "mod@example.com", "is_staff": True}
    )
    staff.user_permissions.set(Permission.objects.filter(codename__in=["view_hand"]))
    if not staff.authenticator_set.exists():
        TOTP.activate(staff, generate_totp_secret())
    client = Client()
    client.force_login(staff)
    return client


def test_a_person_moves_at_a_101_table_through_the_one_move_path(users, settings):
    settings.OKEY_TEST_SEED_HEX = "01" * 32  # the manager, seat 1, starts
    table = table_create(manager=users[0], options={"variant": "101", "seats": 2})
    table = start_now(table)
    me = 0
    assert state_of(table).turn == me
    # the page shows the rack's 21 or 22 tiles, the tray and what an opening needs
    rows = table_rows(table.pk)
    with translation.override("en"):
        html = frame_full(table_view(rows, users[0]))
    assert 'id="rack-data"' in html and "An opening needs 101" in html
    # a malformed lay is refused before the engine sees it, and nothing changes
    version = version_of(table)
    with pytest.raises(ServiceError) as e:
        move_submit(
            table_id=table.pk,
            user=users[0],
            move={"kind": "lay", "groups": "R1"},
            expected_version=version,
        )
    assert e.value.code == "malformed" and version_of(table) == version
    # the first turn is a discard only: a lay is refused by the engine, saying why
    rack = [engine.format_tile(t) for t in state_of(table).racks[me]]
    with pytest.raises(ServiceError) as e:
        move_submit(
            table_id=table.pk,
            user=users[0],
            move={"kind": "lay", "groups": [rack[:3]]},
            expected_version=version,
        )
    assert e.value.code == "first_turn_discard"
