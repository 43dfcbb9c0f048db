"""The staff admin: every action through the admin client (a staff member's POST, as the admin's
action form sends it), leaving the game consistent and recorded; the pages staff read."""

import re
from datetime import date, timedelta

import pytest
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.contrib.auth.models import Permission
from django.core import mail
from django.test import Client, TestCase
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import Profile
from games import engine
from games.errors import ServiceError
from games.invites.services import invite_create
from games.models import Game, Hand, Invite, Move, Seat, StaffAction, Table
from games.staff.services import hand_void_redeal, table_close
from games.table.create import table_create
from games.table.lifecycle import hand_next, table_start
from games.table.moves import move_submit
from games.timers.sweep import table_due
from tests.games.conftest import game_started, table_full
from tests.games.helpers import current_hand, hand_state, play_moves, version_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _eager(celery_eager):
    """Tasks sent after commit stay in the test (timed table tasks are not sent in this mode)."""


@pytest.fixture
def staff(django_user_model):
    """A staff member (not a superuser) with the rights the actions need."""
    user = django_user_model.objects.create_user(
        "moderator", "mod@example.com", "pw-staff-1234", is_staff=True
    )
    codenames = ["change_table", "view_table", "change_seat", "view_seat", "view_hand"]
    codenames += ["view_game", "view_move", "view_invite", "view_staffaction"]
    user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    # the admin opens only to staff with a second factor enrolled (accounts.staff_mfa)
    TOTP.activate(user, generate_totp_secret())
    return user


@pytest.fixture
def staff_client(staff):
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def mid_hand(users, fixed_seed, in_memory_layer):
    """A Düz table five moves into its first hand."""
    table = game_started(table_full(users))
    play_moves(table, 5)
    return table


def act(client, model, action, ids, reason="checked by staff"):
    """Run an admin action as the admin's pages do: the action form, the confirmation, done."""
    url = reverse(f"admin:games_{model}_changelist")
    data = {"action": action, "_selected_action": [str(i) for i in ids]}
    ask = client.post(url, data)
    assert ask.status_code == 200 and 'name="confirm"' in ask.content.decode()
    with TestCase.captureOnCommitCallbacks(execute=True) as callbacks:
        done = client.post(url, {**data, "confirm": "yes", "reason": reason})
    assert done.status_code == 302, done.content.decode()[:2000]
    return callbacks


def soon():
    """A few seconds ahead: after a bot's pause or an away seat's beat, not a person's turn."""
    return timezone.now() + timedelta(seconds=5)


def assert_consistent(table):
    """Every hand replays from its seed and move log to its stored state; the game's counts are
    the sum of its hands' results; versions only go up."""
    table.refresh_from_db()
    game = Game.objects.get(table=table)
    options = table.rules
    hands = list(game.hands.order_by("number"))
    versions = []
    for hand in hands:
        moves = list(hand.moves.order_by("seq"))
        assert [m.seq for m in moves] == list(range(1, len(moves) + 1)) and hand.version == len(
            moves
        )
        replayed = engine.hand_replay(
            bytes(hand.seed), options, hand.first_seat, [m.as_engine_dict() for m in moves]
        )
        assert replayed == engine.hand_from_dict(hand.state)
        assert engine.commitment(bytes(hand.seed)) == hand.commitment
        versions += [m.version for m in moves]
    assert versions == sorted(set(versions)) and all(v <= game.version for v in versions)
    assert all(h.over for h in hands[:-1])
    if game.state:
        gstate = engine.game_from_dict(game.state)
        over = [h for h in hands if h.over]
        assert [r.void for r in gstate.history] == [h.result["void"] for h in over]
        counts = [options.start_count] * options.seats
        for h in over:
            counts = [c + d for c, d in zip(counts, h.result["deltas"], strict=True)]
        assert list(gstate.counts) == counts
        assert gstate.hands_played == sum(not h.result["void"] for h in over)
    actions = list(StaffAction.objects.filter(table=table).order_by("id"))
    for a in actions:
        assert a.version_after == a.version_before + 1
    assert [a.version_after for a in actions] == sorted({a.version_after for a in actions})
    return game


