"""Races on PostgreSQL: one invite link followed by two accounts at once, a stranger sitting
down while the manager reserves the seat, a staff action against a move."""

import re

import pytest
from django.core import mail
from django.test import TestCase
from django.utils.crypto import get_random_string

from games import engine
from games.errors import ServiceError
from games.invites.services import invite_accept, invite_create
from games.models import Invite, Move, StaffAction
from games.staff.services import hand_void_redeal
from games.table.create import table_create
from games.table.moves import MoveOutcome, move_submit
from games.table.seats import seat_take
from tests.games.conftest import game_started, table_full
from tests.games.helpers import hand_state, version_of
from tests.games.table.test_concurrency import pytestmark as _pg_marks
from tests.games.table.test_concurrency import race

pytestmark = _pg_marks


@pytest.fixture(autouse=True)
def _mail_by_task(celery_eager):
    """E-mail goes out by the task after commit: here at once, in the caller."""


def invite_token(table, users, seat=2) -> str:
    with TestCase.captureOnCommitCallbacks(execute=True):
        invite_create(
            table_id=table.pk, inviter=users[0], email="partner@example.com", seat_index=seat
        )
    return re.search(r"/invite/([A-Za-z0-9_-]+)/", mail.outbox[-1].body).group(1)


@pytest.mark.parametrize("round_", range(3))
def test_one_link_two_accounts_at_once_seats_one(users, round_):
    table = table_create(manager=users[0], options={"mode": "esli"})
    token = invite_token(table, users)
    results = race(
        [
            lambda: invite_accept(token=token, user=users[1]),
            lambda: invite_accept(token=token, user=users[2]),
        ]
    )
    seated = [r for r in results if isinstance(r, Invite)]
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert len(seated) == 1 and len(refused) == 1 and refused[0].code == "invite_taken"
    seat = table.seats.get(index=2)
    assert seat.user_id == seated[0].accepted_by_id
    assert table.seats.filter(user__in=users[1:3]).count() == 1


@pytest.mark.parametrize("round_", range(3))
def test_a_stranger_racing_the_reservation_gets_the_seat_or_the_invite_is_refused(users, round_):
    table = table_create(manager=users[0], options={"mode": "esli"})

    def reserve():
        with TestCase.captureOnCommitCallbacks(execute=True):
            return invite_create(
                table_id=table.pk,
                inviter=users[0],
                email=f"{get_random_string(6)}@example.com",
                seat_index=2,
            )

    results = race([reserve, lambda: seat_take(table_id=table.pk, user=users[1], index=2)])
    seat = table.seats.get(index=2)
    if isinstance(results[0], Invite):
        # the reservation came first: the stranger was refused and the seat waits
        assert isinstance(results[1], ServiceError) and results[1].code == "seat_reserved"
        assert seat.user is None
    else:
        assert results[0].code == "seat_taken" and seat.user == users[1]
        assert not Invite.objects.exists()


def test_a_staff_void_racing_a_move_leaves_one_consistent_order(
    users, fixed_seed, django_user_model
):
    staff = django_user_model.objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    table = game_started(table_full(users))
    v = version_of(table)
    tile = engine.format_tile(hand_state(table).racks[0][0])
    results = race(
        [
            lambda: move_submit(
                table_id=table.pk,
                user=users[0],
                move={"kind": "discard", "tile": tile},
                expected_version=v,
            ),
            lambda: hand_void_redeal(table_id=table.pk, staff=staff),
        ]
    )
    action = StaffAction.objects.get()
    assert isinstance(results[1], StaffAction)
    if isinstance(results[0], MoveOutcome):
        # the move came first, into hand 1, which the staff then voided
        assert Move.objects.get().hand.number == 1 and action.version_before == v + 1
    else:
        # the staff came first: the mover saw a stale version and nothing was applied
        assert results[0].code == "stale" and not Move.objects.exists()
        assert action.version_before == v
    assert version_of(table) == action.version_after == action.version_before + 1
