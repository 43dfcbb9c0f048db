"""A hand's result that reads at a glance: the board stays in sight with the next hand's
countdown, each rack is laid out in its groups, each count reads before → after, and the wording
says that lower is better. The first hand of the fixed deal is played to its end through the
services (tests/games/plans.py: seat 1 finishes after 19 moves)."""

import pytest
from playwright.sync_api import expect

from .play_support import box_of, plan_play, sign_in
from .test_phone import four
from .test_play import hand_seed

__all__ = ["four"]  # the fixture of test_phone

pytestmark = pytest.mark.browser


@pytest.fixture
def hand_over(four):
    """Four players whose first hand is over: (users, table, the engine's final state)."""
    users, table = four
    return users, table, plan_play(users, table, hand_seed(1))


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_hands_result_reads_at_a_glance(asgi_live_server, browser, hand_over, size):
    users, table, final = hand_over
    page = sign_in(browser, asgi_live_server, users[0], viewport=size)
    try:
        page.goto(f"{asgi_live_server.url}/table/{table.pk}/")
        result = page.locator("#table-board .result")
        expect(result).to_be_visible()
        # the board is not under the result: each seat is what is seen at its middle
        for s in range(4):
            box = box_of(page.locator(f"#seat-{s}"))
            hit = page.evaluate(
                "([x, y, s]) => !!document.elementFromPoint(x, y).closest('#seat-' + s)",
                [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, s],
            )
            assert hit, f"seat {s} is covered"
        countdown = page.locator("#centre .next-hand")
        expect(countdown).to_be_visible()
        expect(countdown).to_contain_text("sn")
        box = box_of(countdown)
        assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], "scroll to see the next hand"

        expect(result.locator("thead")).to_contain_text("Sayı: düşük olan iyidir")
        rows = result.locator(".result-table tbody tr")
        expect(rows).to_have_count(4)
        for s in range(4):
            row = rows.nth(s)
            delta = final.result.deltas[s]
            expect(row.locator(".count-before")).to_have_text("20")
            expect(row.locator(".count-after")).to_have_text(str(20 + delta))
            groups = row.locator(".result-rack .group:not(.group--loose)")
            if s == final.result.finisher:
                expect(groups).to_have_count(len(final.result.groups))
            else:
                assert groups.count() + row.locator(".group--loose").count() >= 1
    finally:
        page.context.close()