def recorded(table, staff, kind) -> StaffAction:
    action = StaffAction.objects.filter(table=table).latest("id")
    assert (action.staff, action.kind, action.reason) == (staff, kind, "checked by staff")
    assert action.details["table"] == table.pk
    return action


# --- close ----------------------------------------------------------------------------------------


def test_close_a_table_mid_hand(staff_client, staff, mid_hand, users):
    v = version_of(mid_hand)
    callbacks = act(staff_client, "table", "close_tables", [mid_hand.pk])
    assert len(callbacks) == 1  # the table's broadcast, the lobby's with it, after commit
    assert callbacks[0].keywords == {"lobby": True}
    game = assert_consistent(mid_hand)
    assert mid_hand.status == Table.Status.CLOSED and game.status == Game.Status.OVER
    assert game.results is None  # not rated
    hand = current_hand(mid_hand)
    assert hand.over and hand.result["void"] and hand.result["staff"]
    assert game.version == v + 1
    action = recorded(mid_hand, staff, "table_close")
    assert action.details["hand_voided"] == 1 and action.version_before == v
    with pytest.raises(ServiceError) as e:
        move_submit(
            table_id=mid_hand.pk,
            user=users[hand_state(mid_hand).turn],
            move={"kind": "draw"},
            expected_version=None,
        )
    assert e.value.code == "no_hand"
    assert all(p.games_played == 0 for p in Profile.objects.all())


def test_close_an_open_table_cancels_its_invites(staff_client, staff, users, in_memory_layer):
    table = table_create(manager=users[0], options={"mode": "esli"})
    with TestCase.captureOnCommitCallbacks(execute=True):
        invite_create(table_id=table.pk, inviter=users[0], email="x@example.com", seat_index=2)
    act(staff_client, "table", "close_tables", [table.pk])
    assert_consistent(table)
    assert table.status == Table.Status.CLOSED and Invite.objects.get().status == "cancelled"
    assert recorded(table, staff, "table_close").details["invites_cancelled"] == 1
    # the closed table is gone from the lobby
    lobby = Client().get(reverse("games:lobby")).content.decode()
    assert reverse("games:table", args=[table.pk]) not in lobby


def test_closing_twice_is_refused_and_not_recorded(staff_client, staff, mid_hand):
    act(staff_client, "table", "close_tables", [mid_hand.pk])
    act(staff_client, "table", "close_tables", [mid_hand.pk])
    assert StaffAction.objects.count() == 1


# --- remove a player ------------------------------------------------------------------------------


def test_remove_a_player_mid_game_a_bot_takes_over(staff_client, staff, mid_hand, users):
    seat = Seat.objects.get(table=mid_hand, index=2)
    act(staff_client, "seat", "remove_players", [seat.pk])
    assert_consistent(mid_hand)
    seat.refresh_from_db()
    assert seat.user is None and seat.is_bot
    action = recorded(mid_hand, staff, "seat_remove")
    assert action.details | {} == {
        "table": mid_hand.pk,
        "seat": 2,
        "user": users[2].pk,
        "name": users[2].profile.display_name,
        "taken_over_by": "bot",
    }
    # the removed player can no longer move
    with pytest.raises(ServiceError) as e:
        move_submit(
            table_id=mid_hand.pk, user=users[2], move={"kind": "draw"}, expected_version=None
        )
    assert e.value.code == "not_seated"
    # the bot plays the seat's turns: the deadline's task (here the sweep, a bot's pause later)
    while hand_state(mid_hand).turn != 2:
        play_moves(mid_hand, 1)
    before = Move.objects.count()
    assert table_due(table_id=mid_hand.pk, now=soon()) == "turn"
    played = list(Move.objects.order_by("id")[before:])
    assert played and all(m.seat == 2 and m.auto and m.user is None for m in played)
    assert hand_state(mid_hand).turn != 2 or hand_state(mid_hand).phase == "over"
    assert_consistent(mid_hand)


