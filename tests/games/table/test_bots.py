"""Bots: filling seats at the start, the manager's bots, a bot's turn, a table of bots.

Turns are driven with a fake 'now' (tests/games/timing.py); test_worker.py runs a bots' game on
a real Celery worker.
"""

from datetime import timedelta

import pytest
from django.urls import reverse

from games import engine
from games.engine import parse_tile
from games.errors import ServiceError
from games.models import Hand, Move, Seat, Table
from games.table.bots import bot_add, bot_table_create
from games.table.create import table_create
from games.table.deadlines import bot_pause
from games.table.lifecycle import game_start, table_start
from games.table.moves import move_submit
from games.table.seats import seat_leave, seat_take
from games.timers.sweep import table_due
from games.timers.timeouts import turn_due_play
from tests.games.conftest import table_full
from tests.games.helpers import current_hand, hand_state, version_of
from tests.games.table.test_moves import MELD_RACK, state_set
from tests.games.timing import deadline_of, later, run_due

pytestmark = pytest.mark.django_db


def bots_of(table) -> list[int]:
    return list(Seat.objects.filter(table=table, is_bot=True).values_list("index", flat=True))


def start_now(table):
    """Start, and deal as the countdown's task would."""
    version = table_start(table_id=table.pk, user=table.manager)
    assert game_start(table_id=table.pk, expected_version=version)
    table.refresh_from_db()
    return table


def test_bots_take_the_empty_seats_at_the_start(users):
    table = table_create(manager=users[0], options={})
    seat_take(table_id=table.pk, user=users[1], index=2)
    table_start(table_id=table.pk, user=users[0])
    table.refresh_from_db()
    assert table.status == Table.Status.STARTING and bots_of(table) == [1, 3]
    # everyone sees the countdown, the bots already seated
    assert deadline_of(table) == table.start_at


def test_without_bots_the_start_waits_for_every_seat(users):
    table = table_create(manager=users[0], options={"bots_fill": False})
    with pytest.raises(ServiceError) as e:
        table_start(table_id=table.pk, user=users[0])
    assert e.value.code == "seats_empty" and bots_of(table) == []


def test_a_player_who_leaves_during_the_countdown_is_replaced_by_a_bot(users):
    table = table_full(users)
    table_start(table_id=table.pk, user=users[0])
    version = seat_leave(table_id=table.pk, user=users[3])
    table.refresh_from_db()
    assert table.status == Table.Status.STARTING and bots_of(table) == [3]
    # the countdown goes on and the game starts with the bot
    assert game_start(table_id=table.pk, expected_version=version)
    assert current_hand(table).number == 1


def test_when_the_last_person_leaves_during_the_countdown_the_table_closes(users):
    table = table_create(manager=users[0], options={})
    table_start(table_id=table.pk, user=users[0])
    version = seat_leave(table_id=table.pk, user=users[0])
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and deadline_of(table) is None
    assert not game_start(table_id=table.pk, expected_version=version)
    assert not Hand.objects.exists()


def test_the_manager_seats_and_removes_a_bot(client, users):
    table = table_create(manager=users[0], options={"seats": 3})
    client.force_login(users[0])
    url = reverse("games:bot", args=[table.pk])
    assert "data-bot-add" in client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert client.post(url, {"seat": "1", "action": "add"}).status_code == 302
    assert bots_of(table) == [1]
    # a bot's seat is taken for people
    with pytest.raises(ServiceError) as e:
        seat_take(table_id=table.pk, user=users[1], index=1)
    assert e.value.code == "seat_taken"
    client.post(url, {"seat": "1", "action": "remove"})
    assert bots_of(table) == []
    seat_take(table_id=table.pk, user=users[1], index=1)


@pytest.mark.parametrize(
    "who, index, code",
    [(1, 2, "not_manager"), (0, 0, "seat_taken"), (0, 9, "no_seat"), (0, "2", "no_seat")],
)
def test_bot_add_refusals_change_nothing(users, who, index, code):
    table = table_create(manager=users[0], options={})
    with pytest.raises(ServiceError) as e:
        bot_add(table_id=table.pk, user=users[who], index=index)
    assert e.value.code == code and bots_of(table) == [] and version_of(table) == 1


