"""A player deletes their account: the fate of every row that pointed at them, the pages, the
e-mailed link for an account without a password, and the audit log's line."""

import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.apps import apps
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.contrib.contenttypes.models import ContentType
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone, translation

from accounts.deletion import USER_ROWS, account_delete
from accounts.models import Profile
from games.errors import ServiceError
from games.models import (
    ChatMessage,
    Game,
    Invite,
    Move,
    PlayerResult,
    Seat,
    StaffAction,
    Table,
)
from games.names import player_name
from games.staff.services import game_end, seat_remove
from games.table.chat import chat_post
from games.table.create import table_create
from games.table.seats import seat_take
from tests.games.conftest import fixed_seed, game_started, in_memory_layer, table_full
from tests.games.helpers import discard_first

__all__ = ["fixed_seed", "in_memory_layer"]  # fixtures shared with tests/games

pytestmark = pytest.mark.django_db

PASSWORD = "pw-okey-1234"


@pytest.fixture
def users(django_user_model):
    users = []
    for i in range(1, 6):
        user = django_user_model.objects.create_user(
            username=f"player{i}", email=f"player{i}@example.com", password=PASSWORD
        )
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        Profile.objects.filter(user=user).update(display_name=f"Oyuncu{i}")
        user.refresh_from_db()
        users.append(user)
    return users


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("mod", "mod@example.com", "x", is_staff=True)


def invite_row(table, inviter, email, seat, **fields):
    now = timezone.now()
    return Invite.objects.create(
        table=table,
        seat_index=seat,
        email=email,
        inviter=inviter,
        language="tr",
        token_hash=f"{table.pk:08d}{seat}{email}"[:64].ljust(64, "0"),
        sent_at=now,
        expires_at=now + timedelta(days=1),
        **fields,
    )


@pytest.fixture
def history(users, staff, fixed_seed, in_memory_layer):
    """Everything a player leaves behind: a finished, rated game with moves and chat; a
    staff action naming them; an invite they sent (live) and one they accepted; a game under
    way and an open table they sit at; and a line of the admin's history about them."""
    me, others = users[0], users[1:4]
    finished = game_started(table_full([me, *others]))
    discard_first(finished, me)  # seat 0 starts with 15 tiles: a move of mine
    chat_post(table_id=finished.pk, user=me, text="iyi oyunlar")
    chat_post(table_id=finished.pk, user=others[0], text="sana da")
    game = Game.objects.get(table=finished)
    game.state = {**game.state, "counts": [10, 16, 22, 18], "hands_played": 1}
    game.save()
    game_end(table_id=finished.pk, staff=staff)
    # a game under way at which I sit at seat 1, and a staff action about seat 2 there
    running = game_started(table_full([others[0], me, others[1], others[2]]))
    # an open table of someone else's where I sit, and one I made with a live invite of mine
    open_table = table_create(manager=others[2], options={})
    seat_take(table_id=open_table.pk, user=me, index=1)
    mine = table_create(manager=me, options={"private": True})
    invite_row(mine, me, "friend@example.com", 2)
    accepted = invite_row(
        open_table, others[2], me.email, 1, status="accepted", accepted_by=me
    )  # fmt: skip
    # a staff action that names me: I was removed from a seat, then sat again elsewhere
    removed_at = table_create(manager=others[1], options={})
    seat_take(table_id=removed_at.pk, user=me, index=3)
    seat_remove(seat_id=Seat.objects.get(table=removed_at, user=me).pk, staff=staff)
    LogEntry.objects.create(
        user=staff,
        content_type=ContentType.objects.get_for_model(me),
        object_id=str(me.pk),
        object_repr=str(me),
        action_flag=CHANGE,
        change_message="Changed email.",
    )
    return {
        "me": me,
        "others": others,
        "finished": finished,
        "running": running,
        "open": open_table,
        "mine": mine,
        "accepted": accepted,
    }


