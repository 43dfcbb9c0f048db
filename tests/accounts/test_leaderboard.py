"""The leaderboard (players by rating points) and each profile's recent games."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import Profile
from games.models import Game
from games.staff.services import game_end
from tests.games.conftest import fixed_seed, game_started, in_memory_layer, table_full, users

__all__ = ["fixed_seed", "in_memory_layer", "users"]  # fixtures shared with tests/games

pytestmark = pytest.mark.django_db


def make_player(name, points=0, games=0, wins=0):
    user = get_user_model().objects.create_user(name, f"{name}@example.com", "x")
    Profile.objects.filter(user=user).update(
        display_name=name.title(), rating_points=points, games_played=games, wins=wins
    )
    return user


def staff_ends(table, **state):
    """End the game at ``table`` as staff, its state first given ``state`` (the final counts or
    101 totals and the hands played): the game is rated as any game that ends."""
    staff = get_user_model().objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    game = Game.objects.get(table=table)
    game.state = {**game.state, **state}
    game.save()
    game_end(table_id=table.pk, staff=staff)


def names_in_order(html):
    return re.findall(r'<a href="(?:/en)?/profile/\d+/">([^<]+)</a></td>', html)


def test_players_by_rating_points_then_wins(client):
    make_player("ayse", 10, 3, 2)
    make_player("mehmet", 24, 5, 3)
    make_player("zeynep", 10, 3, 3)
    make_player("kemal", 10, 4, 3)
    make_player("newbie")  # no finished game: not listed
    html = client.get(reverse("leaderboard")).content.decode()
    assert names_in_order(html) == ["Mehmet", "Zeynep", "Kemal", "Ayse"]
    assert "Newbie" not in html


def test_the_navigation_links_to_the_leaderboard(client):
    html = client.get(reverse("games:lobby")).content.decode()
    assert f'href="{reverse("leaderboard")}"' in html


def test_pages_and_the_viewers_own_place(client, monkeypatch):
    from accounts import views

    monkeypatch.setattr(views, "LEADERBOARD_PAGE", 2)
    for i in range(5):
        make_player(f"p{i}", 100 - i, 1, 1)
    me = make_player("me", 1, 1, 0)
    client.force_login(me)
    html = client.get(reverse("leaderboard")).content.decode()
    assert names_in_order(html) == ["P0", "P1", "Me"]
    assert re.search(r'<tr class="is-you"><td>6</td>', html)
    html = client.get(reverse("leaderboard") + "?page=3").content.decode()
    assert names_in_order(html) == ["P4", "Me"]


def test_a_profile_lists_its_recent_games(client, users, fixed_seed, in_memory_layer):
    esli = game_started(table_full(users, mode="esli"))
    # a finished game: end it with counts that make team B the winner over two hands
    staff_ends(esli, counts=[24, 16, 22, 18], hands_played=2)
    html = client.get(reverse("accounts:profile_detail", args=[users[1].pk])).content.decode()
    assert "recent-games-table" in html
    assert "Eşli Okey" in html
    row = re.search(r"<tbody>(.*?)</tbody>", html.split("recent-games-table")[1], re.S).group(1)
    assert "+2" in row and ("kazandı" in row or "won" in row)
    html = client.get(reverse("accounts:profile_detail", args=[users[0].pk])).content.decode()
    row = re.search(r"<tbody>(.*?)</tbody>", html.split("recent-games-table")[1], re.S).group(1)
    assert "−2" in row and ("kaybetti" in row or "lost" in row)
    p = Profile.objects.get(user=users[1])
    assert (p.rating_points, p.games_played, p.wins) == (2, 1, 1)


def test_a_duz_game_shows_the_place(client, users, fixed_seed, in_memory_layer):
    table = game_started(table_full(users[:3], seats=3))
    staff_ends(table, counts=[12, 30, 20], hands_played=3)
    client.force_login(users[2])
    html = client.get(reverse("accounts:profile")).content.decode()
    row = re.search(r"<tbody>(.*?)</tbody>", html.split("recent-games-table")[1], re.S).group(1)
    assert "2 of 3" in row or "3 oyuncudan 2." in row
    assert "+0" in row


def test_a_player_without_games_sees_none(client, users):
    client.force_login(users[0])
    html = client.get(reverse("accounts:profile")).content.decode()
    assert "recent-games" in html and "recent-games-table" not in html


def make_101_player(name, points=0, games=0, wins=0, okey=(0, 0, 0)):
    user = make_player(name, *okey)
    Profile.objects.filter(user=user).update(
        rating101_points=points, games101_played=games, wins101=wins
    )
    return user


def test_the_switch_ranks_by_the_101_rating(client):
    """Issue 44: the leaderboard switches between the Okey and the 101 ratings, each ranking by
    its own points, games and wins; a player is listed only where they finished a game."""
    make_101_player("ayse", 5, 2, 1, okey=(30, 4, 3))
    make_101_player("mehmet", 40, 6, 4, okey=(-3, 2, 0))
    make_101_player("zeynep", 5, 2, 2)  # 101 only
    make_player("kemal", 12, 3, 1)  # Okey only
    okey = client.get(reverse("leaderboard")).content.decode()
    assert names_in_order(okey) == ["Ayse", "Kemal", "Mehmet"]
    html = client.get(reverse("leaderboard"), {"rating": "101"}).content.decode()
    assert names_in_order(html) == ["Mehmet", "Zeynep", "Ayse"]
    assert 'data-rating="101"' in html.split("leaderboard-table")[1][:40]
    # the rows show the 101 standing: Mehmet's 40 in 6 games, not his Okey −3 in 2
    row = re.search(r"<tr[^>]*><td>1</td>.*?</tr>", html, re.S).group(0)
    assert re.findall(r'<td class="num">([^<]+)</td>', row) == ["40", "6", "4"]
    # the switch: a link to each board, the one shown marked as the current page
    nav = re.search(r'<nav class="rating-switch".*?</nav>', html, re.S).group(0)
    assert re.search(r'href="/leaderboard/\?rating=101"[^>]*aria-current="page"', nav)
    assert re.search(r'href="/leaderboard/" data-rating="okey">', nav)
    nav = re.search(r'<nav class="rating-switch".*?</nav>', okey, re.S).group(0)
    assert re.search(r'href="/leaderboard/" data-rating="okey" aria-current="page"', nav)


def test_the_switch_speaks_english_and_turkish(client):
    make_101_player("ayse", 5, 2, 1)
    tr = client.get(reverse("leaderboard"), {"rating": "101"}).content.decode()
    assert 'aria-label="Puan türü"' in tr and "101 puanına" in tr
    en = client.get("/en/leaderboard/", {"rating": "101"}).content.decode()
    assert 'aria-label="Rating"' in en and 'href="/en/leaderboard/?rating=101"' in en
    assert "Players by 101 rating points" in en


def test_an_unknown_rating_is_not_found(client):
    response = client.get(reverse("leaderboard"), {"rating": "tavla"})
    assert response.status_code == 404


def test_the_101_pages_and_the_viewers_own_place(client, monkeypatch):
    from accounts import views

    monkeypatch.setattr(views, "LEADERBOARD_PAGE", 2)
    for i in range(5):
        make_101_player(f"p{i}", 100 - i, 1, 1, okey=(-i, 1, 0))
    me = make_101_player("me", 1, 1, 0, okey=(50, 1, 1))  # first in Okey, last in 101
    client.force_login(me)
    html = client.get(reverse("leaderboard"), {"rating": "101"}).content.decode()
    assert names_in_order(html) == ["P0", "P1", "Me"]
    assert re.search(r'<tr class="is-you"><td>6</td>', html)
    assert 'href="?rating=101&amp;page=2"' in html
    html = client.get(reverse("leaderboard"), {"rating": "101", "page": 3}).content.decode()
    assert names_in_order(html) == ["P4", "Me"]
    html = client.get(reverse("leaderboard")).content.decode()
    assert names_in_order(html) == ["Me", "P0"] and 'href="?page=2"' in html


def test_a_101_game_counts_on_the_101_board_and_not_on_the_okey_one(
    client, users, fixed_seed, in_memory_layer
):
    table = game_started(table_full(users, variant="101"))
    staff_ends(table, totals=[300, 40, 150, 200], hands_played=2)
    okey = client.get(reverse("leaderboard")).content.decode()
    assert names_in_order(okey) == []
    html = client.get(reverse("leaderboard"), {"rating": "101"}).content.decode()
    assert names_in_order(html) == ["player2", "player3", "player4", "player1"]