def test_no_bots_are_seated_once_the_game_is_on(playing, users):
    with pytest.raises(ServiceError) as e:
        bot_add(table_id=playing.pk, user=users[0], index=1)
    assert e.value.code == "not_open"


def test_a_bot_plays_its_turn_through_the_move_path_after_a_short_pause(
    users, fixed_seed, settings
):
    settings.OKEY_BOT_PAUSE = (0.8, 2.5)
    table = table_create(manager=users[0], options={"seats": 2})
    start_now(table)  # seat 1 is the first player (fixed seed)
    move_submit(
        table_id=table.pk,
        user=users[0],
        move={"kind": "discard", "tile": engine.format_tile(hand_state(table).racks[0][0])},
        expected_version=version_of(table),
    )
    hand = current_hand(table)
    pause = (deadline_of(table) - hand.turn_started).total_seconds()
    assert 0.8 <= pause <= 2.5 and pause == pytest.approx(bot_pause(hand), abs=1e-3)
    assert not turn_due_play(table_id=table.pk, now=hand.turn_started)
    assert turn_due_play(table_id=table.pk, now=deadline_of(table))
    moves = list(Move.objects.filter(seat=1).order_by("seq"))
    assert moves and all(m.auto and m.user is None for m in moves)
    assert moves[-1].kind in ("discard", "finish") and hand_state(table).turn == 0


def test_bot_pauses_differ_from_turn_to_turn(users, fixed_seed, settings):
    settings.OKEY_BOT_PAUSE = (0.8, 2.5)
    table = start_now(table_create(manager=users[0], options={"seats": 2}))
    hand = current_hand(table)
    pauses = set()
    for version in range(1, 20):
        hand.version = version
        pauses.add(round(bot_pause(hand), 3))
        assert 0.8 <= bot_pause(hand) <= 2.5
    assert len(pauses) > 10


def test_a_bot_shows_the_indicator_and_finishes_when_it_can(users, fixed_seed):
    table = table_create(manager=users[0], options={"seats": 2}, sit=False)
    seat_take(table_id=table.pk, user=users[0], index=1)
    bot_add(table_id=table.pk, user=users[0], index=0)
    start_now(table)  # the bot on seat 1 is the first player (fixed seed), with 15 tiles
    # it holds the indicator's twin and a finished hand (blue indicator B9: okey B10)
    state_set(
        table,
        rack_of=(0, MELD_RACK.replace("K9", "B9")),
        indicator=parse_tile("B9"),
        okey=parse_tile("B10"),
    )
    assert turn_due_play(table_id=table.pk, now=later())
    assert [m.kind for m in Move.objects.order_by("seq")] == ["show", "finish"]
    result = current_hand(table).result
    # V = 2 (blue indicator, normal finish), and 1 more for showing it
    assert result["finisher"] == 0 and result["shower"] == 0 and result["deltas"] == [-3, 2]


def test_four_bots_play_a_whole_game_on_their_own(users, client):
    table = bot_table_create(manager=users[0], options={"hand_limit": 2})
    assert bots_of(table) == [0, 1, 2, 3] and table.status == Table.Status.STARTING
    done = run_due(table)  # as the tasks would, one due action after another
    table.refresh_from_db()
    game = table.game
    assert done[0] == "start" and done[-1] == "end" and done.count("turn") > 8
    assert table.status == Table.Status.FINISHED and game.status == "over"
    assert game.results["hands"] == 2 and sorted(game.results["places"])[0] == 1
    assert all(p["bot"] and p["user"] is None for p in game.results["players"])
    assert not Move.objects.filter(auto=False).exists()
    assert game.deadline is None
    # anyone may watch: the results are on the table's page
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "The game is over" in html or "Oyun bitti" in html
    assert all(f"Bot {n}" in html for n in (1, 2, 3, 4))


def test_a_table_of_bots_does_not_touch_anyones_profile(users):
    table = bot_table_create(manager=users[0], options={"hand_limit": 1})
    run_due(table)
    profile = type(users[0]).objects.get(pk=users[0].pk).profile
    assert (profile.games_played, profile.rating_points, profile.wins) == (0, 0, 0)


