"""Finding 8: inviting an address tells the manager nothing about who sits at the table. Seat
state and the invite rate limit are checked before any address is compared, and an address
that cannot be invited gets one answer, whatever the reason."""

import pytest

from games.errors import ServiceError
from games.invites.services import INVITES_PER_HOUR, invite_create
from games.table.create import table_create
from games.table.seats import seat_take

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(users):
    table = table_create(manager=users[0], options={})
    seat_take(table_id=table.pk, user=users[1], index=1)
    return table


def answer(table, manager, email, seat) -> tuple[str, str]:
    with pytest.raises(ServiceError) as e:
        invite_create(table_id=table.pk, inviter=manager, email=email, seat_index=seat)
    return e.value.code, str(e.value.message)


def test_a_taken_seat_answers_the_same_for_a_seated_and_an_unknown_address(table, users):
    seated = answer(table, users[0], users[1].email, 1)
    unknown = answer(table, users[0], "nobody@example.com", 1)
    assert seated == unknown and seated[0] == "seat_taken"


def test_the_rate_limit_comes_before_the_address_is_compared(table, users, monkeypatch):
    monkeypatch.setattr("games.invites.services.INVITES_PER_HOUR", 0)
    assert answer(table, users[0], users[1].email, 2)[0] == "invite_fast"
    assert INVITES_PER_HOUR > 0


def test_an_address_that_cannot_be_invited_gets_one_generic_answer(table, users):
    invite_create(table_id=table.pk, inviter=users[0], email="a@example.com", seat_index=2)
    seated = answer(table, users[0], users[1].email, 3)
    invited = answer(table, users[0], "a@example.com", 3)
    assert seated == invited
    assert "sits" not in seated[1]
