"""Turn timeouts (docs/rules.md, Timeouts), driven with a fake 'now': no waiting, no worker.

The real worker runs the same paths in test_worker.py.
"""

from datetime import timedelta

import pytest
from django.urls import reverse

from games import engine
from games.errors import ServiceError
from games.models import Move, Seat
from games.table.deadlines import AWAY_SECONDS
from games.table.moves import move_submit
from games.table.seats import deadline_rearm, seat_back
from games.timers.timeouts import turn_due_play
from tests.games.helpers import current_hand, discard_first, hand_state, version_of
from tests.games.timing import deadline_of, later

pytestmark = pytest.mark.django_db


def seat(table, index) -> Seat:
    return Seat.objects.get(table=table, index=index)


def timeout(table, **kw) -> bool:
    return turn_due_play(table_id=table.pk, now=later(), **kw)


def draw(table, user):
    return move_submit(
        table_id=table.pk, user=user, move={"kind": "draw"}, expected_version=version_of(table)
    )


def play_turn(table, user):
    """The player on turn plays it: draw unless they are the first player, then discard."""
    if hand_state(table).phase == "draw":
        draw(table, user)
    return discard_first(table, user)


def test_the_turn_deadline_is_stored_when_the_hand_is_dealt(playing):
    hand = current_hand(playing)
    assert deadline_of(playing) == hand.turn_started + timedelta(seconds=30)


def test_nothing_happens_before_the_turn_runs_out(playing):
    v = version_of(playing)
    just_before = deadline_of(playing) - timedelta(seconds=1)
    assert not turn_due_play(table_id=playing.pk, now=just_before)
    assert version_of(playing) == v and not Move.objects.exists()


def test_a_timeout_draws_and_discards_the_drawn_tile(playing, users):
    discard_first(playing, users[0])
    before = hand_state(playing)
    assert timeout(playing)
    after = hand_state(playing)
    drawn = before.stock[-1]
    # seat 2 drew the stock's top and threw that same tile: its rack is as it was
    assert after.discards[1][-1] == drawn and sorted(after.racks[1]) == sorted(before.racks[1])
    moves = list(Move.objects.filter(seat=1).order_by("seq"))
    assert [(m.kind, m.auto, m.user) for m in moves] == [
        ("draw", True, None),
        ("discard", True, None),
    ]
    assert moves[1].tile == engine.format_tile(drawn)
    assert after.turn == 2 and seat(playing, 1).timeouts_in_row == 1 and not seat(playing, 1).away
    # the next player's clock starts now
    assert deadline_of(playing) == current_hand(playing).turn_started + timedelta(seconds=30)


def test_the_first_player_times_out_with_their_least_useful_tile(playing):
    state = hand_state(playing)
    assert timeout(playing)
    move = Move.objects.get()
    assert move.kind == "discard" and move.auto and move.seat == 0
    assert engine.parse_tile(move.tile) == engine.best_discard(state.racks[0], state.okey)


def test_a_player_who_drew_has_the_drawn_tile_discarded(playing, users):
    discard_first(playing, users[0])
    draw(playing, users[1])
    drawn = hand_state(playing).drawn
    assert timeout(playing)
    assert hand_state(playing).discards[1][-1] == drawn
    assert Move.objects.filter(seat=1, auto=True).count() == 1


def test_two_timeouts_in_a_row_mark_the_seat_away_and_it_is_played_at_once(playing, users):
    assert timeout(playing)  # seat 1, the first player, times out
    for s in (1, 2, 3):
        play_turn(playing, users[s])
    assert seat(playing, 0).timeouts_in_row == 1 and not seat(playing, 0).away
    assert timeout(playing)  # and again: away
    assert seat(playing, 0).away and seat(playing, 0).timeouts_in_row == 2
    for s in (1, 2, 3):
        play_turn(playing, users[s])
    # seat 1's turn again: an away seat's deadline is at once, not in turn_seconds
    hand = current_hand(playing)
    assert hand_state(playing).turn == 0
    assert deadline_of(playing) == hand.turn_started + timedelta(seconds=AWAY_SECONDS)
    assert turn_due_play(table_id=playing.pk, now=deadline_of(playing))
    assert hand_state(playing).turn == 1 and seat(playing, 0).away


