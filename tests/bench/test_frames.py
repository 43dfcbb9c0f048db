"""The harness reads the site's frames as table.js does (bench/loadlib/frames.py): a full frame,
a move's event with a player's own part after it, folded into what the page shows; frames rendered
here by the site's own code, so that a change of the markup shows."""

import random

import pytest
from django.test import override_settings
from django.utils import translation

from bench.loadlib.frames import FrameState, frame_parse, frame_problems
from bench.loadlib.players import SitePlayer, TablePace
from bench.loadlib.stats import Recorder
from games import engine
from games.table import render
from games.table.moves import move_submit
from games.table.publish import move_event
from games.table.reads import table_rows, table_view
from games.table.render import frame_full, own_html
from tests.games.conftest import SEED_HEX, game_started, table_full


@pytest.fixture
def dealt(db, django_user_model, settings):
    """A four-player Düz table dealt from the fixed seed: seat 0 opens the hand (discard)."""
    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    users = [
        django_user_model.objects.create_user(username=f"f{i}", email=f"f{i}@example.com")
        for i in range(4)
    ]
    layer = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with override_settings(CHANNEL_LAYERS=layer):
        yield game_started(table_full(users)), users


def full_frame(table, user) -> str:
    view = table_view(table_rows(table.pk), user)
    with translation.override("en"):
        return frame_full(view)


def discard(table, users):
    """Seat 0 discards its first tile: (the tile, the event's bytes, {seat: own part})."""
    rows = table_rows(table.pk)
    tile = engine.format_tile(rows.state.racks[0][0])
    outcome = move_submit(
        table_id=table.pk, user=users[0], move={"kind": "discard", "tile": tile},
        expected_version=rows.game.version,
    )  # fmt: skip
    seat_of = {u.pk: i for i, u in enumerate(users)}
    with translation.override("en"):
        moved = move_event(outcome)
        event = render.event_html(moved)
        own = {seat_of[o.user_id]: own_html(o) for o in moved.own}
    return tile, event, own


def test_a_full_frame_is_the_whole_view(dealt):
    table, users = dealt
    f = frame_parse(full_frame(table, users[0]))
    assert f.full and not f.delta and f.me == 0 and f.status == "playing"
    assert f.rack_version == f.moves_version == f.version and f.seat == 0
    assert len(f.rack) == 15 and "discard" in f.can and f.phase == "discard" and f.turn == 0
    state = table_rows(table.pk).state
    public = {engine.format_tile(state.indicator), engine.format_tile(state.okey)}
    assert set(f.public_tiles) <= public  # no rack tile outside #rack-data
    assert frame_problems(f, 0) == []
    assert frame_problems(f, 1) == ["the rack of seat 0 shown to seat 1"]
    spectator = frame_parse(full_frame(table, None))
    assert spectator.full and spectator.me is None and not spectator.has_rack
    assert not spectator.has_moves


def test_a_move_is_folded_from_its_event_and_the_own_parts(dealt):
    table, users = dealt
    mover, nxt = FrameState(), FrameState()
    assert mover.fold(frame_parse(full_frame(table, users[0]))) == "ok"
    assert nxt.fold(frame_parse(full_frame(table, users[1]))) == "ok"
    v = mover.version
    assert nxt.can_now() == () and "discard" in mover.can_now()
    tile, event_html, own = discard(table, users)
    assert set(own) == {0, 1}  # the mover's rack and moves, and the next player's moves
    event = frame_parse(event_html)
    assert event.delta and event.version == v + 1 and not event.has_rack and not event.has_moves
    assert (event.event_kind, event.event_seat, event.event_tile) == ("discard", 0, tile)
    assert event.turn == 1 and frame_problems(event, 2) == []
    assert tile in event.public_tiles  # now on the mover's pile
    # of the seats, only what the move changed: the turn and the mover's tile count
    assert 'id="seat-0-live"' in event_html and 'id="seat-1-live"' in event_html
    assert 'id="seat-0"' not in event_html and 'id="seat-2-live"' not in event_html
    # the mover's frame: the event, then its own part after it
    mine = frame_parse(event_html + own[0])
    assert mine.delta and mine.version == mine.rack_version == v + 1
    assert frame_problems(mine, 0) == []
    assert frame_problems(mine, 1) == ["the rack of seat 0 shown to seat 1"]
    assert mover.fold(mine) == "ok" and mover.version == v + 1
    assert len(mover.rack) == 14 and mover.can_now() == () and mover.phase == ""
    # the next player's: the event and its new moves, no rack (it did not change)
    theirs = frame_parse(event_html + own[1])
    assert not theirs.has_rack and theirs.can
    assert nxt.fold(theirs) == "ok"
    assert "draw" in nxt.can_now() and nxt.version == v + 1


