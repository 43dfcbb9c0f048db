"""A player plays a hand against bots, then steps through its review by buttons and keys, on a
desktop and on a phone; in a practice game they ask for a hint on their turn.

The Celery worker (tests/browser/conftest.py: celery_worker) deals, plays the bots and makes
the hand's review when it ends. With the fixed seed the player sits at seat 1 and plays first.
"""

import pytest
from playwright.sync_api import expect

from .play_support import in_a_thread, players_make, sign_in, table_ready, wait_db

pytestmark = pytest.mark.browser

SEED_HEX = "5eed" * 16


def hand_alone_with_bots(browser, server, settings, django_user_model, practice=False):
    """A player signs in, opens a one-hand table (a practice one if asked), starts it, and bots
    take the other three seats; the player's page once the deal is on it, and the hand."""
    from games.models import Hand

    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    settings.OKEY_BOT_PAUSE = (0.05, 0.1)
    (user,) = players_make(django_user_model, 1)
    page = sign_in(browser, server, user)
    page.goto(server.url + "/")
    page.locator("#id_hand_limit").fill("1")
    if practice:
        page.locator("#id_practice").check()
    page.locator(".create-form button[type=submit]").click()
    page.wait_for_url("**/table/*/")
    table_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    page.locator("[data-start]").click()
    hand = wait_db(lambda: Hand.objects.filter(game__table_id=table_id).first())
    table_ready(page, 15)
    return page, hand


def my_turn_or_over(hand_id):
    """the player's turn, or the hand's end"""
    from games.models import Hand

    h = Hand.objects.get(pk=hand_id)
    return h.over or (h.state["turn"] == 0 and h)


def play_my_turn(page, hand_id):
    """Draw if it is time to, then discard the first tile of the rack, from the page."""
    from games.models import Hand, Move

    made = Move.objects.filter(hand_id=hand_id, seat=0).count()
    if Hand.objects.get(pk=hand_id).state["phase"] == "draw":
        page.locator(".stock.is-drawable").click()
        wait_db(lambda: Move.objects.filter(hand_id=hand_id, seat=0).count() > made)
        made += 1
        expect(page.locator("#rack .slot .tile")).to_have_count(15)
    page.locator("#rack .slot .tile").first.click()
    page.locator('[data-act="discard"]').click()
    wait_db(lambda: Move.objects.filter(hand_id=hand_id, seat=0).count() > made)


def my_turn_by_service(user, hand_id):
    """The same turn as play_my_turn, through the services."""
    from games import engine
    from games.models import Game, Hand
    from games.table.moves import move_submit

    hand = Hand.objects.select_related("game").get(pk=hand_id)
    table_id = hand.game.table_id

    def submit(move):
        version = Game.objects.get(table_id=table_id).version
        move_submit(table_id=table_id, user=user, move=move, expected_version=version)

    if hand.state["phase"] == "draw":
        submit({"kind": "draw"})
    state = engine.hand_from_dict(Hand.objects.get(pk=hand_id).state)
    submit({"kind": "discard", "tile": engine.format_tile(state.racks[0][0])})


