"""What the live region says at a 101 table: a hand's end (which comes as the whole table, not
as a move's event) says each player's score for the hand, their penalties and their total in
the game, in the viewer's language (table.js copies it into the live region once per hand)."""

import re

import pytest
from django.utils import translation

from games.models import Table
from games.table.create import table_create
from games.table.reads import table_rows, table_view
from games.table.render import frame_full
from tests.games.timing import run_due

from .test_table101 import start_now

pytestmark = pytest.mark.django_db


def said_at_the_end(html: str) -> str:
    found = re.search(r'<p hidden data-announce-end="[0-9a-f]{64}">(.*?)</p>', html, re.S)
    assert found, "no end of hand to announce in the frame"
    return " ".join(found.group(1).split())


@pytest.mark.parametrize(
    "lang, words",
    [("en", ("The hand is over.", "total")), ("tr", ("El bitti.", "toplam"))],
)
def test_a_101_hands_end_says_each_players_score_and_total(users, settings, lang, words):
    settings.OKEY_TEST_SEED_HEX = "01" * 32
    table = table_create(manager=users[0], options={"variant": "101", "hand_limit": 1})
    table = start_now(table)
    run_due(table)  # bots play; the person's turns time out and are played for them
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    rows = table_rows(table.pk)
    with translation.override(lang):
        view = table_view(rows, users[0])
        said = said_at_the_end(frame_full(view))
    assert said.startswith(words[0])
    for r in view.result.rows:
        name = r.name if not r.bot else f"Bot {r.index + 1}"
        score = f"+{r.score}" if r.score > 0 else str(r.score).replace("-", "−")
        assert f"{name}: {score}" in said, (name, score, said)
        assert f"{words[1]} {r.total}" in said
        if r.penalties:
            assert "+101 ×" in said
