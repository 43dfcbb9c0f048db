import re

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.models import Table
from games.table.create import table_create
from games.table.moves import move_submit
from tests.games.conftest import game_started, table_full
from tests.games.helpers import current_hand, hand_state, version_of

pytestmark = pytest.mark.django_db


def test_lobby_lists_public_tables_and_hides_private_ones(client, users):
    public = table_create(manager=users[0], options={"seats": 3})
    private = table_create(manager=users[1], options={"private": True})
    html = client.get(reverse("games:lobby")).content.decode()
    assert reverse("games:table", args=[public.pk]) in html
    assert reverse("games:table", args=[private.pk]) not in html
    assert "1/3" in html


def test_create_form_makes_a_table_with_the_chosen_options(client, users):
    client.force_login(users[0])
    response = client.post(
        reverse("games:table_new"),
        {
            "mode": "duz",
            "seats": "3",
            "turn_seconds": "45",
            "start_count": "25",
            "hand_limit": "4",
            "indicator_bonus": "on",
        },
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response.url == reverse("games:table", args=[table.pk])
    assert table.options["seats"] == 3 and table.options["turn_seconds"] == 45
    assert table.options["colour_doubling"] is False and table.options["indicator_bonus"] is True


@pytest.mark.parametrize(
    "field, value",
    [("turn_seconds", "5"), ("turn_seconds", "121"), ("start_count", "51"), ("hand_limit", "0")],
)
def test_create_form_refuses_values_out_of_range(client, users, field, value):
    client.force_login(users[0])
    data = {
        "mode": "duz",
        "seats": "4",
        "turn_seconds": "30",
        "start_count": "20",
        "hand_limit": "8",
    }
    data[field] = value
    response = client.post(reverse("games:table_new"), data)
    assert response.status_code == 400 and not Table.objects.exists()


def test_esli_needs_four_players(client, users):
    client.force_login(users[0])
    data = {
        "mode": "esli",
        "seats": "2",
        "turn_seconds": "30",
        "start_count": "20",
        "hand_limit": "8",
    }
    assert client.post(reverse("games:table_new"), data).status_code == 400


def test_the_table_page_shows_a_player_only_their_own_rack(client, users, fixed_seed):
    table = game_started(table_full(users))
    state = hand_state(table)
    client.force_login(users[1])
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    rack_data = html.split('id="rack-data"')[1].split("</div>")[0]
    shown = [t.split('"')[0] for t in rack_data.split('data-tile="')[1:]]
    assert sorted(shown) == sorted(engine.format_tile(t) for t in state.racks[1])
    assert 'id="rack"' in html


def test_a_spectator_sees_no_rack(client, users, fixed_seed):
    table = game_started(table_full(users))
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'id="rack-data"' not in html and 'id="rack"' not in html
    assert 'id="my-moves"' not in html


def test_a_visitor_asking_to_arrange_a_rack_is_told_they_have_none(client, users, fixed_seed):
    """bench/badinput.py found a 500 here: a signed-out visitor's "Seri diz" at a dealt table."""
    table = game_started(table_full(users))
    response = client.get(reverse("games:arrange", args=[table.pk]), {"how": "runs"})
    assert response.status_code == 400 and response.json()["error"]


def test_sit_and_start_by_post(client, users):
    table = table_create(manager=users[0], options={"seats": 2})
    client.force_login(users[1])
    response = client.post(reverse("games:sit", args=[table.pk]), {"seat": "1"})
    assert response.status_code == 302
    assert table.seats.get(index=1).user == users[1]
    # only the manager may start: a forged start is refused with a message, nothing changes
    response = client.post(reverse("games:start", args=[table.pk]), follow=True)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert "Only the table manager" in response.content.decode() or "yöneticisi" in (
        response.content.decode()
    )
    client.force_login(users[0])
    client.post(reverse("games:start", args=[table.pk]))
    table.refresh_from_db()
    assert table.status == Table.Status.STARTING


def test_htmx_sit_redirects_the_page_itself(client, users):
    table = table_create(manager=users[0], options={"seats": 2})
    client.force_login(users[1])
    response = client.post(
        reverse("games:sit", args=[table.pk]), {"seat": "1"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 204
    assert response["HX-Redirect"] == reverse("games:table", args=[table.pk])


def test_a_post_without_csrf_token_is_refused(users):
    from django.test import Client

    table = table_create(manager=users[0], options={"seats": 2})
    client = Client(enforce_csrf_checks=True)
    client.force_login(users[1])
    response = client.post(reverse("games:sit", args=[table.pk]), {"seat": "1"})
    assert response.status_code == 403
    assert table.seats.get(index=1).user is None


def submit(client, html, action):
    """Post the page's form for ``action`` (sit, start, ...) with its hidden fields, as a
    browser would."""
    form = re.search(
        rf'<form method="post" action="([^"]*/{action}/)"[^>]*>(.*?)</form>', html, re.S
    )
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form[2]))
    return client.post(form[1], fields)


def test_the_pages_seat_and_start_forms_carry_their_csrf_token(users):
    table = table_create(manager=users[0], options={"seats": 2})
    url = reverse("games:table", args=[table.pk])
    guest, manager = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    guest.force_login(users[1])
    manager.force_login(users[0])
    assert submit(guest, guest.get(url).content.decode(), "sit").status_code == 302
    assert table.seats.get(index=1).user == users[1]
    assert submit(manager, manager.get(url).content.decode(), "start").status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.STARTING


def test_move_by_post_goes_through_the_service(client, users, fixed_seed):
    table = game_started(table_full(users))
    tile = engine.format_tile(hand_state(table).racks[0][0])
    client.force_login(users[0])
    version = table.game.version
    response = client.post(
        reverse("games:move", args=[table.pk]),
        {"kind": "discard", "tile": tile, "version": version},
        headers={"HX-Request": "true"},
    )
    assert (
        response.status_code == 200 and f'data-version="{version + 1}"' in response.content.decode()
    )
    # the same form again is stale and changes nothing
    response = client.post(
        reverse("games:move", args=[table.pk]),
        {"kind": "discard", "tile": tile, "version": version},
        headers={"HX-Request": "true"},
    )
    assert 'id="table-message"' in response.content.decode()
    assert current_hand(table).version == 1


@pytest.mark.parametrize("version", [None, "", "x", "1e9", "-5", "²", " 7"])
def test_a_move_posted_without_a_valid_version_is_refused_and_changes_nothing(
    client, users, fixed_seed, version
):
    """Declaring pairs is allowed out of turn: a form whose version is missing or garbled
    must not apply it unchecked."""
    table = game_started(table_full(users))
    client.force_login(users[2])
    form = {"kind": "pairs"} if version is None else {"kind": "pairs", "version": version}
    response = client.post(
        reverse("games:move", args=[table.pk]), form, headers={"HX-Request": "true"}
    )
    assert "hangi durumuna göre yapıldığını belirtmiyor" in response.content.decode()
    assert current_hand(table).version == 0 and version_of(table) == table.game.version


def test_verify_page_keeps_the_seed_secret_until_the_hand_is_over(client, users, fixed_seed):
    table = game_started(table_full(users))
    url = reverse("games:verify", args=[table.pk, 1])
    html = client.get(url).content.decode()
    assert fixed_seed.hex() not in html and current_hand(table).commitment in html


def test_unknown_table_is_404(client):
    assert client.get(reverse("games:table", args=[424242])).status_code == 404


@pytest.mark.parametrize("how", ["runs", "pairs"])
def test_arrange_returns_the_askers_own_rack_in_groups(client, users, fixed_seed, how):
    table = game_started(table_full(users))
    state = hand_state(table)
    client.force_login(users[2])
    data = client.get(reverse("games:arrange", args=[table.pk]), {"how": how}).json()
    shown = [t for g in data["groups"] for t in g] + data["leftovers"]
    assert sorted(shown) == sorted(engine.format_tile(t) for t in state.racks[2])
    assert all(len(g) >= (2 if how == "pairs" else 3) for g in data["groups"])


def test_arrange_is_only_for_seated_players(client, users, django_user_model, fixed_seed):
    table = game_started(table_full(users))
    stranger = django_user_model.objects.create_user(username="st", email="st@example.com")
    client.force_login(stranger)
    response = client.get(reverse("games:arrange", args=[table.pk]), {"how": "runs"})
    assert response.status_code == 400 and "groups" not in response.json()
    client.force_login(users[0])
    assert client.get(reverse("games:arrange", args=[table.pk]), {"how": "x"}).status_code == 404


def test_a_void_hand_is_shown_as_void(client, users, fixed_seed):
    from dataclasses import replace

    table = game_started(table_full(users, seats=2))
    hand = current_hand(table)
    state = hand_state(table)
    hand.state = engine.hand_to_dict(replace(state, stock=state.stock[:1]))
    hand.save()
    move_submit(
        table_id=table.pk,
        user=users[0],
        move={"kind": "discard", "tile": engine.format_tile(state.racks[0][0])},
        expected_version=None,
    )
    move_submit(table_id=table.pk, user=users[1], move={"kind": "draw"}, expected_version=None)
    tile = engine.format_tile(hand_state(table).racks[1][0])
    move_submit(
        table_id=table.pk,
        user=users[1],
        move={"kind": "discard", "tile": tile},
        expected_version=None,
    )
    client.force_login(users[0])
    html = client.get(f"/en/table/{table.pk}/").content.decode()
    assert "Void hand" in html and "Next hand in" in html


def test_esli_shows_the_partner_opposite(client, users, fixed_seed):
    table = game_started(table_full(users, mode="esli"))
    client.force_login(users[1])
    html = client.get(f"/en/table/{table.pk}/").content.decode()
    top = html.index('class="place place--top"')  # seat 4 sits opposite seat 2
    assert '<div id="seat-3" class="seat is-partner"' in html[top : top + 120]
    assert html.count("is-partner") == 1 and html.count(" is-you") == 1


def test_after_going_for_pairs_the_page_shows_the_tiles_the_next_player_took(
    client, users, fixed_seed
):
    table = game_started(table_full(users))

    def play(move):
        seat = hand_state(table).turn
        move_submit(table_id=table.pk, user=users[seat], move=move, expected_version=None)

    def tile_of(seat, but=None):
        return next(
            engine.format_tile(t) for t in hand_state(table).racks[seat]
            if engine.format_tile(t) != but
        )  # fmt: skip

    first = hand_state(table).turn
    taken = tile_of(first)
    play({"kind": "discard", "tile": taken})
    play({"kind": "take"})  # the next player takes it
    play({"kind": "discard", "tile": tile_of((first + 1) % 4, but=taken)})
    client.force_login(users[(first + 2) % 4])
    url = reverse("games:table", args=[table.pk])
    assert "pile-taken" not in client.get(url).content.decode()
    play({"kind": "pairs"})
    html = client.get(url).content.decode()
    pile = html.split(f'id="pile-{first}"')[1].split('class="pile-top"')[0]
    assert 'class="pile-taken"' in pile and f'data-tile="{taken}"' in pile


def test_the_verify_page_names_a_bot_as_the_table_does(client, users, fixed_seed):
    from django.db import transaction
    from django.utils import timezone

    from games.table.changes import table_lock
    from games.table.lifecycle import game_stop

    table = game_started(table_create(manager=users[0], options={"seats": 2}))
    with transaction.atomic():  # the game ends now: its hand is over, its deal can be checked
        game, locked = table_lock(table.pk)
        game_stop(game, locked, timezone.now())
        game.save()
    html = client.get(f"/en/table/{table.pk}/hand/1/verify/").content.decode()
    assert "<td>Bot 2</td>" in html and "<td>2</td>" not in html


def test_english_pages_say_what_seri_diz_and_cift_diz_do(client, users, fixed_seed):
    table = game_started(table_full(users))
    client.force_login(users[0])
    html = client.get(f"/en/table/{table.pk}/").content.decode()
    assert "Seri diz · sort runs" in html and "Çift diz · sort pairs" in html
    html = client.get(f"/table/{table.pk}/").content.decode()
    assert "Seri diz" in html and "sort runs" not in html


def test_bot_strengths_read_easy_normal_hard(client, users):
    client.force_login(users[0])
    html = client.get("/en/").content.decode()
    assert re.search(r'value="easy"[^>]*>easy<.*value="normal"[^>]*>normal<', html, re.S)
    assert "gently" not in html and ">well<" not in html
    html = client.get("/").content.decode()
    assert ">kolay<" in html and ">zor<" in html and "yumuşak" not in html
