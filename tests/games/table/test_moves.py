from dataclasses import replace

import pytest

from games import engine
from games.engine import parse_tile, parse_tiles
from games.errors import ServiceError
from games.models import Hand, Move
from games.table.deadlines import NEXT_HAND_AFTER_VOID_SECONDS
from games.table.lifecycle import hand_next
from games.table.moves import move_submit
from games.table.publish import (
    LOBBY_MESSAGE,
    move_event,
    move_messages,
    table_group,
)
from games.table.render import own_html
from games.table.results import game_results_record
from tests.games.helpers import current_hand, deadline_tasks_patch, hand_state, version_of

pytestmark = pytest.mark.django_db

# 14 tiles in melds (R1-R5, Y1-Y3, B1-B3, K1-K3) and a 15th to finish with
MELD_RACK = "R1 R2 R3 R4 R5 Y1 Y2 Y3 B1 B2 B3 K1 K2 K3 K9"
PAIRS_RACK = "R1 R1 R4 R4 Y7 Y7 B2 B2 B9 B9 K5 K5 K12 K12 Y13"


def state_set(table, **changes):
    """Rewrite the current hand's state (a position the test needs)."""
    hand = current_hand(table)
    state = engine.hand_from_dict(hand.state)
    racks = changes.pop("rack_of", None)
    if racks:
        seat, text = racks
        changes["racks"] = state.racks[:seat] + (parse_tiles(text),) + state.racks[seat + 1 :]
    new = replace(state, **changes)
    hand.state = engine.hand_to_dict(new)
    hand.save()
    return new


def submit(table, user, version=None, key=None, **move):
    return move_submit(
        table_id=table.pk,
        user=user,
        move=move,
        expected_version=version_of(table) if version is None else version,
        idempotency_key=key,
    )


def refused(code, table, user, **kw):
    before_version, before_moves = version_of(table), Move.objects.count()
    before_state = current_hand(table).state
    with pytest.raises(ServiceError) as e:
        submit(table, user, **kw)
    assert e.value.code == code, e.value
    assert version_of(table) == before_version
    assert Move.objects.count() == before_moves
    assert current_hand(table).state == before_state
    return e.value


# --- every kind of move --------------------------------------------------------------------


def test_first_player_discards_and_the_turn_passes(playing, users):
    state = hand_state(playing)
    tile = engine.format_tile(state.racks[0][0])
    v = version_of(playing)
    out = submit(playing, users[0], kind="discard", tile=tile)
    assert (out.version, out.seq, out.hand_over, out.duplicate) == (v + 1, 1, False, False)
    after = hand_state(playing)
    assert after.turn == 1 and after.discards[0][-1] == parse_tile(tile)
    move = Move.objects.get()
    assert (move.seat, move.kind, move.tile, move.user, move.version) == (
        0,
        "discard",
        tile,
        users[0],
        v + 1,
    )


def test_draw_takes_the_top_of_the_stock(playing, users):
    first = hand_state(playing)
    submit(playing, users[0], kind="discard", tile=engine.format_tile(first.racks[0][0]))
    before = hand_state(playing)
    submit(playing, users[1], kind="draw")
    after = hand_state(playing)
    assert after.racks[1][-1] == before.stock[-1]
    assert len(after.stock) == len(before.stock) - 1 and after.phase == "discard"


def test_take_picks_up_the_left_discard(playing, users):
    first = hand_state(playing)
    tile = engine.format_tile(first.racks[0][0])
    submit(playing, users[0], kind="discard", tile=tile)
    submit(playing, users[1], kind="take")
    after = hand_state(playing)
    assert after.racks[1][-1] == parse_tile(tile) and after.discards[0] == ()
    # and it cannot go straight back
    refused("cannot_discard_taken_tile", playing, users[1], kind="discard", tile=tile)


