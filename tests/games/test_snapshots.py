"""The sockets of a table read its rows once per version (games.snapshots), and the cached tile
HTML follows the viewer's language."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from games import services
from games.consumers import TableConsumer
from games.snapshots import snapshot_get, snapshots_clear
from games.templatetags.okey import tile, tiles

from .helpers import hand_state, random_move, version_of


@pytest.fixture(autouse=True)
def _fresh_cache():
    snapshots_clear()
    yield
    snapshots_clear()


def consumer_of(table, user) -> TableConsumer:
    c = TableConsumer()
    c.table_id, c.user, c.lang = table.pk, user, "en"
    return c


def test_four_sockets_read_the_table_once_per_move(playing, users):
    sockets = [consumer_of(playing, u) for u in users]
    state = hand_state(playing)
    outcome = services.move_submit(
        table_id=playing.pk,
        user=users[state.turn],
        move=random_move(state, random.Random(3)),
        expected_version=version_of(playing),
    )
    with CaptureQueriesContext(connection) as first:
        frames = [sockets[0].frame_render(at_least=outcome.version)]
    with CaptureQueriesContext(connection) as others:
        frames += [s.frame_render(at_least=outcome.version) for s in sockets[1:]]
    assert len(first) > 0 and len(others) == 0
    assert {version for version, _ in frames} == {outcome.version}
    # each socket still gets its own rack, never another's
    racks = [html.split('id="rack-data"')[1].split("</div>")[0] for _, html in frames]
    assert len(set(racks)) == 4


def test_a_newer_version_or_a_sync_reads_the_table_again(playing, users):
    first = snapshot_get(playing.pk, at_least=version_of(playing))
    assert snapshot_get(playing.pk, at_least=first.version) is first
    state = hand_state(playing)
    services.move_submit(
        table_id=playing.pk,
        user=users[state.turn],
        move=random_move(state, random.Random(4)),
        expected_version=first.version,
    )
    newer = snapshot_get(playing.pk, at_least=first.version + 1)
    assert newer.version == first.version + 1
    assert snapshot_get(playing.pk) is not newer  # no version named: read afresh


def test_a_deleted_table_has_no_snapshot(playing):
    snapshot_get(playing.pk)
    table_id = playing.pk
    playing.delete()
    assert snapshot_get(table_id) is None


def test_cached_tiles_follow_the_language():
    with translation.override("en"):
        english = tile("R7", "R7")
        assert "red 7, the okey" in english
        assert tiles(["R7", "F"], "R7") == english + tile("F", "R7")
    with translation.override("tr"):
        turkish = tile("R7", "R7")
    assert turkish != english and "okey" in turkish