def test_remove_a_player_at_a_table_without_bots_the_timeouts_take_over(
    staff_client, staff, users, fixed_seed, in_memory_layer
):
    table = game_started(table_full(users, bots_fill=False))
    seat = Seat.objects.get(table=table, index=1)
    act(staff_client, "seat", "remove_players", [seat.pk])
    seat.refresh_from_db()
    assert seat.user is None and not seat.is_bot and seat.away
    assert recorded(table, staff, "seat_remove").details["taken_over_by"] == "timeouts"
    # the away seat is played for at once when its turn comes (docs/rules.md, Timeouts)
    play_moves(table, 1)  # seat 1 (the first player) discards: seat 2's turn
    assert hand_state(table).turn == 1
    assert table_due(table_id=table.pk, now=soon()) == "turn"
    assert hand_state(table).turn == 2
    assert [(m.seat, m.auto) for m in Move.objects.order_by("-id")[:2]] == [(1, True), (1, True)]
    assert_consistent(table)


def test_remove_a_player_before_the_start_frees_the_seat_and_stops_the_countdown(
    staff_client, staff, users, in_memory_layer
):
    table = table_full(users)
    table_start(table_id=table.pk, user=users[0])
    seat = Seat.objects.get(table=table, index=3)
    act(staff_client, "seat", "remove_players", [seat.pk])
    seat.refresh_from_db()
    table.refresh_from_db()
    assert seat.user is None and not seat.is_bot and table.status == Table.Status.OPEN
    assert recorded(table, staff, "seat_remove").details["countdown_stopped"]
    assert_consistent(table)


def test_removing_from_an_empty_seat_is_refused(staff_client, users, in_memory_layer):
    table = table_create(manager=users[0], options={})
    act(staff_client, "seat", "remove_players", [Seat.objects.get(table=table, index=1).pk])
    assert not StaffAction.objects.exists()


# --- void and deal again --------------------------------------------------------------------------


def test_void_the_hand_and_deal_again(staff_client, staff, mid_hand, users):
    old = current_hand(mid_hand)
    counts = engine.game_from_dict(Game.objects.get(table=mid_hand).state).counts
    v = version_of(mid_hand)
    act(staff_client, "table", "void_hands", [mid_hand.pk])
    game = assert_consistent(mid_hand)
    old.refresh_from_db()
    new = current_hand(mid_hand)
    assert old.over and old.result["void"] and old.result["staff"] and old.version == 5
    assert new.number == old.number + 1 and new.first_seat == old.first_seat and not new.over
    assert new.seed != old.seed and new.version == 0
    gstate = engine.game_from_dict(game.state)
    assert gstate.counts == counts and gstate.hands_played == 0
    assert game.version == v + 1
    action = recorded(mid_hand, staff, "hand_void")
    assert action.details == {
        "table": mid_hand.pk,
        "hand_voided": 1,
        "moves_voided": 5,
        "hand_dealt": 2,
        "first_seat": old.first_seat,
    }
    # play goes on in the new hand
    play_moves(mid_hand, 6)
    assert current_hand(mid_hand).version == 6
    assert_consistent(mid_hand)


def test_void_between_hands_is_refused(staff_client, users, fixed_seed, in_memory_layer):
    table = game_started(table_full(users))
    Hand.objects.update(over=True)
    act(staff_client, "table", "void_hands", [table.pk])
    assert not StaffAction.objects.exists()


# --- end the game --------------------------------------------------------------------------------