def test_a_player_plays_a_hand_against_bots_and_steps_through_its_review(
    asgi_live_server, browser, celery_worker, settings, django_user_model
):
    from games import engine
    from games.models import HandReview

    page, hand = hand_alone_with_bots(browser, asgi_live_server, settings, django_user_model)
    table_id = hand.game.table_id
    user = hand.game.table.manager
    turns = 0
    while wait_db(lambda: my_turn_or_over(hand.pk), timeout=60) is not True:
        # the first turns from the page; the rest, which only bring the hand to its end for
        # its review, through the services (test_bots and test_play play whole hands there)
        if turns < 2:
            play_my_turn(page, hand.pk)
        else:
            in_a_thread(my_turn_by_service, user, hand.pk)
        turns += 1
    hand.refresh_from_db()
    assert hand.over
    # no review is made at the hand's end (most are never opened): its first opening makes it
    assert wait_db(lambda: not HandReview.objects.filter(hand=hand).exists(), timeout=1)
    last = hand.moves.count()
    dealt = engine.deal(bytes(hand.seed), engine.hand_from_dict(hand.state).options, 0)

    # the table's result links to the review
    page.locator("[data-review-link]").click()
    page.wait_for_url(f"**/table/{table_id}/hand/1/review/")
    review = page.locator("#review")
    expect(review).to_have_attribute("data-step", "0")
    assert wait_db(lambda: HandReview.objects.filter(hand=hand).count() == 1, timeout=10)
    racks = page.locator(".review-rack")
    expect(racks).to_have_count(4)
    for seat in range(4):  # every rack, as dealt
        expected = [engine.format_tile(t) for t in dealt.racks[seat]]
        tiles = racks.nth(seat).locator(".tile")
        assert [tiles.nth(i).get_attribute("data-tile") for i in range(tiles.count())] == expected

    def at(step):
        expect(page.locator("#review")).to_have_attribute("data-step", str(step))

    page.keyboard.press("ArrowRight")
    at(1)
    first = hand.moves.get(seq=1)
    if first.tile:  # the first move is seat 1's discard: it shows in the move line and the pile
        expect(page.locator(".review-move .tile")).to_have_attribute("data-tile", first.tile)
        expect(page.locator(".review-seat").first.locator(".review-pile .tile")).to_have_count(1)
    page.locator('[data-nav="next"]').click()
    at(2)
    page.keyboard.press("ArrowLeft")
    at(1)
    page.keyboard.press("End")
    at(last)
    expect(page.locator('[data-nav="next"]')).to_have_attribute("aria-disabled", "true")
    page.go_back()  # the browser's history follows the steps
    at(1)
    page.keyboard.press("Home")
    at(0)
    marks = page.locator(".review-mark-list a[data-nav=jump]")
    if marks.count():
        href = marks.first.get_attribute("href")
        marks.first.click()
        at(int(href.rsplit("=", 1)[1]))
        expect(page.locator(".review-board .review-mark.is-current").first).to_be_visible()

    # on a phone: nothing wider than the screen, the buttons in reach
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="tr-TR")
    small = phone.new_page()
    small.goto(page.url.split("?")[0])
    expect(small.locator("#review")).to_have_attribute("data-step", "0")
    assert small.evaluate("document.documentElement.scrollWidth") <= 390
    nxt = small.locator('[data-nav="next"]')
    box = nxt.bounding_box()
    assert box and box["y"] + box["height"] <= 844 and box["width"] >= 40
    nxt.click()
    expect(small.locator("#review")).to_have_attribute("data-step", "1")
    phone.close()


def test_a_player_alone_with_bots_in_a_practice_game_asks_for_a_hint(
    asgi_live_server, browser, celery_worker, settings, django_user_model
):
    from games import engine
    from games.models import Hand

    page, hand = hand_alone_with_bots(
        browser, asgi_live_server, settings, django_user_model, practice=True
    )
    state = engine.hand_from_dict(Hand.objects.get(pk=hand.pk).state)
    assert state.turn == 0 and state.phase == "discard"  # the first turn: 15 tiles, no draw
    expected = engine.hint(state, 0)

    page.locator("[data-hint-ask]").click()
    panel = page.locator("#hint-panel")
    advice = panel.locator(".hint-advice")
    expect(advice).to_be_visible()
    tile = expected.finish if expected.finish is not None else expected.discard
    expect(advice.locator(".tile")).to_have_attribute("data-tile", engine.format_tile(tile))
    # the rack as it would be after that throw: the 14 other tiles (tests/browser/test_hint.py)
    expect(panel.locator(".hint-groups .tile")).to_have_count(14)
    # the hint is advice: the rack is still the player's to play
    expect(page.locator("#rack .slot .tile")).to_have_count(15)

    # off turn the server says so, and shows no tiles
    page.locator("#rack .slot .tile").first.click()
    page.locator('[data-act="discard"]').click()
    wait_db(lambda: Hand.objects.get(pk=hand.pk).state["turn"] != 0, timeout=10)
    page.locator("[data-hint-ask]").click()
    expect(panel.locator(".hint-refusal")).to_be_visible()
    expect(panel.locator(".tile")).to_have_count(0)
