"""Invites through the services: reserving a seat, the e-mail, the link, and every refusal."""

import hashlib
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import TestCase
from django.utils import timezone

from games.errors import ServiceError
from games.invites.services import invite_accept, invite_cancel, invite_create, invite_resend
from games.lobby.reads import lobby_tables, my_tables
from games.models import Invite, Table
from games.table.bots import bot_add
from games.table.create import table_create
from games.table.lifecycle import table_start
from games.table.seats import seat_leave, seat_take
from tests.games.helpers import version_of

pytestmark = pytest.mark.django_db

PARTNER = "partner@example.com"


def token_in(message) -> str:
    return re.search(r"/invite/([A-Za-z0-9_-]+)/", message.body).group(1)


@pytest.fixture(autouse=True)
def _mail_by_task(celery_eager):
    """E-mail goes out by the Celery task after commit (accounts/tasks.py): run it at once."""


@pytest.fixture
def esli(users, in_memory_layer):
    """An Eşli table: the manager (users[0]) sits at seat 1; seats 2 to 4 are free."""
    return table_create(manager=users[0], options={"mode": "esli"})


def committed():
    """Run the on_commit callbacks (the e-mail) as the real commit would."""
    return TestCase.captureOnCommitCallbacks(execute=True)


def invite(table, email=PARTNER, seat=2):
    """Invite ``email`` into ``seat`` (0-based) and return (invite, token from the e-mail)."""
    sent = len(mail.outbox)
    with committed():
        inv = invite_create(table_id=table.pk, inviter=table.manager, email=email, seat_index=seat)
    assert len(mail.outbox) == sent + 1, "the e-mail goes out once the transaction commits"
    return inv, token_in(mail.outbox[-1])


def refused(code, fn, table, **kw):
    before = (version_of(table), Invite.objects.count(), len(mail.outbox))
    with pytest.raises(ServiceError) as e, committed():
        fn(**kw)
    assert e.value.code == code, e.value
    assert (version_of(table), Invite.objects.count(), len(mail.outbox)) == before
    return e.value


# --- sending -------------------------------------------------------------------------------------


def test_invite_reserves_the_seat_and_mails_a_single_use_link(esli, users, settings):
    v = version_of(esli)
    inv, token = invite(esli)
    message = mail.outbox[-1]
    assert message.to == [PARTNER]
    assert settings.SITE_URL + f"/invite/{token}/" in message.body
    # only the token's hash is stored: the database never holds a working link
    assert inv.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(Invite.objects.values_list().get())
    assert len(token) >= 40  # secrets.token_urlsafe(32): 256 bits, not guessable
    assert inv.state == "sent" and inv.seat_index == 2
    assert inv.expires_at - inv.sent_at == timedelta(hours=48)
    assert version_of(esli) == v + 1  # every viewer sees the seat as reserved


def test_an_account_gets_the_email_in_its_own_language(esli, users):
    """The invitee's profile decides, whichever language the inviter reads the site in."""
    from allauth.account.models import EmailAddress

    users[0].profile.language = "tr"
    users[0].profile.save()
    users[1].profile.language = "en"
    users[1].profile.save()
    EmailAddress.objects.create(user=users[1], email="Second@Example.com", verified=True)
    inv, _ = invite(esli, "second@example.com", seat=2)
    en = mail.outbox[-1]
    assert inv.language == "en"
    assert "invites you to Okey table" in en.subject and "/en/invite/" in en.body
    inv, _ = invite(esli, users[2].email, seat=1)  # the account's own address (User.email)
    assert inv.language == "tr"  # users[2]'s profile: the default, Turkish


def test_an_address_without_an_account_gets_the_inviters_language(esli, users):
    users[0].profile.language = "tr"
    users[0].profile.save()
    invite(esli, "turkish@example.com", seat=2)  # the manager's partner
    tr = mail.outbox[-1]
    users[0].profile.language = "en"
    users[0].profile.save()
    invite(esli, "english@example.com", seat=1)  # an opponent
    en = mail.outbox[-1]
    assert "invites you to Okey table" in en.subject and "/en/invite/" in en.body
    assert "Eşli Okey" in en.body and "seat 2 is kept for you" in en.body
    assert "as the partner of" not in en.body
    assert "masasına davet ediyor" in tr.subject and "3. yer size ayrıldı" in tr.body
    assert "partneri" in tr.body and "/en/invite/" not in tr.body


def test_the_expiry_is_a_setting(esli, settings):
    settings.OKEY_INVITE_HOURS = 6
    inv, _ = invite(esli)
    assert inv.expires_at - inv.sent_at == timedelta(hours=6)


@pytest.mark.parametrize("email", ["not-an-address", "a@b", "", "x@@example.com", None])
def test_a_bad_address_is_refused(esli, email):
    e = refused(
        "bad_email",
        invite_create,
        esli,
        table_id=esli.pk,
        inviter=esli.manager,
        email=email,
        seat_index=2,
    )
    assert "e-mail" in str(e.message).lower() or "e-posta" in str(e.message).lower()


