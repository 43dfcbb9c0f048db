"""A hand's review: made when the hand ends, open to whom it should be, and only then."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.models import Hand, HandReview, Invite
from games.table.moves import move_submit
from tests.games.conftest import game_started, table_full
from tests.games.helpers import current_hand, hand_state

pytestmark = pytest.mark.django_db


def play_hand_as_bots(table, users) -> Hand:
    """Every seat of ``table`` (``users[i]`` at seat i) plays the normal bot's moves through the
    move service until the hand ends: hands of the length people play."""
    hand = current_hand(table)
    while not hand.over:
        state = engine.hand_from_dict(hand.state)
        for m in engine.bot_moves(state, state.turn):
            move_submit(
                table_id=table.pk,
                user=users[state.turn],
                move=engine.move_to_dict(m),
                expected_version=None,
            )
        hand.refresh_from_db()
    return hand


def review_url(table, number=1, step=None):
    url = reverse("games:review", args=[table.pk, number])
    return url if step is None else f"{url}?step={step}"


@pytest.fixture
def finished(users, fixed_seed, celery_eager, django_capture_on_commit_callbacks):
    """A public two-seat table whose first hand was played to its end by the move service."""
    table = game_started(table_full(users, seats=2, hand_limit=3))
    with django_capture_on_commit_callbacks(execute=True):
        hand = play_hand_as_bots(table, users)
    hand.refresh_from_db()
    return table, hand


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user(
        username="stranger", email="stranger@example.com", password="pw-okey-1234"
    )


def test_a_review_is_made_when_first_opened_with_its_marks(client, users, finished):
    """The end of a hand makes no review (most are never opened); the first opening does, and
    keeps it."""
    table, hand = finished
    assert not HandReview.objects.filter(hand=hand).exists()
    client.force_login(users[0])
    url = reverse("games:review", args=[table.pk, hand.number])
    assert client.get(url).status_code == 200
    review = HandReview.objects.get(hand=hand)
    assert review.strength == engine.JUDGE_STRENGTH
    dealt = engine.deal(bytes(hand.seed), table.rules, hand.first_seat)
    moves = [engine.move_from_dict(m.as_engine_dict()) for m in hand.moves.order_by("seq")]
    expected = engine.hand_marks(dealt, moves, judged=[0, 1])
    assert [(m["seq"], m["kind"]) for m in review.marks] == [(m.seq, m.kind) for m in expected]


def test_a_player_steps_through_the_review_with_every_rack_shown(client, users, finished):
    table, hand = finished
    client.force_login(users[0])
    dealt = engine.deal(bytes(hand.seed), table.rules, hand.first_seat)
    html = client.get(review_url(table)).content.decode()
    racks = re.findall(r'class="review-rack"[^>]*>(.*?)</div>', html)
    shown = [re.findall(r'data-tile="(\w+)"', r) for r in racks]
    assert shown == [[engine.format_tile(t) for t in r] for r in dealt.racks]
    last = hand.moves.count()
    html = client.get(review_url(table, step=3)).content.decode()
    assert f'data-step="3" data-last="{last}"' in html
    move = hand.moves.get(seq=3)
    assert f'data-nav="prev" href="{review_url(table, step=2)}"' in html
    if move.tile:
        assert f'data-tile="{move.tile}"' in html.split('class="review-move"')[1][:600]
    # beyond the end is the end; nonsense is the deal
    assert (
        f'href="{review_url(table, step=last)}"'
        in client.get(review_url(table, step=999)).content.decode()
    )
    assert client.get(review_url(table) + "?step=x").status_code == 200


def test_anyone_may_open_a_public_tables_review(client, stranger, finished):
    table, _ = finished
    assert client.get(review_url(table)).status_code == 200
    client.force_login(stranger)
    assert client.get(review_url(table)).status_code == 200


def test_a_hand_still_in_play_is_refused_even_to_its_players(client, users, fixed_seed):
    table = game_started(table_full(users, seats=2))
    client.force_login(users[0])
    response = client.get(review_url(table))
    assert response.status_code == 403
    body = response.content.decode()
    assert "review-rack" not in body
    # nothing of the other rack leaks into the refusal
    other = hand_state(table).racks[1]
    assert not any(f'data-tile="{engine.format_tile(t)}"' in body for t in other)
    assert not HandReview.objects.filter(hand=current_hand(table)).exists()


def test_an_unknown_hand_is_404(client, finished):
    table, _ = finished
    assert client.get(review_url(table, number=9)).status_code == 404


@pytest.fixture
def private_finished(users, fixed_seed, celery_eager, django_capture_on_commit_callbacks):
    table = table_full(users, seats=2)
    # private once everyone sits: a private table seats only the invited
    table.options = {**table.options, "private": True}
    table.save(update_fields=["options"])
    table = game_started(table)
    with django_capture_on_commit_callbacks(execute=True):
        hand = play_hand_as_bots(table, users)
    return table, hand


def test_a_private_tables_review_is_for_its_players_manager_and_invited(
    client, users, stranger, private_finished
):
    table, _ = private_finished
    assert client.get(review_url(table)).status_code == 403  # not signed in
    client.force_login(stranger)
    refused = client.get(review_url(table))
    assert refused.status_code == 403 and "review-rack" not in refused.content.decode()
    for user in users[:2]:  # the manager sits at seat 1, the other player at seat 2
        client.force_login(user)
        assert client.get(review_url(table)).status_code == 200
    now = timezone.now()
    Invite.objects.create(
        table=table,
        seat_index=1,
        email="Stranger@example.com",
        inviter=users[0],
        language="tr",
        token_hash="0" * 64,
        status=Invite.Status.CANCELLED,
        sent_at=now,
        expires_at=now + timedelta(days=1),
    )
    client.force_login(stranger)
    assert client.get(review_url(table)).status_code == 200


def test_a_player_who_left_the_private_table_may_still_open_its_review(
    client, users, private_finished
):
    table, _ = private_finished
    table.seats.filter(user=users[1]).update(user=None)
    client.force_login(users[1])
    assert client.get(review_url(table)).status_code == 200


def test_the_page_makes_a_review_whose_task_was_lost(client, users, finished):
    table, hand = finished
    HandReview.objects.filter(hand=hand).delete()
    client.force_login(users[0])
    assert client.get(review_url(table)).status_code == 200
    assert HandReview.objects.filter(hand=hand).count() == 1


def test_the_review_links_to_the_deal_check_which_verifies_the_hand(client, finished):
    table, _ = finished
    html = client.get(review_url(table)).content.decode()
    verify = reverse("games:verify", args=[table.pk, 1])
    assert f'href="{verify}"' in html
    checked = client.get(verify).content.decode()
    assert checked.count('class="verdict ok"') == 2


def test_the_step_buttons_are_drawn_not_glyphs_fonts_may_lack(client, users, finished):
    table, _ = finished
    client.force_login(users[0])
    html = client.get(review_url(table)).content.decode()
    nav = html.split('class="review-nav"')[1].split("</nav>")[0]
    assert "⏮" not in nav and "⏭" not in nav
    for which in ("first", "prev", "next", "last"):
        button = nav.split(f'data-nav="{which}"')[1].split("</a>")[0]
        assert '<svg class="review-icon"' in button and 'aria-hidden="true"' in button