def test_finish_ends_the_hand_scores_it_and_schedules_the_next(
    playing, users, monkeypatch, django_capture_on_commit_callbacks
):
    scheduled = []
    deadline_tasks_patch(
        monkeypatch,
        lambda args, countdown: args[0] == "next" and scheduled.append(args[1:]),
    )
    state_set(playing, rack_of=(0, MELD_RACK), indicator=parse_tile("B9"), okey=parse_tile("B10"))
    with django_capture_on_commit_callbacks(execute=True):
        out = submit(playing, users[0], kind="finish", tile="K9")
    assert out.hand_over and not out.game_over
    hand = current_hand(playing)
    assert hand.over and hand.result["finisher"] == 0 and hand.result["kind"] == "normal"
    # blue indicator: V = 2; the finisher's count goes down, the others' up
    game = engine.game_from_dict(playing.game.__class__.objects.get(pk=playing.game.pk).state)
    assert game.counts == (18, 22, 22, 22) and game.hands_played == 1
    assert scheduled == [(playing.pk, out.version)]
    # the scheduled task deals hand 2, started by the next seat
    assert hand_next(table_id=playing.pk, expected_version=out.version)
    hand2 = current_hand(playing)
    assert hand2.number == 2 and hand2.first_seat == 1 and hand2.seed != hand.seed
    assert not hand_next(table_id=playing.pk, expected_version=out.version)


def test_show_indicator_on_the_first_turn(playing, users):
    state = hand_state(playing)
    twin = engine.format_tile(state.indicator)
    rack = " ".join([twin] + [engine.format_tile(t) for t in state.racks[0][1:]])
    state_set(playing, rack_of=(0, rack))
    submit(playing, users[0], kind="show")
    assert hand_state(playing).shown_by == 0
    refused("already_shown", playing, users[0], kind="show")


def test_declare_pairs_opens_every_discard_history(playing, users):
    submit(playing, users[0], kind="pairs")
    assert hand_state(playing).pairs_declared == (0,)
    refused("already_declared", playing, users[0], kind="pairs")


def test_take_indicator_with_six_pairs_when_the_table_allows_it(playing, users):
    state = hand_state(playing)
    opts = replace(state.options, pairs_take_indicator=True)
    first = engine.format_tile(state.racks[0][0])
    submit(playing, users[0], kind="discard", tile=first)
    state_set(playing, options=opts, rack_of=(1, PAIRS_RACK.rsplit(" ", 1)[0]))
    refused("not_declared", playing, users[1], kind="take_indicator")
    submit(playing, users[1], kind="pairs")
    submit(playing, users[1], kind="take_indicator")
    after = hand_state(playing)
    assert after.indicator_taken_by == 1 and after.racks[1][-1] == after.indicator


# --- refusals: a clear error and nothing changes ------------------------------------------------


def test_out_of_turn(playing, users):
    refused("not_your_turn", playing, users[2], kind="draw")


def test_tile_not_in_rack(playing, users):
    state = hand_state(playing)
    missing = next(f for f in range(53) if f not in state.racks[0])
    refused("tile_not_in_rack", playing, users[0], kind="discard", tile=engine.format_tile(missing))


def test_draw_on_the_first_turn_is_refused(playing, users):
    refused("first_turn_no_draw", playing, users[0], kind="draw")


def test_must_draw_before_discarding(playing, users):
    state = hand_state(playing)
    submit(playing, users[0], kind="discard", tile=engine.format_tile(state.racks[0][0]))
    tile = engine.format_tile(hand_state(playing).racks[1][0])
    refused("must_draw_first", playing, users[1], kind="discard", tile=tile)


def test_no_finish_without_melds(playing, users):
    state = hand_state(playing)
    state_set(playing, rack_of=(0, "R1 R5 R9 Y2 Y6 Y10 B3 B7 B11 K4 K8 K12 R13 Y13 B13"))
    refused("no_finish", playing, users[0], kind="finish", tile="B13")
    assert hand_state(playing).indicator == state.indicator


def test_stale_version(playing, users):
    tile = engine.format_tile(hand_state(playing).racks[0][0])
    refused("stale", playing, users[0], version=version_of(playing) - 1, kind="discard", tile=tile)