def test_end_the_game_rates_the_hands_played(
    staff_client, staff, users, fixed_seed, in_memory_layer
):
    table = game_started(table_full(users, mode="esli"))
    seat_user = {s.index: s.user for s in table.seats.all()}
    # play whole hands until one has counted, then a few moves into the next
    while engine.game_from_dict(Game.objects.get(table=table).state).hands_played == 0:
        while hand_state(table).phase != "over":
            play_moves(table, 1)
        hand_next(table_id=table.pk, expected_version=version_of(table))
    play_moves(table, 3)
    act(staff_client, "table", "end_games", [table.pk])
    game = assert_consistent(table)
    assert game.status == Game.Status.OVER and table.status == Table.Status.FINISHED
    gstate = engine.game_from_dict(game.state)
    assert gstate.over and game.results["hands"] == gstate.hands_played == 1
    a, b = engine.team_totals(gstate)
    assert game.results["teams"] == [a, b]
    if a != b:
        win = 0 if a < b else 1
        assert game.results["points"] == [1 if s % 2 == win else -1 for s in range(4)]
    for user in seat_user.values():
        assert Profile.objects.get(user=user).games_played == 1
    action = recorded(table, staff, "game_end")
    assert action.details["hand_voided"] == current_hand(table).number
    assert action.details["results"] == game.results


def test_end_a_game_before_any_hand_counted_rates_nobody(staff_client, staff, mid_hand):
    act(staff_client, "table", "end_games", [mid_hand.pk])
    game = assert_consistent(mid_hand)
    assert game.status == Game.Status.OVER and game.results["hands"] == 0
    assert all(p.games_played == 0 for p in Profile.objects.all())


def test_end_a_game_that_has_not_started_is_refused(staff_client, users, in_memory_layer):
    table = table_create(manager=users[0], options={})
    act(staff_client, "table", "end_games", [table.pk])
    assert not StaffAction.objects.exists()
    assert Table.objects.get().status == Table.Status.OPEN


# --- who may ------------------------------------------------------------------------------------


def test_players_cannot_reach_the_admin_or_its_actions(client, users, mid_hand):
    client.force_login(users[0])
    url = reverse("admin:games_table_changelist")
    response = client.post(url, {"action": "close_tables", "_selected_action": [mid_hand.pk]})
    assert response.status_code == 302 and "/admin/login/" in response.url
    assert Table.objects.get().status == Table.Status.PLAYING
    with pytest.raises(ServiceError) as e:
        table_close(table_id=mid_hand.pk, staff=users[0])
    assert e.value.code == "not_staff"


def test_staff_without_the_change_right_have_no_actions(staff, mid_hand):
    staff.user_permissions.remove(Permission.objects.get(codename="change_table"))
    client = Client()
    client.force_login(staff)
    url = reverse("admin:games_table_changelist")
    client.post(
        url, {"action": "close_tables", "_selected_action": [mid_hand.pk], "confirm": "yes"}
    )
    assert Table.objects.get().status == Table.Status.PLAYING
    assert not StaffAction.objects.exists()


# --- what staff read ------------------------------------------------------------------------------


def test_tables_filter_by_status_mode_and_date(staff_client, users, mid_hand):
    esli = table_create(manager=users[0], options={"mode": "esli"})
    url = reverse("admin:games_table_changelist")

    def listed(query):
        html = staff_client.get(url + query).content.decode()
        return {t.pk for t in Table.objects.all() if f"/admin/games/table/{t.pk}/change/" in html}

    assert listed("") == {mid_hand.pk, esli.pk}
    assert listed("?status__exact=playing") == {mid_hand.pk}
    assert listed("?mode=esli") == {esli.pk}
    assert listed("?mode=duz") == {mid_hand.pk}
    assert listed(f"?created__year={date.today().year}") == {mid_hand.pk, esli.pk}
    assert listed("?created__year=2001") == set()


def test_a_table_page_shows_seats_invites_hands_and_the_actions(staff_client, users, mid_hand):
    other = table_create(manager=users[0], options={"mode": "esli"})
    with TestCase.captureOnCommitCallbacks(execute=True):
        invite_create(table_id=other.pk, inviter=users[0], email="inv@example.com", seat_index=2)
    html = staff_client.get(reverse("admin:games_table_change", args=[other.pk])).content.decode()
    assert "inv@example.com" in html and "staff-actions" in html
    html = staff_client.get(
        reverse("admin:games_table_change", args=[mid_hand.pk])
    ).content.decode()
    assert users[1].username in html or users[1].profile.display_name in html
    assert reverse("admin:games_hand_change", args=[current_hand(mid_hand).pk]) in html
    assert 'value="remove_players"' in html


