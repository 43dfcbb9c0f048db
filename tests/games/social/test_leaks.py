"""Leak tests: nothing of the social room tells a player about a private table they are not at
or invited to, the presence of a player who blocked them, or that someone blocked them.
(The report form's, the socket's and the invitation's are in test_reports.py and
test_socket.py.)"""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.invites.services import invite_create
from games.models import Follow, Invite
from games.social.blocks import block_add, block_remove
from games.social.follows import follow_add, friend_ids, relation_read
from games.social.friends import friends_read
from games.table.chat import chat_post
from games.table.create import table_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def friends(users):
    a, b, *_ = users
    Follow.objects.create(follower=a, followed=b)
    Follow.objects.create(follower=b, followed=a)
    return a, b


@pytest.fixture
def online(monkeypatch):
    """Everyone online, as the player sockets would say (presence has its own tests)."""
    monkeypatch.setattr("games.social.friends.presence_online", lambda ids: set(ids))


def test_the_friends_list_never_shows_a_private_table_the_viewer_is_not_invited_to(
    users, friends, online
):
    a, b = friends
    private = table_create(manager=b, options={"private": True})
    public = table_create(manager=users[2], options={})
    [line] = friends_read(a)
    assert line.id == b.pk and line.online and line.table_id is None
    page = _page(a, reverse("games:friends"))
    assert f"/table/{private.pk}/" not in page and f"table {private.pk}" not in page
    # invited, the friend's private table is theirs to see
    invite_create(table_id=private.pk, inviter=b, email=a.email, seat_index=1)
    assert friends_read(a)[0].table_id == private.pk
    assert public.pk  # a table of someone else's, to be sure ids differ


def test_a_blocker_is_not_a_friend_and_their_presence_never_reaches_the_blocked(
    users, friends, online
):
    a, b = friends
    block_add(user=b, other_id=a.pk)  # b blocks a
    assert friends_read(a) == [] and friend_ids(a.pk) == set()
    assert friend_ids(b.pk) == set()
    page = _page(a, reverse("games:friends"))
    assert f"friend-{b.pk}" not in page


def test_a_blocked_player_cannot_tell_a_block_from_an_unfollow(users, friends):
    """The blocker's profile, seen by the blocked player, shows what it would show had the
    blocker only stopped following them: "Following" stays, no word of a block."""
    a, b = friends
    url = reverse("accounts:profile_detail", args=[b.pk])
    block_add(user=b, other_id=a.pk)
    blocked = _controls(_page(a, url)), relation_read(a, b.pk)
    block_remove(user=b, other_id=a.pk)  # b's follow of a went with the block: an unfollow
    assert not Follow.objects.filter(follower=b).exists()
    unfollowed = _controls(_page(a, url)), relation_read(a, b.pk)
    assert blocked == unfollowed
    assert blocked[1] == {"following": True, "blocking": False, "friends": False}
    # following again answers as any follow does
    block_add(user=b, other_id=a.pk)
    assert follow_add(user=a, other_id=b.pk) is False


def test_a_blocked_players_follow_and_chat_answer_as_usual(users):
    a, b, *_ = users
    table = table_create(manager=a, options={})
    block_add(user=a, other_id=b.pk)
    assert follow_add(user=b, other_id=a.pk) is True  # answered as any first follow
    chat_post(table_id=table.pk, user=b, text="hello")  # no refusal that would tell


def test_an_emailed_invite_to_a_blocker_is_sent_as_far_as_the_inviter_can_tell(
    users, celery_eager, django_capture_on_commit_callbacks
):
    a, b, c, _ = users
    table = table_create(manager=a, options={})
    block_add(user=b, other_id=a.pk)
    with django_capture_on_commit_callbacks(execute=True):
        to_blocker = invite_create(table_id=table.pk, inviter=a, email=b.email, seat_index=1)
        to_other = invite_create(table_id=table.pk, inviter=a, email=c.email, seat_index=2)
    assert to_blocker.status == to_other.status == Invite.Status.SENT
    assert [m.to for m in mail.outbox] == [[c.email]]  # the blocker never gets it


def test_a_private_tables_rematch_and_report_pages_tell_an_outsider_nothing(
    users, django_user_model
):
    """The rematch panel of a private table is no page to an outsider, and the report form
    given a private table's id names no table."""
    private = table_create(manager=users[0], options={"private": True})
    outsider = django_user_model.objects.create_user("outsider", "o@example.com", "pw-x-12345")
    client = Client()
    client.force_login(outsider)
    assert client.get(reverse("games:rematch", args=[private.pk])).status_code == 404
    assert client.get(reverse("games:rematch", args=[10**9])).status_code == 404
    page = client.get(reverse("games:report", args=[users[0].pk]) + f"?table={private.pk}")
    html = page.content.decode()
    assert page.status_code == 200
    assert f'value="{private.pk}"' not in html and f"{private.pk} numaralı masa" not in html


def _page(user, url) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def _controls(html: str) -> str:
    m = re.search(r'<div class="relation".*?</div>\s*</div>', html, re.S)
    assert m, "the profile shows the follow and block controls"
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", m.group(0))
