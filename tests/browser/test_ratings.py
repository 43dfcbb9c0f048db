"""Ratings per game (issue 44), as a player sees them: the leaderboard's switch from the Okey
rating to the 101 rating, reached with the keyboard, at a desktop's width and a phone's; each
board ranks by its own rating. The profile shows both ratings."""

import pytest
from playwright.sync_api import expect

from accounts.models import Profile

from .play_support import players_make, sign_in
from .test_axe import NO_CSP, violations

pytestmark = pytest.mark.browser

# (Okey points, games, wins), (101 points, games, wins) of Oyuncu 1-4: the two boards' orders
# differ, and Oyuncu 4 has played no Okey game
STANDINGS = [((12, 4, 2), (-6, 2, 0)), ((3, 2, 1), (20, 3, 2)), ((-5, 3, 0), (4, 1, 1)),
             ((0, 0, 0), (9, 2, 1))]  # fmt: skip


@pytest.fixture
def rated(django_user_model):
    users = players_make(django_user_model, 4)
    for user, (okey, one) in zip(users, STANDINGS, strict=True):
        Profile.objects.filter(user=user).update(
            rating_points=okey[0], games_played=okey[1], wins=okey[2],
            rating101_points=one[0], games101_played=one[1], wins101=one[2],
        )  # fmt: skip
    return users


def board_names(page) -> list[str]:
    return page.locator(".leaderboard-table tbody td:nth-child(2)").all_inner_texts()


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_player_switches_the_leaderboard_to_101(asgi_live_server, browser, rated, viewport):
    page = sign_in(browser, asgi_live_server, rated[0], viewport=viewport, **NO_CSP)
    try:
        page.goto(asgi_live_server.url + "/leaderboard/")
        switch = page.get_by_role("navigation", name="Puan türü")
        okey, one = (switch.get_by_role("link", name=n, exact=True) for n in ("Okey", "101"))
        expect(okey).to_have_attribute("aria-current", "page")
        assert board_names(page) == ["Oyuncu 1", "Oyuncu 2", "Oyuncu 3"]
        # the switch is a link reached with the keyboard: Tab onto it, Enter follows it
        okey.focus()
        page.keyboard.press("Tab")
        expect(one).to_be_focused()
        page.keyboard.press("Enter")
        page.wait_for_url("**/leaderboard/?rating=101")
        switch = page.get_by_role("navigation", name="Puan türü")
        one = switch.get_by_role("link", name="101", exact=True)
        expect(one).to_have_attribute("aria-current", "page")
        expect(page.get_by_text("Oyuncular 101 puanına göre sıralı")).to_be_visible()
        assert board_names(page) == ["Oyuncu 2", "Oyuncu 4", "Oyuncu 3", "Oyuncu 1"]
        # the viewer's own row shows their 101 standing, not their Okey one
        mine = page.locator(".leaderboard-table tr.is-you td").all_inner_texts()
        assert mine == ["4", "Oyuncu 1", "−6", "2", "0"]
        # on a phone too, the switch and the table fit the screen's width
        for box in (switch.bounding_box(), page.locator(".leaderboard-table").bounding_box()):
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport[0]
        assert one.bounding_box()["height"] >= 24
        assert violations(page) == [], "the 101 board"
        # and back to the Okey board
        switch.get_by_role("link", name="Okey", exact=True).click()
        page.wait_for_url(lambda url: url.endswith("/leaderboard/"))
        assert board_names(page) == ["Oyuncu 1", "Oyuncu 2", "Oyuncu 3"]
    finally:
        page.context.close()


def test_the_profile_shows_both_ratings(asgi_live_server, browser, rated):
    page = sign_in(browser, asgi_live_server, rated[1], viewport=(390, 844), **NO_CSP)
    try:
        page.goto(asgi_live_server.url + "/profile/")
        okey = page.get_by_role("region", name="Okey puanı")
        one = page.get_by_role("region", name="101 puanı")
        expect(okey.locator("dd")).to_have_text(["3", "2", "1"])
        expect(one.locator("dd")).to_have_text(["20", "3", "2"])
        assert violations(page) == [], "the profile's ratings"
    finally:
        page.context.close()
