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
    assert review.version == engine.MARKS_VERSION
    dealt = engine.deal(bytes(hand.seed), table.rules, hand.first_seat)
    rows = list(hand.moves.order_by("seq"))
    moves = [engine.move_from_dict(m.as_engine_dict()) for m in rows]
    # every move here was its player's own
    expected = engine.hand_marks(dealt, moves, judged=range(1, len(moves) + 1))
    assert [(m["seq"], m["kind"]) for m in review.marks] == [(m.seq, m.kind) for m in expected]
    assert all(m["user"] == rows[m["seq"] - 1].user_id for m in review.marks)


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


def _judged_kinds(marks) -> set[str]:
    return {m["kind"] for m in marks} & {engine.review.COULD_FINISH, engine.review.BOT_DISCARD}


def test_moves_the_timer_played_are_not_held_against_the_player(client, users, finished):
    """Who is judged comes from each move (its user and ``auto``), not from the table's seats
    when the review is made: seat 0's person is still seated, yet the timer played their turns."""
    table, hand = finished
    client.force_login(users[0])
    client.get(review_url(table))
    judged_all = HandReview.objects.get(hand=hand).marks
    mine = [m for m in judged_all if m["seat"] == 0 and m["kind"] in _judged_kinds([m])]
    assert mine, "the fixed deal gives seat 0's discards marks to lose"
    HandReview.objects.filter(hand=hand).delete()
    hand.moves.filter(seat=0).update(user=None, auto=True)
    client.get(review_url(table))
    marks = HandReview.objects.get(hand=hand).marks
    assert not _judged_kinds([m for m in marks if m["seat"] == 0])
    assert [m for m in marks if m["seat"] == 1] == [m for m in judged_all if m["seat"] == 1]


def _marks_listed(client, url) -> str:
    """The list of a review's marks as text, tiles by their notation."""
    html = client.get(url).content.decode()
    listed = html.split('class="review-mark-list"')[1].split("</ol>")[0]
    listed = re.sub(r'<span class="tile[^"]*"[^>]*data-tile="(\w+)".*?</span>', r"\1", listed)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", listed))


def test_a_mark_speaks_to_its_player_and_names_them_to_others(client, users, stranger, finished):
    """The player whose discard is marked reads "You threw"; anyone else reads their name, the
    name of whoever made the move, even after the seat changed hands; in both languages."""
    table, hand = finished
    url = review_url(table)  # before an /en/ page makes English the thread's language
    client.force_login(users[0])
    mine = _marks_listed(client, "/en" + url)
    marks = HandReview.objects.get(hand=hand).marks
    bot = [m for m in marks if m["kind"] == engine.review.BOT_DISCARD and m["seat"] == 0]
    assert bot, "the fixed deal gives seat 0 a discard the bot betters"
    assert f"You threw {bot[0]['played']}" in mine
    assert f"{bot[0]['played']} attınız" in _marks_listed(client, url)
    table.seats.filter(index=0).update(user=stranger)
    client.force_login(stranger)
    theirs = _marks_listed(client, "/en" + url)
    assert "You " not in theirs
    assert f"{users[0].username} threw {bot[0]['played']}" in theirs


def test_a_review_stored_with_an_older_meaning_is_made_again_before_it_is_shown(
    client, users, finished
):
    """Reviews made before MARKS_VERSION 2 marked every differing discard and judged by the
    table's seats: one is never shown as it is, but made again in place."""
    table, hand = finished
    stale = [{"seq": 1, "seat": 0, "kind": "bot_discard", "tile": "R1", "played": "R2",
              "kept": 9, "kept_played": 9}]  # fmt: skip
    HandReview.objects.create(hand=hand, marks=stale, strength="hard", version=1)
    client.force_login(users[0])
    html = client.get(review_url(table)).content.decode()
    review = HandReview.objects.get(hand=hand)
    assert review.version == engine.MARKS_VERSION and review.marks != stale
    assert "instead of" not in html


def test_the_step_buttons_are_drawn_not_glyphs_fonts_may_lack(client, users, finished):
    table, _ = finished
    client.force_login(users[0])
    html = client.get(review_url(table)).content.decode()
    nav = html.split('class="review-nav"')[1].split("</nav>")[0]
    assert "⏮" not in nav and "⏭" not in nav
    for which in ("first", "prev", "next", "last"):
        button = nav.split(f'data-nav="{which}"')[1].split("</a>")[0]
        assert '<svg class="review-icon"' in button and 'aria-hidden="true"' in button


def test_a_fed_finish_names_who_threw_and_speaks_to_the_viewer_on_either_side():
    """Issue 42: "this discard would have let X finish" did not say who threw it, named the
    viewer in the third person, and read the viewer's own finish as a mistake."""
    from django.template.loader import render_to_string
    from django.utils import translation

    from games.review.reads import ReviewMark, ReviewPlayer

    ali, can = ReviewPlayer(0, "Ali", False), ReviewPlayer(1, "Can", False)

    def said(**kw):
        mark = ReviewMark(
            seq=9, who=ali, after=can, kind="fed_finish", tile="R7", finish="normal", **kw
        )
        with translation.override("en"):
            html = render_to_string("games/review_mark.html", {"m": mark, "okey": "Y5"})
        return " ".join(re.sub(r"<[^>]+>", " ", html).split()), html

    text, _ = said(taken=True, finished=True)
    assert text.startswith("Ali threw") and "let Can finish" in text and "took it" in text
    text, _ = said(taken=True, finished=True, you=True)
    assert text.startswith("You threw") and "let Can finish" in text
    text, html = said(taken=True, finished=True, after_you=True)
    assert text.startswith("Ali threw") and "you took it to finish" in text
    assert "Can" not in text and "is-your-finish" in html
    text, html = said(taken=False, finished=False, after_you=True)
    assert "you could have taken it and finished" in text and "is-your-finish" not in html
