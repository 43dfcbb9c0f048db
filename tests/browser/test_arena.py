"""An arena in the browser: a shortened tournament of eight (six people and two bots) joins,
is paired, plays, shows its standings live on every page, stops pairing when its time is up
and shows its podium; and axe on the tournaments' pages, desktop and phone.

The Celery worker (conftest: celery_worker) deals, plays the bots and pushes the standings'
delayed updates; the test sends the pairing tick as beat would (``arena_tick_task``). The people
move as fair players do (tests/games/plans.py) through move_submit, the service their pages'
sockets call, from a thread (play_support.in_a_thread), on a deal that a fair table finishes in
nine moves.
"""

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from .play_support import in_a_thread, players_make, sign_in, wait_db
from .test_axe import NO_CSP, violations

pytestmark = pytest.mark.browser

QUICK_SEED = "0eb482f3eb9c8a7af81bd104adeb5a4108054ec826dbb6574f297562421be816"


def tick(app):
    """What beat sends every few seconds."""
    app.send_task("games.tasks.arena_tick_task")


def people_play(table_id, steps=400):
    """The people at ``table_id`` make their moves as fair players do until its game is over;
    bots and the deal are the worker's."""
    from games.models import Game, Seat
    from games.table.moves import move_submit
    from tests.games.helpers import current_hand, hand_state
    from tests.games.plans import plan_move

    for _ in range(steps):
        game = Game.objects.select_related("table").get(table_id=table_id)
        if game.status == Game.Status.OVER:
            return
        hand = current_hand(game.table)
        if hand is None or hand.over:
            time.sleep(0.1)
            continue
        state = hand_state(game.table)
        seat = Seat.objects.select_related("user").get(table_id=table_id, index=state.turn)
        if seat.user_id is None:
            time.sleep(0.05)  # a bot's turn: the worker plays it
            continue
        try:
            in_a_thread(
                move_submit,
                table_id=table_id,
                user=seat.user,
                move=plan_move(state),
                expected_version=game.version,
            )
        except Exception:
            time.sleep(0.05)  # the table moved on meanwhile (a bot, the deal): read it again
    raise AssertionError(f"the game at table {table_id} did not end")


