"""A player opens the review of a hand they played and reads its marks: worded to them ("You
threw R2; ..."), the measure named on the page, each mark a link to its move; another player
reads the same mark with the first player's name. axe finds no serious or critical violation.

The hand: a two-seat table, the fixed seed, both players' moves the normal bot's, sent through
the move service (tests/games/review/test_reviews.py: play_hand_as_bots).
"""

import re

import pytest
from playwright.sync_api import expect

from .play_support import players_make, sign_in
from .test_axe import NO_CSP, violations

pytestmark = pytest.mark.browser

SEED_HEX = "5eed" * 16


@pytest.fixture
def reviewed(settings, django_user_model):
    """Two players whose first hand is over, and the marks of its review (made here, as the
    page would make them)."""
    from games.models import HandReview
    from games.review.services import hand_review_make
    from tests.games.conftest import game_started, table_full
    from tests.games.review.test_reviews import play_hand_as_bots

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    users = players_make(django_user_model, 2)
    table = game_started(table_full(users, seats=2, hand_limit=3))
    hand = play_hand_as_bots(table, users)
    hand_review_make(hand_id=hand.pk)
    return users, table, HandReview.objects.get(hand=hand).marks


def test_the_review_speaks_to_the_player_about_their_own_discards(
    asgi_live_server, browser, reviewed
):
    users, table, marks = reviewed
    ours = [m for m in marks if m["kind"] == "bot_discard" and m["user"] == users[0].pk]
    assert ours, "the fixed deal gives the first player a discard the bot betters"
    mark = ours[0]
    url = f"{asgi_live_server.url}/en/table/{table.pk}/hand/1/review/"
    page = sign_in(browser, asgi_live_server, users[0], **NO_CSP)
    try:
        page.goto(url)
        listed = page.locator(".review-mark-list li").filter(has_text=f"Move {mark['seq']}:")
        text = listed.locator(".review-mark")
        expect(text).to_contain_text("You threw")
        expect(text).to_have_attribute("data-reason", mark["reason"])
        tiles = text.locator(".tile")
        shown = [tiles.nth(i).get_attribute("data-tile") for i in range(tiles.count())]
        assert shown[0] == mark["played"] and mark["tile"] in shown[1:]
        # the page says what a mark measures
        expect(page.locator(".review-measures")).to_contain_text("fewer draws from a finish")
        # the mark is a link to its move, where the board shows it
        listed.locator("a[data-nav=jump]").click()
        review = page.locator("#review")
        expect(review).to_have_attribute("data-step", str(mark["seq"]))
        current = page.locator(".review-board .review-mark.is-current")
        expect(current.first).to_contain_text("You threw")
        # first and last: the deal and the end
        last = int(review.get_attribute("data-last"))
        page.locator('[data-nav="last"]').click()
        expect(review).to_have_attribute("data-step", str(last))
        page.locator('[data-nav="first"]').click()
        expect(review).to_have_attribute("data-step", "0")
        assert violations(page) == [], "the review"
        page.goto(f"{url}?step={mark['seq']}")
        assert violations(page) == [], "the review at a marked move"
    finally:
        page.context.close()

    other = sign_in(browser, asgi_live_server, users[1])
    try:
        other.goto(url)
        listed = other.locator(".review-mark-list li").filter(has_text=f"Move {mark['seq']}:")
        text = listed.locator(".review-mark")
        expect(text).to_contain_text(re.compile(r"^\s*Oyuncu 1 threw"))
        expect(text).not_to_contain_text("You")
    finally:
        other.context.close()