def test_the_same_move_twice_with_one_key_applies_once(playing, users):
    tile = engine.format_tile(hand_state(playing).racks[0][0])
    v = version_of(playing)
    first = submit(playing, users[0], version=v, key="k-1", kind="discard", tile=tile)
    again = submit(playing, users[0], version=v, key="k-1", kind="discard", tile=tile)
    assert again.duplicate and (again.version, again.seq) == (first.version, first.seq)
    assert Move.objects.count() == 1 and version_of(playing) == v + 1


def test_a_retry_with_one_key_applies_once_when_the_move_names_no_version(playing, users):
    tile = engine.format_tile(hand_state(playing).racks[0][0])
    v = version_of(playing)
    move = {"kind": "discard", "tile": tile}
    first, again = (
        move_submit(
            table_id=playing.pk,
            user=users[0],
            move=move,
            expected_version=None,
            idempotency_key="k-2",
        )
        for _ in range(2)
    )
    assert again.duplicate and (again.version, again.seq) == (first.version, first.seq)
    assert Move.objects.count() == 1 and version_of(playing) == v + 1


def test_a_new_key_at_a_version_gone_by_is_stale(playing, users):
    tile = engine.format_tile(hand_state(playing).racks[0][0])
    v = version_of(playing)
    submit(playing, users[0], version=v, key="k-3", kind="discard", tile=tile)
    refused("stale", playing, users[1], version=v, key="k-4", kind="draw")


def test_the_same_move_twice_without_a_key_is_stale(playing, users):
    tile = engine.format_tile(hand_state(playing).racks[0][0])
    v = version_of(playing)
    submit(playing, users[0], version=v, kind="discard", tile=tile)
    refused("stale", playing, users[0], version=v, kind="discard", tile=tile)


@pytest.mark.parametrize(
    "move",
    [
        {},
        {"kind": "fly"},
        {"kind": "discard"},
        {"kind": "discard", "tile": 7},
        {"kind": "discard", "tile": "Z99"},
        {"kind": "finish", "tile": ""},
    ],
)
def test_malformed_moves(playing, users, move):
    code = "bad_tile" if move.get("tile") == "Z99" else "malformed"
    refused(code, playing, users[0], **move)


def test_a_move_that_is_not_a_dict(playing, users):
    with pytest.raises(ServiceError) as e:
        move_submit(table_id=playing.pk, user=users[0], move="draw", expected_version=None)
    assert e.value.code == "malformed"


def test_a_bad_key_is_malformed(playing, users):
    refused("malformed", playing, users[0], key="x" * 65, kind="pairs")


def test_not_seated(playing, users, django_user_model):
    stranger = django_user_model.objects.create_user(username="s", email="s@example.com")
    refused("not_seated", playing, stranger, kind="pairs")


def test_anonymous_is_not_seated(playing):
    from django.contrib.auth.models import AnonymousUser

    refused("not_seated", playing, AnonymousUser(), kind="pairs")


@pytest.mark.parametrize("table_id", [987654, "abc", None, 2**70, -(2**70)])
def test_no_such_table(playing, users, table_id):
    with pytest.raises(ServiceError) as e:
        move_submit(table_id=table_id, user=users[0], move={"kind": "pairs"}, expected_version=1)
    assert e.value.code == "no_table"


def test_no_such_seat_for_a_server_move(playing):
    with pytest.raises(ServiceError) as e:
        move_submit(table_id=playing.pk, seat=9, move={"kind": "pairs"}, expected_version=None)
    assert e.value.code == "no_seat"


def test_a_claimed_seat_must_be_the_users_own(playing, users):
    with pytest.raises(ServiceError) as e:
        move_submit(
            table_id=playing.pk,
            user=users[1],
            seat=0,
            move={"kind": "pairs"},
            expected_version=None,
        )
    assert e.value.code == "not_your_seat"


