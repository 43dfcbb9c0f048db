"""A profile lists its player's recent hands, each linking to its review; a private table's
hands only on the player's own profile."""

import re

import pytest
from django.urls import reverse

from games.models import Hand, HandReview
from games.profiles import recent_hands
from games.review.services import hand_review_make
from okeysite.celery import app as celery_app
from tests.games.conftest import fixed_seed, game_started, table_full, users
from tests.games.review.test_reviews import play_hand_as_bots

__all__ = ["fixed_seed", "users"]  # fixtures shared with tests/games

pytestmark = pytest.mark.django_db


def review_links(html):
    return re.findall(r'href="((?:/en)?/table/\d+/hand/\d+/review/)" data-review-link', html)


@pytest.fixture
def two_tables(users, fixed_seed, celery_eager, django_capture_on_commit_callbacks):
    public = game_started(table_full(users, seats=2, hand_limit=3))
    private = table_full(users, seats=2, hand_limit=3)
    private.options = {**private.options, "private": True}
    private.save(update_fields=["options"])
    private = game_started(private)
    with django_capture_on_commit_callbacks(execute=True):
        play_hand_as_bots(public, users)
        play_hand_as_bots(private, users)
    return public, private


def test_the_profile_links_each_recent_hand_to_its_review(client, users, two_tables):
    public, private = two_tables
    client.force_login(users[1])
    html = client.get(reverse("accounts:profile")).content.decode()
    own = review_links(html)
    assert own == [reverse("games:review", args=[t.pk, 1]) for t in (private, public)]
    for url in own:  # and the player may open each
        assert client.get(url).status_code == 200
    # another visitor sees the public table's hand only
    client.logout()
    html = client.get(reverse("accounts:profile_detail", args=[users[1].pk])).content.decode()
    assert review_links(html) == [reverse("games:review", args=[public.pk, 1])]


def test_a_hand_still_in_play_is_not_listed(client, users, fixed_seed):
    game_started(table_full(users, seats=2))
    client.force_login(users[0])
    html = client.get(reverse("accounts:profile")).content.decode()
    assert review_links(html) == [] and "recent-hands" in html


def test_the_list_asks_for_the_reviews_it_links_and_no_more(client, users, two_tables, monkeypatch):
    """Reviews are made only when someone asks: the profile's list asks the reviews' worker
    for the ones it links that have none yet (it shows how many moments each has)."""
    public, private = two_tables
    asked = []

    def send_task(name, args=None, **kwargs):
        asked.append((name, *args))

    monkeypatch.setattr(celery_app, "send_task", send_task)
    celery_app.conf.task_always_eager = False  # as on the site (the celery_eager fixture resets it)
    hands = {t: Hand.objects.get(game__table=t, number=1) for t in (public, private)}
    client.force_login(users[1])
    client.get(reverse("games:review", args=[public.pk, 1]))  # opened: made there and then
    client.get(reverse("accounts:profile"))
    assert asked == [("games.tasks.hand_review_task", hands[private].pk)]
    # someone else's visits ask for nothing
    client.force_login(users[0])
    client.get(reverse("accounts:profile_detail", args=[users[1].pk]))
    assert asked == [("games.tasks.hand_review_task", hands[private].pk)]


def test_a_review_of_an_older_meaning_is_asked_for_again_and_counts_no_moments(
    users, two_tables, monkeypatch
):
    """A review stored before MARKS_VERSION 2 marked every differing discard: the list counts
    none of it, asks for it again, and once made counts the marks on the player's own moves."""
    public, _ = two_tables
    hand = Hand.objects.get(game__table=public, number=1)
    hand_review_make(hand_id=hand.pk)
    review = HandReview.objects.get(hand=hand)
    own = sum(1 for m in review.marks if m["user"] == users[1].pk)
    stale = [{"seq": 1, "seat": 1, "kind": "bot_discard", "tile": "R1"}] * 9
    HandReview.objects.filter(pk=review.pk).update(marks=stale, version=1)
    asked = []
    monkeypatch.setattr(celery_app, "send_task", lambda name, args=None, **kw: asked.append(args))
    celery_app.conf.task_always_eager = False
    (row,) = [h for h in recent_hands(users[1], users[1]) if h.table_id == public.pk]
    assert row.moments is None and (hand.pk,) in asked  # "not yet reviewed", not a wrong 0
    hand_review_make(hand_id=hand.pk)
    (row,) = [h for h in recent_hands(users[1], users[1]) if h.table_id == public.pk]
    assert row.moments == own


def test_a_hand_not_yet_reviewed_says_so_instead_of_no_moments(
    client, users, two_tables, monkeypatch
):
    """Issue 42: the "moments" column showed 0 for hands whose review was not made yet."""
    monkeypatch.setattr(celery_app, "send_task", lambda *args, **kwargs: None)
    celery_app.conf.task_always_eager = False  # the reviews' worker has not made them yet
    client.force_login(users[1])
    html = client.get("/en/profile/").content.decode()
    assert html.count("data-not-reviewed") == 2 and "not yet reviewed" in html
    client.get(reverse("games:review", args=[two_tables[0].pk, 1]))  # opened: made now
    html = client.get("/en/profile/").content.decode()
    assert html.count("data-not-reviewed") == 1