def test_a_hand_shows_its_log_and_hides_its_seed_until_it_is_over(staff_client, mid_hand):
    hand = current_hand(mid_hand)
    url = reverse("admin:games_hand_change", args=[hand.pk])
    html = staff_client.get(url).content.decode()
    seed = bytes(hand.seed).hex()
    assert hand.commitment in html and seed not in html
    assert "racks" not in html  # nor the state, which holds the racks and the stock
    # the move log, in order
    moves = list(Move.objects.filter(hand=hand).order_by("seq"))
    shown = re.findall(r'field-seq">\s*<p>(\d+)</p>.*?field-kind">\s*<p>(\w+)</p>', html, re.S)
    assert shown == [(str(m.seq), m.kind) for m in moves] and len(moves) == 5
    replay = staff_client.get(reverse("admin:games_hand_replay", args=[hand.pk]))
    assert replay.status_code == 302  # not before the hand is over
    hand_void_redeal(table_id=mid_hand.pk, staff=_staff_of(staff_client))
    html = staff_client.get(url).content.decode()
    assert seed in html


def _staff_of(client):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def test_the_replay_steps_through_the_hand(staff_client, staff, mid_hand):
    hand = current_hand(mid_hand)
    hand_void_redeal(table_id=mid_hand.pk, staff=staff)
    url = reverse("admin:games_hand_replay", args=[hand.pk])
    options = mid_hand.rules
    moves = [m.as_engine_dict() for m in hand.moves.order_by("seq")]
    for step in range(len(moves) + 1):
        html = staff_client.get(url, {"step": step}).content.decode()
        state = engine.hand_replay(bytes(hand.seed), options, hand.first_seat, moves[:step])
        assert f'data-step="{step}"' in html and "data-log-matches" in html
        for rack in state.racks:
            assert f'data-rack="{engine.format_tiles(rack)}"' in html
    assert 'data-step="0"' in staff_client.get(url, {"step": -4}).content.decode()
    # staff only
    player = Client()
    player.force_login(mid_hand.manager)
    assert player.get(url).status_code == 302


def test_staff_actions_are_listed_read_only(staff_client, staff, mid_hand):
    hand_void_redeal(table_id=mid_hand.pk, staff=staff, reason="a bad deal")
    html = staff_client.get(reverse("admin:games_staffaction_changelist")).content.decode()
    assert "a bad deal" in html
    action = StaffAction.objects.get()
    assert staff_client.get(reverse("admin:games_staffaction_add")).status_code == 403
    detail = staff_client.get(reverse("admin:games_staffaction_change", args=[action.pk]))
    assert detail.status_code == 200 and 'name="_save"' not in detail.content.decode()
    assert mail.outbox == []


def test_a_tables_options_read_as_the_table_form_named_them_in_one_language(
    staff_client, users, in_memory_layer
):
    table = table_create(manager=users[0], options={"mode": "esli", "turn_seconds": 45})
    with translation.override("en"):
        url = reverse("admin:games_table_change", args=[table.pk])
    html = staff_client.get(url).content.decode()
    assert "Seconds per turn: 45" in html and "Eşli Okey (partners)" in html
    assert "Bots may fill empty seats: yes" in html and "Bot strength: normal" in html
    assert '"turn_seconds"' not in html and "team a name" not in html.lower()
    with translation.override("tr"):
        url = reverse("admin:games_table_change", args=[table.pk])
    html = staff_client.get(url).content.decode()
    assert "Hamle süresi (saniye): 45" in html and "Botların gücü: normal" in html
    assert "Seconds per turn" not in html and "Bots may fill" not in html