def test_a_move_that_changes_a_seats_badges_sends_the_whole_seat(dealt):
    from games.models import Seat

    table, users = dealt
    Seat.objects.filter(table=table, index=0).update(away=True)
    assert "badge--warn" in full_frame(table, users[1])  # seat 0 shows as away
    _, event_html, _ = discard(table, users)
    whole = event_html[event_html.index('<div id="seat-0"') :]
    assert "badge--warn" not in whole[: whole.index('id="seat-0-live"')]  # back, and it shows
    assert 'id="seat-1-live"' in event_html and 'id="seat-1"' not in event_html


def test_an_event_after_a_gap_or_one_already_shown_is_dropped(dealt):
    table, users = dealt
    page = FrameState()
    page.fold(frame_parse(full_frame(table, users[2])))
    v = page.version
    _, event_html, _ = discard(table, users)
    page.version = v - 1  # a page that missed the event before this one
    assert page.fold(frame_parse(event_html)) == "gap" and page.version == v - 1
    page.version = v
    assert page.fold(frame_parse(event_html)) == "ok" and page.version == v + 1
    assert page.fold(frame_parse(event_html)) == "stale"
    older = frame_parse(full_frame(table, users[2]))
    older.version = v
    assert page.fold(older) == "stale"


def test_a_player_counts_a_moves_bytes_and_flags_a_foreign_rack(dealt):
    table, users = dealt
    rec = Recorder()
    player = SitePlayer(
        url="ws://127.0.0.1:1/", origin="http://127.0.0.1:1", table=table.pk, seat=1,
        cookie="x", recorder=rec, pace=TablePace(rate=0.0, think=0.0), rng=random.Random(1),
        play=False,
    )  # fmt: skip
    player.on_frame(full_frame(table, users[1]))
    v = player.version
    rec.move_sent(table.pk, v + 1, 0)
    _, event_html, own = discard(table, users)
    player.on_frame(event_html + own[1])
    assert player.version == v + 1 and rec.seen[(table.pk, v + 1)] == 1
    assert rec.move_bytes[(table.pk, v + 1)] == {1: len((event_html + own[1]).encode())}
    assert not rec.errors
    player.on_frame(event_html + own[0])  # the mover's frame, sent to another player
    assert any("the rack of seat 0 shown to seat 1" in k for k in rec.errors), rec.errors


def test_bad_inputs_leak_check_tells_a_foreign_tile(dealt):
    from bench.badinput import Knowledge

    table, users = dealt
    know = Knowledge([table.pk], users)
    mine = full_frame(table, users[0])
    assert know.leaks(mine, users[0].pk) == []
    assert know.leaks(full_frame(table, None), None) == []
    assert any("shown to user" in p for p in know.leaks(mine, users[1].pk))
    rack = frame_parse(mine).rack
    outside = mine.replace('<div id="rack-data"', '<div id="not-rack"', 1)
    assert (
        any("outside #rack-data" in p for p in know.leaks(outside, users[0].pk))
        or set(rack) <= know.public
    )