def test_inviting_oneself_is_refused_whatever_the_case(esli, users):
    refused(
        "invite_self",
        invite_create,
        esli,
        table_id=esli.pk,
        inviter=users[0],
        email=users[0].email.upper(),
        seat_index=2,
    )


def test_a_taken_seat_a_reserved_seat_and_a_full_table_are_refused(esli, users):
    seat_take(table_id=esli.pk, user=users[1], index=1)
    kw = {"table_id": esli.pk, "inviter": users[0]}
    refused("seat_taken", invite_create, esli, **kw, email=PARTNER, seat_index=1)
    invite(esli, PARTNER, seat=2)
    refused("seat_reserved", invite_create, esli, **kw, email="b@x.org", seat_index=2)
    refused("cannot_invite", invite_create, esli, **kw, email=PARTNER, seat_index=3)
    refused("cannot_invite", invite_create, esli, **kw, email=users[1].email, seat_index=3)
    invite(esli, "third@example.com", seat=3)
    # every seat is now taken or reserved
    refused("table_full", invite_create, esli, **kw, email="x@x.org", seat_index=3)


def test_only_the_manager_invites_and_only_before_the_start(esli, users):
    seat_take(table_id=esli.pk, user=users[1], index=1)
    refused(
        "not_manager",
        invite_create,
        esli,
        table_id=esli.pk,
        inviter=users[1],
        email=PARTNER,
        seat_index=2,
    )
    for i in (2, 3):
        seat_take(table_id=esli.pk, user=users[i], index=i)
    table_start(table_id=esli.pk, user=users[0])
    refused(
        "not_open",
        invite_create,
        esli,
        table_id=esli.pk,
        inviter=users[0],
        email=PARTNER,
        seat_index=2,
    )


def test_one_manager_cannot_flood_addresses(esli, users, monkeypatch):

    monkeypatch.setattr("games.invites.services.INVITES_PER_HOUR", 2)
    invite(esli, "a@example.com", seat=1)
    invite(esli, "b@example.com", seat=2)
    refused(
        "invite_fast",
        invite_create,
        esli,
        table_id=esli.pk,
        inviter=users[0],
        email="c@example.com",
        seat_index=3,
    )


# --- the reserved seat ---------------------------------------------------------------------------


def test_strangers_cannot_take_a_reserved_seat_until_cancelled(esli, users):
    inv, _ = invite(esli)
    with pytest.raises(ServiceError) as e:
        seat_take(table_id=esli.pk, user=users[1], index=2)
    assert e.value.code == "seat_reserved"
    invite_cancel(invite_id=inv.pk, user=users[0])
    seat_take(table_id=esli.pk, user=users[1], index=2)
    assert esli.seats.get(index=2).user == users[1]


