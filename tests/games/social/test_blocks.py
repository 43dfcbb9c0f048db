"""Blocks: the public answers other rooms ask (blocked_pairs, user_is_suspended), and what a
block keeps from the blocker: quick play's seats, the blocked player's chat."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import ServiceError
from games.lobby.quick import table_quick_join
from games.models import Block, Follow, Sanction
from games.social.blocks import (
    block_add,
    block_remove,
    blocked_pairs,
    user_is_suspended,
)
from games.social.follows import are_friends
from games.table.chat import chat_post
from games.table.chat_view import chat_hidden_from, chat_lines

pytestmark = pytest.mark.django_db


def test_blocked_pairs_names_every_pair_either_way(users):
    a, b, c, d = users
    block_add(user=a, other_id=b.pk)
    block_add(user=d, other_id=c.pk)
    block_add(user=c, other_id=d.pk)  # both ways: still one pair
    assert blocked_pairs([a.pk, b.pk, c.pk, d.pk]) == {
        frozenset({a.pk, b.pk}),
        frozenset({c.pk, d.pk}),
    }
    assert blocked_pairs([b.pk, c.pk]) == set()
    assert blocked_pairs([a.pk]) == set()


def test_user_is_suspended_only_while_the_suspension_runs(users):
    a, b, *_ = users
    assert not user_is_suspended(a)
    now = timezone.now()
    Sanction.objects.create(user=a, kind="suspend", reason="x", until=now + timedelta(hours=1))
    Sanction.objects.create(user=b, kind="suspend", reason="x", until=now - timedelta(hours=1))
    assert user_is_suspended(a)
    assert not user_is_suspended(b)
    Sanction.objects.filter(user=a).update(lifted=now)
    assert not user_is_suspended(a)


def test_block_ends_the_friendship_and_keeps_the_blocked_players_follow_secretly(users):
    a, b, *_ = users
    Follow.objects.create(follower=a, followed=b)
    Follow.objects.create(follower=b, followed=a)
    assert are_friends(a.pk, b.pk)
    assert block_add(user=a, other_id=b.pk) is True
    assert block_add(user=a, other_id=b.pk) is False  # again: nothing new
    # a's follow goes; b's stays (b's "Following" must not change), but they are not friends
    assert list(Follow.objects.values_list("follower", "followed")) == [(b.pk, a.pk)]
    assert not are_friends(a.pk, b.pk) and not are_friends(b.pk, a.pk)
    assert block_remove(user=a, other_id=b.pk) is True
    assert not Block.objects.exists()


@pytest.mark.parametrize("other", ["x", None, True, 10**9])
def test_block_of_nobody_is_refused_and_changes_nothing(users, other):
    with pytest.raises(ServiceError):
        block_add(user=users[0], other_id=other)
    assert not Block.objects.exists()


def test_block_of_oneself_is_refused(users):
    with pytest.raises(ServiceError) as e:
        block_add(user=users[0], other_id=users[0].pk)
    assert e.value.code == "self"


def test_quick_play_never_seats_a_blocked_pair_together(users, in_memory_layer):
    a, b, c, _d = users
    first = table_quick_join(user=a, mode="duz")
    block_add(user=a, other_id=b.pk)
    # b is blocked by a: b gets a table of their own; c, who has no block, joins a's
    second = table_quick_join(user=b, mode="duz")
    assert second.pk != first.pk
    assert table_quick_join(user=c, mode="duz").pk == first.pk


def test_quick_play_keeps_the_blocker_away_from_whom_they_blocked(users, in_memory_layer):
    a, b, *_ = users
    first = table_quick_join(user=b, mode="esli")
    block_add(user=a, other_id=b.pk)
    assert table_quick_join(user=a, mode="esli").pk != first.pk


def test_blocked_players_chat_is_not_among_the_blockers_lines(users, in_memory_layer):
    a, b, c, _d = users
    table = table_quick_join(user=a, mode="duz")
    table_quick_join(user=c, mode="duz")
    chat_post(table_id=table.pk, user=a, text="hello")
    chat_post(table_id=table.pk, user=c, text="rude words")
    block_add(user=a, other_id=c.pk)
    mine = chat_lines(table.pk, hidden=chat_hidden_from(a.pk))
    assert [line.text for line in mine] == ["hello"]
    # the blocked player and everyone else still see every line: nothing tells them
    theirs = chat_lines(table.pk, hidden=chat_hidden_from(c.pk))
    assert [line.text for line in theirs] == ["hello", "rude words"]
    assert b.pk  # b, at no table, is untouched


def test_a_guest_neither_follows_blocks_nor_reports(users):
    from accounts.models import Guest
    from games.social.follows import follow_add
    from games.social.reports import report_make

    guest = users[3]
    Guest.objects.create(user=guest, session_key="x")
    guest.refresh_from_db()
    for act in (
        lambda: follow_add(user=guest, other_id=users[0].pk),
        lambda: block_add(user=guest, other_id=users[0].pk),
        lambda: report_make(reporter=guest, reported_id=users[0].pk, reason="abuse"),
    ):
        with pytest.raises(ServiceError) as e:
            act()
        assert e.value.code == "guest_not_allowed"
    assert not Follow.objects.exists() and not Block.objects.exists()