def test_no_hand_before_the_deal(users):
    from tests.games.conftest import table_full

    table = table_full(users)
    with pytest.raises(ServiceError) as e:
        move_submit(table_id=table.pk, user=users[0], move={"kind": "pairs"}, expected_version=None)
    assert e.value.code == "no_hand"


def test_server_moves_by_seat_are_marked_auto(playing):
    tile = engine.format_tile(hand_state(playing).racks[0][0])
    move_submit(
        table_id=playing.pk,
        seat=0,
        move={"kind": "discard", "tile": tile},
        expected_version=None,
        auto=True,
    )
    move = Move.objects.get()
    assert move.auto and move.user is None


def test_a_move_publishes_its_event_after_commit(
    playing, users, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr("games.table.moves.move_publish", sent.append)
    tile = engine.format_tile(hand_state(playing).racks[0][0])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        out = submit(playing, users[0], kind="discard", tile=tile)
        assert sent == []
    for cb in callbacks:
        cb()
    assert sent == [out]
    event = move_event(out)
    assert (event.table_id, event.version, event.seat, event.kind, event.tile) == (
        playing.pk, out.version, 0, "discard", tile
    )  # fmt: skip
    # the board before and after: the turn passed, the pile grew; the mover's and the next
    # player's own views changed (tiles, moves), nobody else's
    assert event.before.seats[0].turn and not event.after.seats[0].turn
    assert event.after.seats[1].turn and event.after.seats[0].pile == (tile,)
    own = {o.rack.seat: o for o in event.own}
    assert sorted(own) == [0, 1] and own[0].user_id == users[0].pk
    assert own[0].rack.can == () and "draw" in own[1].rack.can
    assert len(own[0].rack.tiles) == 14
    assert out.state.turn == 1 and out.move.tile == tile


def test_a_draw_event_names_no_tile(playing, users, monkeypatch):
    tile = engine.format_tile(hand_state(playing).racks[0][0])
    submit(playing, users[0], kind="discard", tile=tile)
    out = submit(playing, users[1], kind="draw")
    event = move_event(out)
    assert event.kind == "draw" and event.tile is None
    drawn = engine.format_tile(out.state.drawn)
    # only the drawer's own view carries the tile drawn
    assert [o.user_id for o in event.own] == [users[1].pk]
    assert event.own[0].rack.drawn == drawn


def test_each_own_part_is_rendered_once_in_its_players_language(playing, users):
    """One message to the table: the public event in every language; a player's own part only in
    theirs, with the view a tab in the other language renders the same markup from."""
    import msgpack
    from django.utils import translation

    from games.table.reads import OwnView

    users[1].profile.language = "en"
    users[1].profile.save(update_fields=["language"])
    tile = engine.format_tile(hand_state(playing).racks[0][0])
    out = submit(playing, users[0], kind="discard", tile=tile)
    ((table, public),) = move_messages(move_event(out))
    assert table == table_group(playing.pk) and set(public["html"]) == {"tr", "en"}
    by_user = {m["own"]["user_id"]: m for m in public["own"]}
    assert list(by_user) == [users[0].pk, users[1].pk]
    assert [m["own"]["lang"] for m in public["own"]] == ["tr", "en"]
    assert "Your turn: draw a tile" in by_user[users[1].pk]["html"]
    # the view crosses the channel layer (msgpack) as plain values and comes back as it was: a
    # Turkish tab of the English player renders exactly what the move process would have
    theirs = OwnView.from_message(msgpack.unpackb(msgpack.packb(by_user[users[1].pk]["own"])))
    assert theirs == next(o for o in move_event(out).own if o.user_id == users[1].pk)
    with translation.override("tr"):
        assert "Sıra sizde: taş çekin" in own_html(theirs)


def test_a_hand_with_an_empty_stock_is_void_and_redealt_by_the_same_player(
    playing, users, monkeypatch, django_capture_on_commit_callbacks
):
    scheduled = []
    deadline_tasks_patch(
        monkeypatch,
        lambda args, countdown: args[0] == "next" and scheduled.append(countdown),
    )
    state = hand_state(playing)
    tile = engine.format_tile(state.racks[0][0])
    submit(playing, users[0], kind="discard", tile=tile)
    state_set(playing, stock=state.stock[:1])
    submit(playing, users[1], kind="draw")
    with django_capture_on_commit_callbacks(execute=True):
        out = submit(
            playing,
            users[1],
            kind="discard",
            tile=engine.format_tile(hand_state(playing).racks[1][0]),
        )
    hand = current_hand(playing)
    assert out.hand_over and hand.result["void"]
    assert scheduled == [NEXT_HAND_AFTER_VOID_SECONDS]
    assert hand_next(table_id=playing.pk, expected_version=out.version)
    again = Hand.objects.get(game__table=playing, number=2)
    assert again.first_seat == 0
    game = engine.game_from_dict(playing.game.__class__.objects.get(pk=playing.game.pk).state)
    assert game.hands_played == 0 and game.counts == (20, 20, 20, 20)


def test_the_last_hand_ends_the_game_with_places_and_rating_points(
    users, fixed_seed, monkeypatch, django_capture_on_commit_callbacks
):
    from tests.games.conftest import game_started, table_full

    scheduled, ending, lobby = [], [], []
    sent = {"next": scheduled, "end": ending}
    deadline_tasks_patch(
        monkeypatch,
        lambda args, countdown: args[0] in sent and sent[args[0]].append(args[1:]),
    )
    monkeypatch.setattr(
        "games.table.publish.messages_send",
        lambda messages: lobby.extend(1 for m in messages if m == LOBBY_MESSAGE),
    )
    table = game_started(table_full(users, hand_limit=1))
    state_set(table, rack_of=(0, MELD_RACK), indicator=parse_tile("B9"), okey=parse_tile("B10"))
    with django_capture_on_commit_callbacks(execute=True):
        out = submit(table, users[0], kind="finish", tile="K9")
    assert out.hand_over and out.game_over and scheduled == [] and lobby == [1]
    # the results and the profiles follow in a task, sent as the last move commits
    assert ending == [(table.pk, out.version)]
    assert game_results_record(table_id=table.pk, expected_version=out.version)
    assert not game_results_record(table_id=table.pk)  # exactly once
    table.refresh_from_db()
    game = table.game
    assert table.status == "finished" and game.status == "over"
    # seat 1 (count 18) first; the three others tie at 22 and share places 2-4: (1 - 1 - 2) / 3
    assert game.results["places"] == [1, 2, 2, 2] and game.results["counts"] == [18, 22, 22, 22]
    assert game.results["points"][0] == 2 and game.results["hands"] == 1
    profiles = [type(u).objects.get(pk=u.pk).profile for u in users]
    # -2/3 each, whole and summing to zero: the unit left over goes to the lowest of the seats
    assert [p.rating_points for p in profiles] == [2, 0, -1, -1]
    assert game.results["points"] == [2, 0, -1, -1]
    assert [p.games_played for p in profiles] == [1, 1, 1, 1]
    assert [p.wins for p in profiles] == [1, 0, 0, 0]
    with pytest.raises(ServiceError) as e:
        submit(table, users[1], kind="draw")
    assert e.value.code == "no_hand"
    assert not hand_next(table_id=table.pk, expected_version=out.version)


def test_the_game_end_is_shown_with_places(client, users, fixed_seed):
    from django.urls import reverse

    from tests.games.conftest import game_started, table_full

    table = game_started(table_full(users, hand_limit=1))
    state_set(table, rack_of=(0, MELD_RACK), indicator=parse_tile("B9"), okey=parse_tile("B10"))
    out = submit(table, users[0], kind="finish", tile="K9")
    game_results_record(table_id=table.pk, expected_version=out.version)
    client.force_login(users[2])
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'class="result card"' in html and "result-table" in html
    assert bytes(current_hand(table).seed).hex() in html
    # every rack is revealed once the hand is over
    assert html.count('class="result-rack"') >= 4
