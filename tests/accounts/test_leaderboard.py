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
    staff = get_user_model().objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    esli = game_started(table_full(users, mode="esli"))
    # a finished game: end it with counts that make team B the winner over two hands
    game = Game.objects.get(table=esli)
    game.state = {**game.state, "counts": [24, 16, 22, 18], "hands_played": 2}
    game.save()
    game_end(table_id=esli.pk, staff=staff)
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
    staff = get_user_model().objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    table = game_started(table_full(users[:3], seats=3))
    game = Game.objects.get(table=table)
    game.state = {**game.state, "counts": [12, 30, 20], "hands_played": 3}
    game.save()
    game_end(table_id=table.pk, staff=staff)
    client.force_login(users[2])
    html = client.get(reverse("accounts:profile")).content.decode()
    row = re.search(r"<tbody>(.*?)</tbody>", html.split("recent-games-table")[1], re.S).group(1)
    assert "2 of 3" in row or "3 oyuncudan 2." in row
    assert "+0" in row


def test_a_player_without_games_sees_none(client, users):
    client.force_login(users[0])
    html = client.get(reverse("accounts:profile")).content.decode()
    assert "recent-games" in html and "recent-games-table" not in html