def test_every_row_that_points_at_a_user_has_a_fate():
    """A new model with a link to the user must say what an account's deletion does to it."""
    user_model = get_user_model()
    found = {
        f"{m._meta.label_lower}.{f.name}"
        for m in apps.get_models()
        for f in m._meta.get_fields()
        if f.is_relation and not f.auto_created and f.related_model is user_model
        and not f.many_to_many
    }  # fmt: skip
    assert found <= set(USER_ROWS), found - set(USER_ROWS)


def test_deleting_an_account_erases_the_person_and_keeps_the_games(history, users):
    me, others = history["me"], history["others"]
    my_id = me.pk
    results_before = PlayerResult.objects.filter(user=me).count()
    moves_before = Move.objects.filter(user=me).count()
    assert results_before == 1 and moves_before == 1

    action = account_delete(me)

    user = get_user_model().objects.get(pk=my_id)
    # the person: nothing left that says who they were, and no way in
    assert not user.is_active and not user.is_staff and not user.has_usable_password()
    assert user.email == "" and user.username == f"deleted:{my_id}"
    with pytest.raises(ValidationError):  # a name no living account can have
        UnicodeUsernameValidator()(user.username)
    assert not EmailAddress.objects.filter(user=user).exists()
    assert authenticate(email="player1@example.com", password=PASSWORD) is None
    profile = Profile.objects.get(user=user)
    assert profile.deleted is not None and "Oyuncu1" not in profile.display_name
    with translation.override("tr"):
        assert player_name(user) == "Silinmiş oyuncu"
    with translation.override("en"):
        assert player_name(user) == "Deleted player"
    # what was theirs alone: their chat lines and the invites they sent
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["sana da"]
    assert not Invite.objects.filter(inviter=user).exists()
    accepted = Invite.objects.get(pk=history["accepted"].pk)
    assert accepted.accepted_by_id == my_id and accepted.email == ""
    # the games: results and moves stay, under the anonymous user; their name is gone from them
    assert PlayerResult.objects.filter(user=user).count() == results_before
    assert Move.objects.filter(user=user).count() == moves_before
    results = Game.objects.get(table=history["finished"]).results
    assert [p["name"] for p in results["players"]] == ["", "Oyuncu2", "Oyuncu3", "Oyuncu4"]
    for a in StaffAction.objects.exclude(kind=StaffAction.Kind.ACCOUNT_DELETE):
        assert "Oyuncu1" not in str(a.details) and "player1@" not in str(a.details)
    assert Seat.objects.get(table=history["finished"], index=0).user_id == my_id
    # the tables not over: left, the game under way played on by a bot (bots fill by default)
    seat = Seat.objects.get(table=history["running"], index=1)
    assert seat.user_id is None and seat.is_bot
    assert not Seat.objects.filter(table=history["open"], user=user).exists()
    assert Table.objects.get(pk=history["open"].pk).status == Table.Status.OPEN  # others sit
    # the admin's history no longer names them
    entry = LogEntry.objects.get(object_id=str(my_id))
    assert "player1" not in entry.object_repr and entry.change_message == ""
    # the audit log: one line, no name
    assert action.kind == StaffAction.Kind.ACCOUNT_DELETE and action.staff is None
    assert action.details["user"] == my_id
    assert action.details["chat_lines"] == 1 and action.details["invites_sent"] == 1
    assert {t["table"] for t in action.details["tables_left"]} == {
        history["running"].pk,
        history["open"].pk,
        history["mine"].pk,  # its manager sat at it alone: leaving closed it, as the leave does
    }
    assert Table.objects.get(pk=history["mine"].pk).status == Table.Status.CLOSED
    assert "Oyuncu1" not in str(action.details) and "player1" not in str(action.details)
    # the others are untouched
    for other in others:
        other.refresh_from_db()
        assert other.is_active and other.profile.deleted is None


def test_an_account_is_deleted_once(users):
    account_delete(users[0])
    with pytest.raises(ServiceError) as e:
        account_delete(get_user_model().objects.get(pk=users[0].pk))
    assert e.value.code == "deleted"
    assert StaffAction.objects.filter(kind=StaffAction.Kind.ACCOUNT_DELETE).count() == 1