def test_one_table_of_bots_at_a_time_per_person(users):
    bot_table_create(manager=users[0], options={})
    with pytest.raises(ServiceError) as e:
        bot_table_create(manager=users[0], options={})
    assert e.value.code == "bot_table_running"
    bot_table_create(manager=users[1], options={})


def test_the_lobby_button_opens_a_table_of_bots(client, users):
    client.force_login(users[0])
    data = {"mode": "esli", "seats": "4", "turn_seconds": "30", "start_count": "20"}
    response = client.post(reverse("games:table_new"), {**data, "hand_limit": "1", "bots": "1"})
    table = Table.objects.get()
    assert response.status_code == 302 and bots_of(table) == [0, 1, 2, 3]
    assert table.status == Table.Status.STARTING and table.options["mode"] == "esli"


def test_eager_celery_does_not_chain_bot_turns(users, celery_eager, commit_per_request, client):
    """Eagerly, timed tasks are not sent at all (no recursion of bot turns into bot turns); the
    deadline waits in the database for the sweep."""
    client.force_login(users[0])
    data = {"mode": "duz", "seats": "4", "turn_seconds": "30", "start_count": "20"}
    client.post(reverse("games:table_new"), {**data, "hand_limit": "1", "bots": "1"})
    table = Table.objects.get()
    assert table.status == Table.Status.STARTING and not Hand.objects.exists()
    assert deadline_of(table) == table.start_at
    assert run_due(table)[-1] == "end"


def test_the_deadline_of_a_bots_turn_is_hidden_from_the_clock(client, users, fixed_seed):
    table = bot_table_create(manager=users[0], options={})
    run_due_once = table_due(table_id=table.pk, now=later())
    assert run_due_once == "start"
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "turn-clock" not in html
    assert deadline_of(table) - current_hand(table).turn_started < timedelta(seconds=3)


def test_bots_play_at_the_tables_strength(users, fixed_seed, monkeypatch):
    seen = []
    real = engine.bot_moves
    monkeypatch.setattr(
        engine, "bot_moves", lambda s, seat, strength: seen.append(strength) or real(s, seat)
    )
    table = bot_table_create(manager=users[0], options={"bot_strength": "easy"})
    table_due(table_id=table.pk, now=later())
    table_due(table_id=table.pk, now=later())
    assert seen == ["easy"]


def test_the_manager_picks_the_strength_of_each_bot_seated(client, users, monkeypatch):
    seen = []
    real = engine.bot_moves
    monkeypatch.setattr(
        engine,
        "bot_moves",
        lambda s, seat, strength: seen.append((seat, strength)) or real(s, seat, strength),
    )
    table = table_create(manager=users[0], options={"seats": 3}, sit=False)
    seat_take(table_id=table.pk, user=users[0], index=2)
    client.force_login(users[0])
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'name="strength"' in page and 'value="hard"' in page
    url = reverse("games:bot", args=[table.pk])
    assert client.post(url, {"seat": "0", "action": "add", "strength": "hard"}).status_code == 302
    assert client.post(url, {"seat": "1", "action": "add"}).status_code == 302  # the table's
    assert [s.bot_strength for s in Seat.objects.filter(table=table)] == ["hard", "", ""]
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-strength="hard"' in page and 'data-strength="normal"' in page
    start_now(table)
    while len({seat for seat, _ in seen}) < 2:
        state = hand_state(table)
        if state.turn == 2:
            move_submit(
                table_id=table.pk,
                user=users[0],
                move=engine.move_to_dict(engine.auto_moves(state, 2)[-1])
                if state.phase == "discard"
                else {"kind": "draw"},
                expected_version=version_of(table),
            )
        else:
            assert turn_due_play(table_id=table.pk, now=later())
    assert set(seen) == {(0, "hard"), (1, "normal")}


def test_a_bot_of_an_unknown_strength_is_refused_and_nothing_changes(users):
    table = table_create(manager=users[0], options={})
    with pytest.raises(ServiceError) as e:
        bot_add(table_id=table.pk, user=users[0], index=1, strength="grandmaster")
    assert e.value.code == "bad_strength" and bots_of(table) == [] and version_of(table) == 1