def test_a_short_arena_of_six_people_and_two_bots(
    asgi_live_server, browser, celery_worker, settings, django_user_model
):
    from games.arena.schedule import tournament_schedule
    from games.models import Entrant, Game, Table, Tournament

    settings.OKEY_TEST_SEED_HEX = QUICK_SEED
    settings.OKEY_BOT_PAUSE = (0.05, 0.15)
    settings.OKEY_ARENA_BOT_WAIT = 3.0
    server = asgi_live_server
    t = tournament_schedule(
        name="Kısa arena",
        options={"mode": "duz", "hand_limit": 1},
        starts=timezone.now() + timedelta(minutes=10),
        minutes=10,
        bots=True,
    )
    url = f"{server.url}/arena/{t.pk}/"
    users = players_make(django_user_model, 6)
    # two on phones, four on desktops; somebody not signed in watches the standings
    pages = [
        sign_in(browser, server, u, viewport=(390, 844) if i < 2 else (1280, 800))
        for i, u in enumerate(users)
    ]
    watcher = browser.new_context(locale="tr-TR").new_page()
    watcher.goto(url)
    expect(watcher.locator("#arena-standings")).to_contain_text("Henüz kimse katılmadı")

    for page in pages:  # everyone joins before the start, from the tournament's page
        page.goto(url)
        page.locator("[data-arena-join]").click()
        expect(page.locator("#arena-own")).to_contain_text("Katıldınız")
    # the standings came to the watcher's page without a reload
    expect(watcher.locator(".arena-table tbody tr")).to_have_count(6)

    # the start: the tick pairs four people at once; the other two get bots after the wait
    Tournament.objects.filter(pk=t.pk).update(starts=timezone.now() - timedelta(seconds=1))
    tick(celery_worker)
    wait_db(lambda: Table.objects.filter(tournament=t).count() == 1)
    time.sleep(settings.OKEY_ARENA_BOT_WAIT + 0.5)
    tick(celery_worker)
    wait_db(lambda: Table.objects.filter(tournament=t).count() == 2)
    tables = list(Table.objects.filter(tournament=t).order_by("pk"))
    assert sum(s.is_bot for tb in tables for s in tb.seats.all()) == 2
    first_tables = {}
    for page, user in zip(pages, users, strict=True):  # each page went to its player's table
        table_id = first_tables[user.pk] = Entrant.objects.get(tournament=t, user=user).table_id
        page.wait_for_url(f"**/table/{table_id}/", timeout=15_000)
    expect(watcher.locator(".arena-playing")).to_have_count(6)

    for tb in tables:  # the deal after the 10-second countdown, then the game
        wait_db(lambda tb=tb: Game.objects.get(table=tb).status != Game.Status.WAITING)
        people_play(tb.pk)
    for tb in tables:
        wait_db(lambda tb=tb: Game.objects.get(table=tb).results is not None)
    # every player's page shows the game's end, then goes back to the tournament by itself: only
    # the result's return link takes a page there (static/games/arena.js), so a page that arrives
    # from its table showed it. Asked afterwards, not while waiting: under load the pages looked at
    # last had already gone back before the test looked for the link on them.
    for page, user in zip(pages, users, strict=True):
        page.wait_for_url(url, timeout=30_000)
        assert page.evaluate("document.referrer").endswith(f"/table/{first_tables[user.pk]}/")
    points = {e.user_id: e.points for e in Entrant.objects.filter(tournament=t)}
    assert sum(points.values()) > 0
    best = max(points.values())
    for page in (*pages, watcher):  # the same standings everywhere, each game's points shown
        expect(page.locator(".arena-table tbody tr").first.locator(".arena-points")).to_have_text(
            str(best), timeout=10_000
        )
        expect(page.locator(".arena-table .arena-game")).to_have_count(6)

    # time is up: nobody is paired again, and the podium comes to every page
    Tournament.objects.filter(pk=t.pk).update(starts=timezone.now() - timedelta(minutes=11))
    tick(celery_worker)
    wait_db(lambda: Tournament.objects.get(pk=t.pk).finished is not None)
    assert Table.objects.filter(tournament=t).count() == 2
    for page in (*pages, watcher):
        expect(page.locator(".podium li")).to_have_count(3, timeout=10_000)
        expect(page.locator(".arena-countdown")).to_have_text("Turnuva bitti.")
    expect(pages[0].locator("#arena-own")).to_contain_text("oldunuz")
    # the final standings, as the page shows them (`pytest -s` prints them)
    for row in watcher.locator(".arena-table tbody tr").all():
        print(" | ".join(" ".join(c.inner_text().split()) for c in row.locator("td").all()))
    for page in (*pages, watcher):
        page.context.close()


def test_the_tournaments_pages_have_no_serious_violation(
    asgi_live_server, browser, django_user_model
):
    from games.arena.entrants import entrant_join
    from games.arena.schedule import tournament_schedule
    from games.models import Entrant

    server = asgi_live_server
    users = players_make(django_user_model, 3)
    running = tournament_schedule(
        name="Akşam arenası",
        options={"mode": "esli"},
        starts=timezone.now() - timedelta(minutes=5),
        minutes=60,
    )
    tournament_schedule(
        name="Cuma arenası",
        options={"mode": "duz"},
        starts=timezone.now() + timedelta(days=2),
        minutes=60,
        rated=False,
    )
    for u in users:  # from a thread: Playwright's loop runs in this one (play_support)
        in_a_thread(entrant_join, tournament_id=running.pk, user=u)
    Entrant.objects.filter(user=users[0]).update(
        points=12, games=3, wins=3, streak=3,
        results=[{"table": 1, "place": 1, "points": 4, "fire": False, "left": False}] * 2
        + [{"table": 1, "place": 1, "points": 8, "fire": True, "left": False}],
    )  # fmt: skip
    for viewport in ((1280, 800), (390, 844)):
        page = sign_in(browser, server, users[0], viewport=viewport, **NO_CSP)
        try:
            page.goto(server.url + "/arena/")
            expect(page.locator(".arena-row")).to_have_count(2)
            assert violations(page) == [], f"the list at {viewport}"
            page.goto(f"{server.url}/arena/{running.pk}/")
            expect(page.locator(".arena-fire")).to_have_count(1)
            assert violations(page) == [], f"a running tournament at {viewport}"
        finally:
            page.context.close()