def test_the_leaderboard_and_the_results_show_no_trace(history, client):
    account_delete(history["me"])
    html = client.get(reverse("leaderboard")).content.decode()
    assert "Oyuncu2" in html and "Oyuncu1" not in html
    page = client.get(reverse("games:table", args=[history["finished"].pk]))
    html = page.content.decode()
    assert "Oyuncu1" not in html and "Silinmiş oyuncu" in html
    gone = client.get(reverse("accounts:profile_detail", args=[history["me"].pk]))
    assert gone.status_code == 404


def test_the_staff_audit_log_lists_the_deletion(users, staff, client):
    account_delete(users[0])
    staff.is_superuser = True
    staff.save()
    TOTP.activate(staff, generate_totp_secret())  # the admin opens to staff with a second factor
    client.force_login(staff)
    html = client.get("/en/admin/games/staffaction/").content.decode()
    assert "a player deleted their account" in html
    assert "Oyuncu1" not in html and "player1@" not in html


def test_the_second_factor_goes_with_the_account(users):
    TOTP.activate(users[0], generate_totp_secret())
    account_delete(users[0])
    assert not Authenticator.objects.filter(user=users[0]).exists()


# --- the pages ------------------------------------------------------------------------------


def test_a_wrong_password_changes_nothing(users, client):
    client.force_login(users[0])
    response = client.post(reverse("accounts:delete"), {"password": "not-it"})
    assert response.status_code == 400
    assert "Bu sizin şifreniz değil." in response.content.decode()
    users[0].refresh_from_db()
    assert users[0].is_active and users[0].email == "player1@example.com"


def test_wrong_passwords_are_limited(users, client):
    client.force_login(users[0])
    for _ in range(5):
        client.post(reverse("accounts:delete"), {"password": "not-it"})
    response = client.post(reverse("accounts:delete"), {"password": PASSWORD})
    assert response.status_code == 400 and "Çok fazla yanlış şifre" in response.content.decode()
    users[0].refresh_from_db()
    assert users[0].is_active


