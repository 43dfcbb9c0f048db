"""The rules page for players: its pictures are real tiles drawn by the table's own tag, and
every example it shows is what the engine says it is."""

import pytest

from games import engine
from games.learn.examples import EXAMPLES, INDICATOR, OKEY


def faces(name):
    return [engine.parse_tile(t) for t in EXAMPLES[name]]


def test_the_examples_teach_what_the_engine_plays():
    okey = engine.parse_tile(OKEY)
    assert engine.okey_of(engine.parse_tile(INDICATOR)) == okey
    assert engine.okey_of(engine.parse_tile("K13")) == engine.parse_tile("K1")
    for meld in ("run", "run_wrap", "set", "run_okey", "set_okey"):
        assert engine.can_meld(faces(meld), okey), meld
    assert not engine.can_meld(faces("not_run"), okey)
    finished = faces("finished")
    assert len(finished) == 14 and engine.can_meld(finished, okey)
    assert engine.finish_kind(finished, faces("last")[0], okey) == "normal"
    pairs = faces("pairs")
    assert len(pairs) == 14 and engine.can_pairs(pairs, okey)
    assert not engine.can_meld(pairs, okey)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "heading", "okey_label"),
    [
        ("/rules/", "Okey nasıl oynanır", "sarı 5, okey"),
        ("/en/rules/", "How to play Okey", "yellow 5, the okey"),
    ],
)
def test_the_rules_page_shows_real_tiles_in_each_language(client, path, heading, okey_label):
    page = client.get(path)
    assert page.status_code == 200
    html = page.content.decode()
    assert heading in html
    # the table's tiles: the okey marked and spoken as such, the fake joker, the indicator
    assert 'class="tile t-yellow is-okey" data-tile="Y5"' in html
    assert f'aria-label="{okey_label}"' in html
    assert 'data-tile="F"' in html and 'data-tile="Y4"' in html


def test_every_picture_of_tiles_has_a_caption(client):
    """Issue 42: the fake joker's picture had none. Each row of tiles is a figure that says in
    words what it shows."""
    import re

    html = client.get("/en/rules/").content.decode()
    rows = html.count('<p class="learn-tiles">')
    figures = re.findall(r'<figure class="learn-figure[^"]*">(.*?)</figure>', html, re.S)
    pictured = [f for f in figures if 'class="learn-tiles"' in f]
    assert rows and len(pictured) == rows  # every row of tiles is in a figure
    assert all("<figcaption>" in f for f in figures)
    assert "then a fake joker (sahte okey)" in html