def test_an_expired_invite_frees_its_seat(esli, users):
    inv, token = invite(esli)
    Invite.objects.filter(pk=inv.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert Invite.objects.get(pk=inv.pk).state == "expired"
    seat_take(table_id=esli.pk, user=users[1], index=2)
    assert esli.seats.get(index=2).user == users[1]


def test_a_reserved_seat_is_not_free_in_the_lobby(esli, users):
    invite(esli)
    row = next(t for t in lobby_tables(users[1]) if t["id"] == esli.pk)
    assert [s["free"] for s in row["seats"]] == [False, True, False, True]
    assert row["seats"][2]["reserved"]


# --- following the link --------------------------------------------------------------------------


def test_the_link_seats_the_person_who_follows_it(esli, users):
    inv, token = invite(esli)
    v = version_of(esli)
    accepted = invite_accept(token=token, user=users[2])
    assert esli.seats.get(index=2).user == users[2]
    assert accepted.state == "accepted" and accepted.accepted_by == users[2]
    assert version_of(esli) == v + 1


def test_a_used_link_is_refused_to_everyone(esli, users):
    inv, token = invite(esli)
    invite_accept(token=token, user=users[2])
    with pytest.raises(ServiceError) as again:
        invite_accept(token=token, user=users[2])
    assert again.value.code == "invite_used"
    with pytest.raises(ServiceError) as other:
        invite_accept(token=token, user=users[3])
    assert other.value.code == "invite_taken"
    assert esli.seats.get(index=2).user == users[2]
    assert not esli.seats.filter(user=users[3]).exists()


def test_an_expired_link_is_refused(esli, users):
    inv, token = invite(esli)
    Invite.objects.filter(pk=inv.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(ServiceError) as e:
        invite_accept(token=token, user=users[2])
    assert e.value.code == "invite_expired"
    assert esli.seats.get(index=2).user is None


def test_a_cancelled_link_is_refused(esli, users):
    inv, token = invite(esli)
    invite_cancel(invite_id=inv.pk, user=users[0])
    with pytest.raises(ServiceError) as e:
        invite_accept(token=token, user=users[2])
    assert e.value.code == "invite_cancelled"


def test_a_resend_kills_the_old_link(esli, users):
    inv, old = invite(esli)
    sent = len(mail.outbox)
    with committed():
        invite_resend(invite_id=inv.pk, user=users[0])
    assert len(mail.outbox) == sent + 1
    new = token_in(mail.outbox[-1])
    assert new != old
    with pytest.raises(ServiceError) as e:
        invite_accept(token=old, user=users[2])
    assert e.value.code == "invite_unknown"
    invite_accept(token=new, user=users[2])
    assert Invite.objects.get(pk=inv.pk).sends == 2


def test_an_expired_invite_can_be_resent(esli, users):
    inv, _ = invite(esli)
    Invite.objects.filter(pk=inv.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    with committed():
        invite_resend(invite_id=inv.pk, user=users[0])
    inv.refresh_from_db()
    assert inv.state == "sent" and inv.expires_at > timezone.now() + timedelta(hours=47)
    invite_accept(token=token_in(mail.outbox[-1]), user=users[2])


def test_accepted_and_cancelled_invites_cannot_be_resent_or_cancelled(esli, users):
    a, token = invite(esli, "a@example.com", seat=1)
    invite_accept(token=token, user=users[1])
    c, _ = invite(esli, "c@example.com", seat=2)
    invite_cancel(invite_id=c.pk, user=users[0])
    for inv, code in ((a, "invite_accepted"), (c, "invite_cancelled")):
        for fn in (invite_resend, invite_cancel):
            with pytest.raises(ServiceError) as e:
                fn(invite_id=inv.pk, user=users[0])
            assert e.value.code == code


def test_a_guessed_token_is_refused(esli, users):
    invite(esli)
    for guess in ("x" * 43, "", "short", None, 12):
        with pytest.raises(ServiceError) as e:
            invite_accept(token=guess, user=users[2])
        assert e.value.code == "invite_unknown"


def test_the_manager_cannot_use_their_own_link(esli, users):
    inv, token = invite(esli)
    with pytest.raises(ServiceError) as e:
        invite_accept(token=token, user=users[0])
    assert e.value.code == "invite_self"


def test_a_link_moves_a_seated_player_to_the_reserved_seat(esli, users):
    seat_take(table_id=esli.pk, user=users[2], index=1)
    inv, token = invite(esli, PARTNER, seat=2)
    invite_accept(token=token, user=users[2])
    assert esli.seats.get(index=2).user == users[2] and esli.seats.get(index=1).user is None


# --- private tables ------------------------------------------------------------------------------


def test_private_tables_seat_only_invited_players(users):
    table = table_create(manager=users[0], options={"private": True, "seats": 3})
    with pytest.raises(ServiceError) as e:
        seat_take(table_id=table.pk, user=users[1], index=1)
    assert e.value.code == "private"
    inv, token = invite(table, users[1].email, seat=1)
    invite_accept(token=token, user=users[1])
    assert table.seats.get(index=1).user == users[1]
    # the manager may move about their own table
    seat_take(table_id=table.pk, user=users[0], index=2)
    assert table.seats.get(index=2).user == users[0]


def test_private_tables_are_in_my_tables_not_in_the_lobby(users):
    table = table_create(manager=users[0], options={"private": True})
    assert table.pk not in [t["id"] for t in lobby_tables(users[0])]
    assert table.pk not in [t["id"] for t in lobby_tables(users[1])]
    mine = my_tables(users[0])
    assert [t["id"] for t in mine] == [table.pk] and mine[0]["private"]
    assert my_tables(users[1]) == []
    inv, token = invite(table, users[1].email, seat=1)
    invite_accept(token=token, user=users[1])
    assert [t["id"] for t in my_tables(users[1])] == [table.pk]


def test_closed_table_links_are_refused(esli, users):
    inv, token = invite(esli)
    seat_leave(table_id=esli.pk, user=users[0])  # the last person left: closed
    assert Table.objects.get(pk=esli.pk).status == "closed"
    with pytest.raises(ServiceError) as e:
        invite_accept(token=token, user=users[2])
    assert e.value.code == "not_open"


# --- bots ---------------------------------------------------------------------------------------


def test_bots_do_not_take_a_reserved_seat_at_the_start(esli, users):
    inv, token = invite(esli, seat=2)
    with pytest.raises(ServiceError) as e:
        table_start(table_id=esli.pk, user=users[0])
    assert e.value.code == "seat_invited" and "3" in str(e.value.message)
    assert not esli.seats.filter(is_bot=True).exists()
    with pytest.raises(ServiceError) as e:
        bot_add(table_id=esli.pk, user=users[0], index=2)
    assert e.value.code == "seat_reserved"
    # once the invited player sits, bots fill the other seats at the start
    invite_accept(token=token, user=users[2])
    table_start(table_id=esli.pk, user=users[0])
    seats = {s.index: (s.user, s.is_bot) for s in esli.seats.all()}
    assert seats == {0: (users[0], False), 1: (None, True), 2: (users[2], False), 3: (None, True)}


def test_a_cancelled_invite_lets_bots_fill_its_seat(esli, users):
    inv, _ = invite(esli, seat=2)
    invite_cancel(invite_id=inv.pk, user=users[0])
    table_start(table_id=esli.pk, user=users[0])
    assert esli.seats.filter(is_bot=True).count() == 3