def test_deleting_with_the_password_logs_out_for_good(users, client):
    client.force_login(users[0])
    page = client.get(reverse("accounts:delete")).content.decode()
    assert 'name="password"' in page
    response = client.post(reverse("accounts:delete"), {"password": PASSWORD}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:lobby")
    assert "Hesabınız silindi" in response.content.decode()
    assert client.get(reverse("accounts:profile")).status_code == 302  # logged out
    assert not client.login(email="player1@example.com", password=PASSWORD)
    assert not client.login(username="player1", password=PASSWORD)
    login = client.post(
        reverse("account_login"), {"login": "player1@example.com", "password": PASSWORD}
    )
    assert login.status_code == 200 and "_auth_user_id" not in client.session


def test_a_deleted_players_other_sessions_end(users, client):
    client.force_login(users[0])
    account_delete(users[0])
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_an_account_without_a_password_confirms_by_email(users, client, settings):
    me = users[0]
    me.set_unusable_password()
    me.save()
    client.force_login(me)
    page = client.get(reverse("accounts:delete")).content.decode()
    assert 'name="password"' not in page and "player1@example.com" in page
    client.post(reverse("accounts:delete"))
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["player1@example.com"]
    url = re.search(r"https?://\S+", mail.outbox[0].body).group(0)
    path = url.split("testserver", 1)[1]
    # opening the link deletes nothing (mail scanners follow links); its button does
    assert client.get(path).status_code == 200
    me.refresh_from_db()
    assert me.is_active
    client.post(path)
    me.refresh_from_db()
    assert not me.is_active and me.profile.deleted is not None
    # the link is dead now
    assert client.get(path).status_code == 400


def test_links_are_sent_a_few_times_an_hour(users, client):
    users[0].set_unusable_password()
    users[0].save()
    client.force_login(users[0])
    for _ in range(3):
        assert client.post(reverse("accounts:delete")).status_code == 302
    response = client.post(reverse("accounts:delete"))
    assert response.status_code == 400 and "bir saat sonra" in response.content.decode()
    assert len(mail.outbox) == 3


def test_a_forged_link_deletes_nothing(users, client):
    path = reverse("accounts:delete_confirm", args=["1z", "abc-123"])
    assert client.post(path).status_code == 400
    assert all(get_user_model().objects.get(pk=u.pk).is_active for u in users)


def test_a_seat_taken_while_the_account_closes_is_left_too(users, monkeypatch, in_memory_layer):
    """A request of theirs in flight during the deletion sits them down after the first pass
    over their tables: the second pass, once they are anonymous, frees the seat."""
    me = users[0]
    table = table_create(manager=users[1], options={})
    from accounts import deletion

    erase = deletion.player_games_erase

    def erase_while_sitting(user):
        seat_take(table_id=table.pk, user=user, index=2)
        return erase(user)

    monkeypatch.setattr(deletion, "player_games_erase", erase_while_sitting)
    action = account_delete(me)
    assert not Seat.objects.filter(table=table, user_id=me.pk).exists()
    assert [t["table"] for t in action.details["tables_left"]] == [table.pk]


def test_a_table_that_starts_meanwhile_is_left_as_a_game_under_way(
    users, monkeypatch, fixed_seed, in_memory_layer
):
    """The seats are read, then the table starts before its leave: the seat is given up as at
    a game under way (a bot plays it), and the deletion goes through."""
    table = table_full(users[:4])
    from games import personal_data

    leave = personal_data.seat_leave

    def leave_after_the_start(*, table_id, user):
        game_started(Table.objects.get(pk=table_id))
        return leave(table_id=table_id, user=user)

    monkeypatch.setattr(personal_data, "seat_leave", leave_after_the_start)
    action = account_delete(users[1])
    assert action.details["tables_left"] == [{"table": table.pk, "seat": 2, "taken_over_by": "bot"}]
    seat = Seat.objects.get(table=table, index=1)
    assert seat.user_id is None and seat.is_bot


def test_a_page_left_open_writes_no_more_chat(users, in_memory_layer):
    """A table's socket keeps the user it was opened with: once the account is deleted, chat
    from it is refused."""
    table = table_create(manager=users[1], options={})
    stale = get_user_model().objects.get(pk=users[0].pk)  # as the socket holds it
    account_delete(users[0])
    with pytest.raises(ServiceError) as e:
        chat_post(table_id=table.pk, user=stale, text="hâlâ buradayım")
    assert e.value.code == "not_signed_in" and not ChatMessage.objects.exists()


def test_the_leaderboard_does_not_say_nobody_finished_a_game_once_its_player_is_deleted(
    users, client
):
    """Issue 42: after its only ranked player was deleted the leaderboard said "nobody has
    finished a game yet"; games were finished, and are kept (without the name)."""
    Profile.objects.filter(user=users[0]).update(games_played=1, rating_points=4)
    account_delete(users[0])
    html = client.get("/en/leaderboard/").content.decode()
    assert "Nobody has finished a game yet" not in html
    assert "Nobody is on the leaderboard yet" in html


def test_a_deleted_player_leaves_the_101_board_too(users, client):
    """Issue 44: the 101 rating's board lists only living accounts, as the Okey one does; the
    other players' places close up."""
    Profile.objects.filter(user=users[0]).update(games101_played=1, rating101_points=9)
    Profile.objects.filter(user=users[1]).update(games101_played=1, rating101_points=-9)
    name = users[0].profile.display_name
    account_delete(users[0])
    html = client.get("/en/leaderboard/?rating=101").content.decode()
    assert f">{name}<" not in html and "Deleted player" not in html
    second = re.escape(users[1].profile.display_name)
    assert re.search(rf"<td>1</td>\s*<td><a [^>]*>{second}</a>", html)
