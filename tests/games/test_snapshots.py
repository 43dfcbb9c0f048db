"""The sockets of a table read its rows once per version (games.snapshots), and the cached tile
HTML follows the viewer's language."""

import gc
import random
import re
import weakref

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from games import services
from games.consumers import TableConsumer
from games.snapshots import snapshot_get, snapshots_clear
from games.templatetags.okey import tile, tiles

from .helpers import hand_state, move_random, random_move, version_of


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
    outcome = move_random(playing, users, random.Random(3))
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


@pytest.mark.django_db(transaction=True)
def test_a_sync_uses_the_process_reading_and_a_stale_one_is_not_trusted(playing):
    import time

    from games import versions

    table_id, version = playing.pk, version_of(playing)
    versions._known[table_id] = (version, time.monotonic())
    assert versions.known(table_id) == version
    versions._known[table_id] = (version, time.monotonic() - versions.STALE_SECONDS - 1)
    assert versions.known(table_id) is None
    assert versions._read([table_id]) == {table_id: version}
    versions._known.clear()


def _without_clock(html: str) -> str:
    """A frame without the server's clock (data-server-now), which differs at every render."""
    import re

    return re.sub(r'data-server-now="\d+"', "", html)


def _frames(sockets, version):
    return [_without_clock(s.frame_render(at_least=version)[1]) for s in sockets]


def test_after_a_move_the_movers_process_renders_it_without_reading_the_table(
    playing, users, django_capture_on_commit_callbacks
):
    sockets = [consumer_of(playing, u) for u in users]
    rng = random.Random(5)
    _frames(sockets, version_of(playing))  # the sockets show the table: a snapshot is held
    for _ in range(6):
        with django_capture_on_commit_callbacks(execute=True):
            outcome = move_random(playing, users, rng)
        with CaptureQueriesContext(connection) as queries:
            derived = _frames(sockets, outcome.version)
        assert len(queries) == 0
        # exactly what a fresh read of the table shows each viewer
        snapshots_clear()
        assert derived == _frames(sockets, outcome.version)


@pytest.mark.django_db(transaction=True)  # commits for real: nothing keeps the moves' callbacks
def test_a_replaced_snapshot_is_freed_without_the_cycle_collector(playing, users):
    """Reference counting frees the table and game of a snapshot that a move replaced: were they
    a cycle, only the collector's full walks would, and those stop the whole process."""
    rng = random.Random(8)
    snap = snapshot_get(playing.pk, at_least=version_of(playing))  # read from the database
    held = []
    gc.disable()
    try:
        for _ in range(3):  # the read snapshot, then ones that moves derived
            held.append((weakref.ref(snap.table), weakref.ref(snap.table.game)))
            del snap
            outcome = move_random(playing, users, rng)
            snap = snapshot_get(playing.pk, at_least=outcome.version)
            assert snap.table.game.version == outcome.version
        # (the read table stays, with its game: the seats, carried over the moves, point to it)
        assert [(t(), g()) for t, g in held[1:]] == [(None, None)] * 2
    finally:
        gc.enable()


def test_the_managers_invites_are_read_once_and_carried_over_a_move(
    playing, users, django_capture_on_commit_callbacks
):
    manager = consumer_of(playing, users[0])
    with CaptureQueriesContext(connection) as first:
        manager.frame_render(at_least=version_of(playing))
    assert any("games_invite" in q["sql"] for q in first.captured_queries)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = move_random(playing, users, random.Random(6))
    with CaptureQueriesContext(connection) as after:
        manager.frame_render(at_least=outcome.version)
    assert len(after) == 0


def test_a_move_that_brings_a_player_back_is_read_again(
    playing, users, django_capture_on_commit_callbacks
):
    """A seat's "away" badge changes with that move: the held snapshot's seats are out of date."""
    from games.models import Seat

    state = hand_state(playing)
    Seat.objects.filter(table=playing, index=state.turn).update(away=True)
    sockets = [consumer_of(playing, u) for u in users]
    before = _frames(sockets, version_of(playing))
    assert all("away" in html for html in before)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = move_random(playing, users, random.Random(7))
    with CaptureQueriesContext(connection) as queries:
        after = _frames(sockets, outcome.version)
    assert len(queries) > 0
    assert not any('badge--warn">' in html for html in after)


def test_the_move_that_ends_a_hand_is_read_again(
    playing, users, django_capture_on_commit_callbacks
):
    """A hand's end changes the scores (and may end the game): nothing is carried over."""
    from games.snapshots import snapshot_after_move

    rng = random.Random(8)
    for _ in range(400):
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            outcome = move_random(playing, users, rng)
        derives = [c for c in callbacks if getattr(c, "func", None) is snapshot_after_move]
        assert len(derives) == (0 if outcome.hand_over else 1)
        if outcome.hand_over:
            break
    assert outcome.hand_over


def seat_tiles(html) -> dict[int, int]:
    """Each seat's tile count as the frame shows it."""
    found = re.findall(r'data-seat="(\d)">.*?class="seat-tiles">[^<]*?(\d+)</span>', html, re.S)
    return {int(seat): int(n) for seat, n in found}


