"""The first hand: a real practice table with the fixed, friendly deal, and a coach that reads
the player's real rack. Played here through the table's own move path, the bots' turns as their
tasks play them."""

import pytest
from django.urls import reverse

from games import engine
from games.learn.coach import distance, turn_moves
from games.learn.coaching import coach_view
from games.learn.lesson import lesson_start
from games.models import Move, Table
from games.table.moves import move_submit
from games.table.seeds import FIRST_HAND_SEED
from games.timers.timeouts import turn_due_play
from tests.games.helpers import current_hand, hand_state, version_of
from tests.games.timing import later

pytestmark = pytest.mark.django_db
OPTIONS = engine.RuleOptions(mode="duz", hand_limit=1, turn_seconds=120)


def test_the_friendly_deal_lets_a_newcomer_who_follows_the_coach_finish_on_the_third_turn():
    state = engine.deal(FIRST_HAND_SEED, OPTIONS, 0)
    assert engine.format_tile(state.indicator) == "Y4" and engine.format_tile(state.okey) == "Y5"
    assert state.racks[0].count(state.okey) == 1 and distance(state.racks[0], state.okey) == 2
    turns = 0
    while state.phase != "over":
        if state.turn == 0:
            turns += 1
            moves = turn_moves(state, 0)
        else:
            moves = engine.bot_moves(state, state.turn, "easy")
        for m in moves:
            state = engine.hand_apply(state, m)
    assert state.result.finisher == 0 and turns == 3


def bots_play(table):
    """The bots' turns, as their tasks would play them, until it is the newcomer's turn."""
    while hand_state(table).turn != 0 and not current_hand(table).over:
        assert turn_due_play(table_id=table.pk, now=later())


def play(table, user, move):
    return move_submit(table_id=table.pk, user=user, move=move, expected_version=version_of(table))


def test_the_coach_follows_the_players_real_rack_to_the_finish(django_user_model, client):
    user = django_user_model.objects.create_user("yeni", "yeni@example.com", "pw-okey-1234")
    table = lesson_start(user)
    assert lesson_start(user) == table  # the unfinished one, not a second
    table.refresh_from_db()
    hand = current_hand(table)
    assert table.status == Table.Status.PLAYING and table.policy.practice and table.policy.private
    assert bytes(hand.seed) == FIRST_HAND_SEED and hand.first_seat == 0
    assert [s.is_bot for s in table.seats.order_by("index")] == [False, True, True, True]

    # turn 1: the indicator and the okey pointed out, an arrangement, the throw
    c = coach_view(table.pk, user)
    assert (c.step, c.indicator, c.okey, c.okeys_held, c.throw) == ("first", "Y4", "Y5", 1, "B2")
    assert ("R8", "R9", "R10") in c.arranged.groups and "B2" in c.arranged.loose
    page = client.get(reverse("learn:coach", args=[table.pk]))
    assert page.status_code == 404  # only for the player who sits there
    client.force_login(user)
    page = client.get(reverse("learn:coach", args=[table.pk]))
    html = page.content.decode()
    assert 'data-point="indicator okey"' in html and 'data-pick="B2"' in html
    assert client.get(reverse("learn:coach", args=[table.pk]), {"key": c.key}).status_code == 204
    table_page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'id="coach"' in table_page

    # a bad throw first (the okey's neighbour K5 from the run K4 K5 (Y5) K7): the coach says so
    play(table, user, {"kind": "discard", "tile": "K5"})
    c = coach_view(table.pk, user)
    assert c.step == "others" and not c.verdict.good and c.verdict.tile == "K5"
    assert c.verdict.best == "B2" and c.verdict.best_after < c.verdict.after


def test_following_the_coach_at_the_table_ends_with_a_finish(django_user_model, client):
    user = django_user_model.objects.create_user("yeni", "yeni@example.com", "pw-okey-1234")
    table = lesson_start(user)
    steps = []
    for _ in range(6):
        c = coach_view(table.pk, user)
        steps.append(c.step)
        if c.step in ("won", "lost"):
            break
        if c.step in ("first", "throw"):
            play(table, user, {"kind": "discard", "tile": c.throw})
            v = coach_view(table.pk, user).verdict
            assert v.good and v.tile == c.throw
            bots_play(table)
        elif c.step == "draw":
            play(table, user, {"kind": "take" if c.take else "draw"})
            c = coach_view(table.pk, user)
            steps.append(c.step)
            if c.step == "finish":
                play(table, user, {"kind": "finish", "tile": c.finish})
            else:
                play(table, user, {"kind": "discard", "tile": c.throw})
                bots_play(table)
    assert steps == ["first", "draw", "throw", "draw", "finish", "won"]
    hand = current_hand(table)
    assert hand.over and hand.result["finisher"] == 0
    assert [m.kind for m in Move.objects.filter(hand=hand, seat=0).order_by("seq")] == [
        "discard",
        "take",
        "discard",
        "draw",
        "finish",
    ]
    client.force_login(user)
    url = reverse("learn:coach", args=[table.pk])
    html = client.get(url).content.decode()
    assert "data-next-practice" not in html  # a player (not a guest) is sent to the lobby
    assert 'href="/"' in html
    # the end shown, the page is told to stop asking, and keeps what it shows
    again = client.get(url, {"key": c.key})
    assert again.status_code == 286 and 'data-step="won"' in again.content.decode()
