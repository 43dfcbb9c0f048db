"""The screenshots of docs/ (README.md shows them), taken from the running site at the fixed deal
of test_play. Skipped unless asked for:

    OKEY_DOCS_SCREENSHOTS=1 .venv/bin/pytest tests/browser/test_docs_screenshots.py
"""

import os
from pathlib import Path

import pytest

from tests.games.helpers import current_hand

from .play_support import plan_play, sign_in, table_ready
from .test_phone import four
from .test_play import hand_seed

__all__ = ["four"]  # the fixture of test_phone

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not os.environ.get("OKEY_DOCS_SCREENSHOTS"), reason="set OKEY_DOCS_SCREENSHOTS=1"
    ),
]

DOCS = Path(__file__).resolve().parents[2] / "docs"


def shot(browser, server, user, table, name, size, tiles=None):
    page = sign_in(browser, server, user, viewport=size, has_touch=size[0] < 900)
    try:
        page.goto(f"{server.url}/table/{table.pk}/" if table else server.url + "/")
        if tiles:
            table_ready(page, tiles)
        page.wait_for_timeout(600)  # the tiles have landed, the fonts are drawn
        page.screenshot(path=str(DOCS / name))
    finally:
        page.context.close()


def test_the_screenshots_of_docs(asgi_live_server, browser, four):
    users, table = four
    server = asgi_live_server
    plan_play(users, table, hand_seed(1), stop=8)  # a few discards: seat 0 to play again
    tiles = len(current_hand(table).state["racks"][0])
    shot(browser, server, users[0], None, "lobby.png", (1280, 800))
    shot(browser, server, users[0], table, "table-desktop.png", (1280, 800), tiles)
    shot(browser, server, users[0], table, "table-phone.png", (390, 844), tiles)
    shot(browser, server, users[0], table, "table-phone-landscape.png", (844, 390), tiles)
    plan_play(users, table, hand_seed(1), start=8)  # the rest of the hand
    shot(browser, server, users[0], table, "hand-result.png", (1280, 800))
    shot(browser, server, users[0], table, "hand-result-phone.png", (390, 844))