def test_a_seat_rendered_before_a_move_shows_the_move_after_it(playing, users):
    socket = consumer_of(playing, users[0])
    for _ in range(6):  # draws and discards: the seats' counts change and change back
        state = hand_state(playing)
        _, html = socket.frame_render()
        assert seat_tiles(html) == dict(enumerate(len(r) for r in state.racks))
        move_random(playing, users, random.Random(5))
    _, html = socket.frame_render()
    assert seat_tiles(html) == dict(enumerate(len(r) for r in hand_state(playing).racks))


def test_cached_seats_follow_the_language(playing, users):
    socket = consumer_of(playing, users[0])
    _, english = socket.frame_render()
    socket.lang = "tr"
    _, turkish = socket.frame_render()
    assert "seat 2" in english and "seat 2" not in turkish
    assert "tiles" in english and "taş" in turkish


def test_a_seat_shows_a_players_name_as_written_never_as_markup(playing, users):
    users[1].profile.display_name = '<b>Ali & "Veli"</b>'
    users[1].profile.save()
    snapshots_clear()
    written = "&lt;b&gt;Ali &amp; &quot;Veli&quot;&lt;/b&gt;"
    for viewer in users[:2]:  # another player, and the player themself
        _, html = consumer_of(playing, viewer).frame_render()
        assert "<b>Ali" not in html
        assert f'<span class="seat-name">{written}</span>' in html
        assert f'aria-label="Discard pile of {written}: ' in html


SEAT_PLACES = {0: "bottom", 1: "right", 2: "top", 3: "left"}  # counted from the viewer
PILE_CORNERS = {"bottom": "br", "right": "tr", "top": "tl", "left": "bl"}


def seat_places(html) -> dict[int, tuple[str, str]]:
    """Each seat's place on the viewer's screen and its pile's corner, as the frame shows them."""
    seats = re.findall(r'class="seat seat--(\w+)[^"]*" data-seat="(\d)"', html)
    piles = {
        i: corner
        for corner, i in re.findall(r'class="pile pile--(\w+)[^"]*"\s+data-seat="(\d)"', html)
    }
    return {int(i): (place, piles[i]) for place, i in seats}


def test_each_viewer_sees_a_moved_seat_in_their_own_place(playing, users):
    """A seat's HTML is shared by the viewers it looks the same to; each still sees it where it
    sits from their own chair, and its pile in that place's corner."""
    rng = random.Random(6)
    for _ in range(4):
        move_random(playing, users, rng)
        for me, user in enumerate(users):
            _, html = consumer_of(playing, user).frame_render()
            expected = {}
            for seat in range(4):
                place = SEAT_PLACES[(seat - me) % 4]
                expected[seat] = (place, PILE_CORNERS[place])
            assert seat_places(html) == expected


def centre_of(html) -> str:
    return html.split('<div class="center">')[1].split('<p class="commitment')[0]


def test_only_the_player_on_turn_sees_their_turn_and_buttons(playing, users):
    """The centre is shared by the viewers it looks the same to: the player on turn never gets
    another's, nor the others theirs, whichever of them is rendered first."""
    rng = random.Random(7)
    for step in range(4):
        state = hand_state(playing)
        order = list(range(4)) if step % 2 else list(reversed(range(4)))
        for me in order:
            _, html = consumer_of(playing, users[me]).frame_render()
            centre = centre_of(html)
            if me == state.turn:
                assert "Your turn" in centre and "data-move=" in centre
            else:
                assert "Your turn" not in centre and "data-move=" not in centre
                assert f"{users[state.turn].username} to play" in centre
        move_random(playing, users, rng)


def test_the_centre_speaks_the_viewers_language(playing, users):
    state = hand_state(playing)
    on_turn = users[state.turn].username
    socket = consumer_of(playing, users[(state.turn + 1) % 4])
    _, english = socket.frame_render()
    socket.lang = "tr"
    _, turkish = socket.frame_render()
    assert f"{on_turn} to play" in centre_of(english) and "Hand 1 · 1 of" in centre_of(english)
    assert f"Sıra {on_turn} oyuncusunda" in centre_of(turkish)
    assert "1. el · 1 / " in centre_of(turkish) and "Hand 1" not in centre_of(turkish)


def test_only_the_manager_sees_start_and_only_the_seated_see_leave(db, users, in_memory_layer):
    table = services.table_create(manager=users[0], options={"bots_fill": True})
    services.seat_take(table_id=table.pk, user=users[1], index=1)
    frames = {
        who: consumer_of(table, user).frame_render()[1]
        for who, user in (("manager", users[0]), ("seated", users[1]), ("standing", users[2]))
    }
    assert "data-start" in frames["manager"]
    assert "data-start" not in frames["seated"] and "data-start" not in frames["standing"]
    assert "/leave/" in frames["manager"] and "/leave/" in frames["seated"]
    assert "/leave/" not in frames["standing"]