def test_any_move_of_the_player_brings_them_back(playing, users):
    Seat.objects.filter(table=playing, index=0).update(away=True, timeouts_in_row=3)
    discard_first(playing, users[0])
    assert not seat(playing, 0).away and seat(playing, 0).timeouts_in_row == 0


def test_a_player_who_comes_back_by_drawing_keeps_their_whole_turn(playing, users):
    discard_first(playing, users[0])
    Seat.objects.filter(table=playing, index=1).update(away=True, timeouts_in_row=2)
    deadline_rearm(playing.pk)
    draw(playing, users[1])  # on their own turn, before the away play
    hand = current_hand(playing)
    assert deadline_of(playing) == hand.turn_started + timedelta(seconds=30)


def test_the_back_button_brings_a_player_back(client, playing, users):
    Seat.objects.filter(table=playing, index=2).update(away=True, timeouts_in_row=2)
    url = reverse("games:table", args=[playing.pk])
    client.force_login(users[2])
    html = client.get(url).content.decode()
    assert "data-back" in html and "badge--warn" in html
    v = version_of(playing)
    response = client.post(reverse("games:back", args=[playing.pk]))
    assert response.status_code == 302
    assert not seat(playing, 2).away and seat(playing, 2).timeouts_in_row == 0
    assert version_of(playing) == v + 1  # everyone's page drops the away mark
    assert "data-back" not in client.get(url).content.decode()


def test_others_see_the_away_mark_but_no_back_button(client, playing, users):
    Seat.objects.filter(table=playing, index=2).update(away=True, timeouts_in_row=2)
    client.force_login(users[1])
    html = client.get(reverse("games:table", args=[playing.pk])).content.decode()
    assert "badge--warn" in html and "data-back" not in html


def test_back_is_only_for_a_seated_player(playing, django_user_model):
    stranger = django_user_model.objects.create_user("x", "x@example.com", "pw-okey-1234")
    with pytest.raises(ServiceError) as e:
        seat_back(table_id=playing.pk, user=stranger)
    assert e.value.code == "not_seated"


def test_a_move_just_before_the_timeout_wins_and_the_timeout_does_nothing(playing, users):
    v = version_of(playing)  # the version the timeout's task carries
    discard_first(playing, users[0])
    assert not turn_due_play(table_id=playing.pk, expected_version=v, now=later())
    assert Move.objects.count() == 1 and not Move.objects.filter(auto=True).exists()
    assert seat(playing, 0).timeouts_in_row == 0


def test_a_timeout_that_got_in_first_makes_the_players_move_stale(playing, users):
    v = version_of(playing)
    tile = engine.format_tile(hand_state(playing).racks[0][0])
    assert turn_due_play(table_id=playing.pk, expected_version=v, now=later())
    with pytest.raises(ServiceError) as e:
        move_submit(
            table_id=playing.pk,
            user=users[0],
            move={"kind": "discard", "tile": tile},
            expected_version=v,
        )
    assert e.value.code == "stale"
    assert Move.objects.count() == 1 and Move.objects.get().auto


def test_a_repeated_timeout_does_nothing(playing):
    v = version_of(playing)
    assert turn_due_play(table_id=playing.pk, expected_version=v, now=later())
    assert not turn_due_play(table_id=playing.pk, expected_version=v, now=later())
    assert Move.objects.count() == 1


def test_a_player_who_closed_the_browser_finds_the_table_as_it_is(client, playing, users):
    # seat 2's player is gone: their turns time out, twice in a row, and they are away
    play_turn(playing, users[0])
    assert timeout(playing)
    for s in (2, 3, 0):
        play_turn(playing, users[s])
    assert timeout(playing)
    assert seat(playing, 1).away
    state = hand_state(playing)
    client.force_login(users[1])
    html = client.get(reverse("games:table", args=[playing.pk])).content.decode()
    # their own rack as it now is, the away mark, and the way back
    for tile in state.racks[1]:
        assert f'data-tile="{engine.format_tile(tile)}"' in html
    assert "data-back" in html and "badge--warn" in html
