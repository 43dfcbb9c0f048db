"""The arena's services end to end on the database: scheduling, joining and pausing, the
pairing tick seating real tables, games counted into the standings (places, Eşli pairs,
streaks, leavers), the end of the time and the podium."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from games.arena.entrants import CHANGES_PER_WINDOW, entrant_join, entrant_pause
from games.arena.results import tournament_game_count
from games.arena.rounds import tournament_pair, tournaments_tick
from games.errors import ServiceError
from games.models import Entrant, PlayerResult, Sanction, Table
from games.social.blocks import block_add
from games.table.lifecycle import game_start
from games.table.moves import move_submit
from games.table.seats import seat_leave
from games.timers.sweep import table_due
from tests.games.arena.conftest import arena
from tests.games.helpers import current_hand, hand_state, version_of
from tests.games.plans import plan_move
from tests.games.timing import later

# a deal whose hand a fair player finishes in nine moves (tests.games.plans.seed_search)
QUICK_SEED = "0eb482f3eb9c8a7af81bd104adeb5a4108054ec826dbb6574f297562421be816"


@pytest.fixture(autouse=True)
def _quick_deals(settings):
    settings.OKEY_TEST_SEED_HEX = QUICK_SEED


def run_due(table, steps: int = 2000) -> None:
    """Play the table's game to its results: each person moves as a fair player would
    (tests.games.plans), bots and seats nobody plays go by their deadlines."""
    for _ in range(steps):
        table.refresh_from_db()
        table.game.refresh_from_db()
        if table.game.results is not None or table.status == Table.Status.CLOSED:
            return
        hand = current_hand(table)
        state = hand_state(table) if hand is not None and not hand.over else None
        seat = table.seats.get(index=state.turn) if state is not None else None
        if seat is not None and seat.user_id is not None and not seat.away:
            move_submit(
                table_id=table.pk,
                user=seat.user,
                move=plan_move(state),
                expected_version=version_of(table),
            )
        else:
            table_due(table_id=table.pk, now=later())
    raise AssertionError("the game did not end")


pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_rate_limits_left_over():
    cache.clear()


def joined(t, users):
    for u in users:
        entrant_join(tournament_id=t.pk, user=u)
    return t


def entrant(t, user) -> Entrant:
    return Entrant.objects.get(tournament=t, user=user)


def tables_of(t):
    return list(Table.objects.filter(tournament=t).order_by("pk"))


def play_out(t):
    for table in tables_of(t):
        run_due(table)


# --- scheduling -----------------------------------------------------------------------------


def test_a_tournament_keeps_the_tables_options_with_its_own_policy(players):
    t = arena(rated=False, bots=True, options={"mode": "esli", "turn_seconds": 20})
    assert t.options["mode"] == "esli" and t.options["turn_seconds"] == 20
    assert t.options["practice"] is True and t.options["bots_fill"] is True
    assert t.options["private"] is True and t.options["seats"] == 4


@pytest.mark.parametrize(
    "kw, code",
    [
        ({"name": " "}, "bad_name"),
        ({"minutes": 2}, "bad_length"),
        ({"minutes": True}, "bad_length"),
        ({"options": {"mode": "duz", "seats": 3}}, "bad_seats"),
        ({"options": {"mode": "chess"}}, "bad_options"),
        ({"options": {"turn_seconds": 5}}, "bad_options"),
    ],
)
def test_a_tournament_that_could_not_be_played_is_refused(players, kw, code):
    with pytest.raises(ServiceError) as e:
        arena(**kw)
    assert e.value.code == code


# --- joining --------------------------------------------------------------------------------


def test_players_join_before_the_start_and_nobody_is_paired_before_it(players):
    t = arena(starts=timezone.now() + timedelta(minutes=5))
    joined(t, players)
    assert tournament_pair(tournament_id=t.pk) == 0
    assert tables_of(t) == []
    assert tournament_pair(tournament_id=t.pk, now=t.starts + timedelta(seconds=1)) == 2


def test_pause_and_come_back(players):
    t = joined(arena(), players[:5])
    entrant_pause(tournament_id=t.pk, user=players[4])
    assert tournament_pair(tournament_id=t.pk) == 1
    assert entrant(t, players[4]).table is None
    entrant_join(tournament_id=t.pk, user=players[4])
    e = entrant(t, players[4])
    assert e.active and e.waiting_since is not None


def test_joins_and_pauses_are_rate_limited(players):
    t = arena()
    for i in range(CHANGES_PER_WINDOW):
        (entrant_join if i % 2 == 0 else entrant_pause)(tournament_id=t.pk, user=players[0])
    with pytest.raises(ServiceError) as e:
        entrant_join(tournament_id=t.pk, user=players[0])
    assert e.value.code == "too_fast"
    assert not entrant(t, players[0]).active  # the refused join changed nothing


def test_an_inactive_account_and_a_visitor_cannot_join(players):
    t = arena()
    players[0].is_active = False
    players[0].save()
    with pytest.raises(ServiceError) as e:
        entrant_join(tournament_id=t.pk, user=players[0])
    assert e.value.code == "suspended"
    with pytest.raises(ServiceError):
        entrant_join(tournament_id=t.pk, user=None)
    assert not Entrant.objects.exists()


def test_nobody_joins_a_tournament_that_is_over(players):
    t = arena(starts=timezone.now() - timedelta(minutes=61))
    with pytest.raises(ServiceError) as e:
        entrant_join(tournament_id=t.pk, user=players[0])
    assert e.value.code == "over"


# --- the pairing tick -----------------------------------------------------------------------


def test_the_tick_seats_the_pool_at_started_tables_of_four_never_twice(players):
    t = joined(arena(), players)
    assert tournaments_tick() == 2
    tables = tables_of(t)
    assert [tb.status for tb in tables] == [Table.Status.STARTING] * 2
    seated = [s.user_id for tb in tables for s in tb.seats.all()]
    assert sorted(seated) == sorted(u.pk for u in players)
    assert all(entrant(t, u).table_id is not None for u in players)
    assert tournaments_tick() == 0  # nobody waits any more


def test_a_player_at_another_table_under_way_waits_until_it_is_over(players):
    from tests.games.conftest import game_started, table_full

    t = joined(arena(), players[:5])  # players[0] has waited longest: seated first otherwise
    elsewhere = game_started(table_full([players[0], *players[5:8]]))
    assert tournament_pair(tournament_id=t.pk) == 1
    assert entrant(t, players[0]).table_id is None  # still at their own game
    seated = {s.user_id for s in tables_of(t)[0].seats.all()}
    assert seated == {u.pk for u in players[1:5]}
    assert elsewhere.seats.filter(user=players[0]).exists()


def test_bots_take_the_seats_only_when_the_tournament_allows_them(players):
    t = joined(arena(), players[:2])
    assert tournament_pair(tournament_id=t.pk, now=timezone.now() + timedelta(seconds=30)) == 0
    t2 = joined(arena(bots=True), players[2:4])
    assert tournament_pair(tournament_id=t2.pk, now=timezone.now() + timedelta(seconds=5)) == 0
    assert tournament_pair(tournament_id=t2.pk, now=timezone.now() + timedelta(seconds=30)) == 1
    (table,) = tables_of(t2)
    assert sum(s.is_bot for s in table.seats.all()) == 2


def test_a_blocked_player_is_never_seated_with_their_blocker(players):
    # everyone at 0 points and joined in order: without the block, the first four would share
    # a table
    block_add(user=players[0], other_id=players[1].pk)
    t = joined(arena(), players)
    assert tournaments_tick() == 2
    for table in tables_of(t):
        seated = {s.user_id for s in table.seats.all()}
        assert not {players[0].pk, players[1].pk} <= seated


def test_a_suspended_player_cannot_join_and_is_not_seated_from_the_pool(players):
    t = joined(arena(), players[:5])
    Sanction.objects.create(
        user=players[0],
        kind=Sanction.Kind.SUSPEND,
        reason="insults",
        until=timezone.now() + timedelta(days=1),
    )
    assert tournament_pair(tournament_id=t.pk) == 1
    seated = {s.user_id for s in tables_of(t)[0].seats.all()}
    assert seated == {u.pk for u in players[1:5]}
    Sanction.objects.create(
        user=players[5],
        kind=Sanction.Kind.SUSPEND,
        reason="cheating",
        until=timezone.now() + timedelta(days=1),
    )
    with pytest.raises(ServiceError) as e:
        entrant_join(tournament_id=t.pk, user=players[5])
    assert e.value.code == "suspended" and "cheating" in str(e.value.message)
    assert not Entrant.objects.filter(user=players[5]).exists()


# --- counting games -------------------------------------------------------------------------


def test_a_game_played_out_counts_by_place_and_its_players_wait_again(players):
    t = joined(arena(), players[:4])
    tournament_pair(tournament_id=t.pk)
    (table,) = tables_of(t)
    run_due(table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    results = table.game.results
    got = {e.user_id: e for e in Entrant.objects.filter(tournament=t)}
    for i, user_id in enumerate(p["user"] for p in results["players"]):
        e = got[user_id]
        assert e.games == 1 and e.table_id is None and e.waiting_since is not None
        assert e.points == {1: 4, 2: 2, 3: 1, 4: 0}[results["places"][i]] or (
            all(p == 1 for p in results["places"]) and e.points == 2
        )
        assert e.results[0]["table"] == table.pk
        assert sorted(e.mates) == sorted(set(got) - {user_id})
    # rated: the game moved ratings as any game does
    assert PlayerResult.objects.filter(game=table.game).count() == 4


def test_an_unrated_tournament_moves_no_rating(players):
    t = joined(arena(rated=False), players[:4])
    tournament_pair(tournament_id=t.pk)
    (table,) = tables_of(t)
    run_due(table)
    assert not PlayerResult.objects.exists()
    assert Entrant.objects.filter(tournament=t, games=1).count() == 4


def test_a_player_who_leaves_the_game_scores_nothing_and_is_paused(players):
    t = joined(arena(), players[:4])
    tournament_pair(tournament_id=t.pk)
    (table,) = tables_of(t)
    game_start(table_id=table.pk, expected_version=table.game.version)
    seat_leave(table_id=table.pk, user=players[0])
    run_due(table)
    e = entrant(t, players[0])
    assert e.points == 0 and e.results[0]["left"] is True and not e.active
    assert e.waiting_since is None
    assert tournament_pair(tournament_id=t.pk, now=later(60)) == 0  # three wait, one paused


def game_results(places, users, *, teams=None, left=()):
    r = {"places": places, "players": [{"user": u.pk, "bot": False} for u in users]}
    if teams:
        r["teams"] = teams
    if left:
        r["left"] = list(left)
    return r


def seat_at(t, users):
    """The four at a table of the tournament, as the pairing would have seated them."""
    tournament_pair(tournament_id=t.pk)
    return Entrant.objects.filter(tournament=t, user__in=users).first().table_id


def test_the_winners_pair_in_esli_both_score_and_streaks_double_from_the_third_win(players):
    four = players[:4]
    t = joined(arena(options={"mode": "esli", "hand_limit": 1}), four)
    totals = []
    for _ in range(4):
        table_id = seat_at(t, four)
        Entrant.objects.filter(tournament=t).update(mates=[])  # let the same four play on
        tournament_game_count(t.pk, table_id, game_results([1, 2, 1, 2], four, teams=[10, 90]))
        Entrant.objects.filter(tournament=t).update(
            waiting_since=timezone.now() - timedelta(minutes=1)
        )
        totals.append([entrant(t, u).points for u in four])
    assert totals == [[4, 0, 4, 0], [8, 0, 8, 0], [16, 0, 16, 0], [24, 0, 24, 0]]
    e = entrant(t, four[0])
    assert e.on_fire and [g["fire"] for g in e.results] == [False, False, True, True]


def test_when_the_time_is_up_games_finish_none_starts_and_the_podium_stays(players):
    t = joined(arena(starts=timezone.now() - timedelta(minutes=59, seconds=50)), players)
    assert tournament_pair(tournament_id=t.pk) == 2
    after = t.ends + timedelta(seconds=1)
    for u in players[:2]:  # two more would have been paired, but the time is up
        Entrant.objects.filter(tournament=t, user=u).update(table=None)
    assert tournament_pair(tournament_id=t.pk, now=after) == 0
    play_out(t)
    t.refresh_from_db()
    assert t.finished is None or t.finished >= t.ends
    tournament_pair(tournament_id=t.pk, now=later())
    t.refresh_from_db()
    assert t.finished is not None
    assert len(tables_of(t)) == 2
    from games.arena.reads import podium

    top = podium(t)
    assert [r.rank for r in top] == [1, 2, 3]
    assert top[0].points >= top[1].points >= top[2].points


def test_a_table_closed_by_staff_sends_its_players_back_to_the_pool(players, admin_user):
    from games.staff.services import table_close

    t = joined(arena(), players[:4])
    tournament_pair(tournament_id=t.pk)
    (table,) = tables_of(t)
    table_close(table_id=table.pk, staff=admin_user, reason="test")
    assert tournament_pair(tournament_id=t.pk) == 1  # back in the pool, and seated again
    e = entrant(t, players[0])
    assert e.table_id not in (None, table.pk) and e.points == 0 and e.games == 0


@pytest.mark.parametrize("variant", ["duz", "esli", "101", "esli101"])
def test_any_variant_the_engine_offers_is_played_by_the_tables_options(players, variant):
    t = joined(arena(options={"variant": variant, "hand_limit": 1}), players[:4])
    assert tournament_pair(tournament_id=t.pk) == 1
    (table,) = tables_of(t)
    assert table.variant == variant and table.status == Table.Status.STARTING
    assert table.policy.private and not table.policy.practice
