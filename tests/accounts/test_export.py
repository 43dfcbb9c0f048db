"""A player's data export: their profile, games, hands with their own moves (never another
player's tiles), chat and invites, as a JSON download from the profile, a few times an hour."""

import json
import re

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse

from accounts.export import account_export
from accounts.models import Profile
from games import engine
from games.models import Game, Hand, Move
from games.staff.services import game_end
from games.table.chat import chat_post
from games.table.moves import move_submit
from tests.games.conftest import game_started, in_memory_layer, table_full
from tests.games.helpers import current_hand, version_of
from tests.games.plans import plan_hand

__all__ = ["in_memory_layer"]  # fixtures shared with tests/games

pytestmark = pytest.mark.django_db

# a deal that the plan (tests/games/plans.py) finishes, seat 2 after 19 moves (as tests/browser/test_play.py)
FINISHING_SEED = "183cfb439ae222d2f87025241e83f2e534f8808d04411f8c2b4279e9e84ac554"
TILE = re.compile(r"^(?:[RBYK](?:[1-9]|1[0-3])|F)$")  # a tile in notation (engine.format_tile)


@pytest.fixture
def users(django_user_model):
    users = []
    for i in range(1, 5):
        user = django_user_model.objects.create_user(f"p{i}", f"p{i}@example.com", "pw-okey-1234")
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        users.append(user)
    return users


@pytest.fixture
def played(users, settings, in_memory_layer, django_user_model):
    """A whole hand played at a four-seat table (seat 2 finishes it), a chat line each, then
    the game ended by staff, which rates it."""
    settings.OKEY_TEST_SEED_HEX = FINISHING_SEED
    table = game_started(table_full(users))
    moves, final = plan_hand(
        bytes.fromhex(FINISHING_SEED), first_seat=current_hand(table).first_seat
    )
    assert final.result.finisher == 1 and not final.result.void
    for move in moves:
        move_submit(
            table_id=table.pk,
            user=users[move["seat"]],
            move={k: v for k, v in move.items() if k != "seat"},
            expected_version=version_of(table),
        )
    for i, user in enumerate(users):
        chat_post(table_id=table.pk, user=user, text=f"merhaba {i}")
    staff = django_user_model.objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    game_end(table_id=table.pk, staff=staff)
    return table


def current_first(table) -> int:
    return Hand.objects.get(game__table=table).first_seat


def tiles_in(value) -> set[str]:
    if isinstance(value, dict):
        return set().union(*(tiles_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(tiles_in(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) and TILE.match(value) else set()


def test_the_export_holds_the_players_games_and_only_their_own_tiles(played, users):
    me = users[2]  # not the finisher: their rack is never revealed to them by the export
    data = account_export(me)
    json.dumps(data)  # plain JSON types
    assert data["profile"]["display_name"] == me.profile.display_name
    assert data["account"]["email_addresses"][0]["email"] == "p3@example.com"
    assert [g["table"] for g in data["games"]] == [played.pk]
    assert data["games"][0]["seat"] == 3
    [hand] = data["hands"]
    assert hand["table"] == played.pk and hand["seat"] == 3
    mine = list(Move.objects.filter(user=me).order_by("seq"))
    assert [m["number"] for m in hand["moves"]] == [m.seq for m in mine]
    # each draw and take names the tile, which was the player's own (issue 42: it was null)
    seed = bytes.fromhex(FINISHING_SEED)
    state = engine.deal(seed, played.rules, current_first(played))
    drawn = {}
    for m in Move.objects.filter(hand__game__table=played).order_by("seq"):
        state = engine.hand_apply(state, engine.move_from_dict(m.as_engine_dict()))
        if m.user_id == me.pk and m.kind in ("draw", "take"):
            drawn[m.seq] = engine.format_tile(state.drawn)
    assert drawn and all(
        m["tile"] == drawn[m["number"]] for m in hand["moves"] if m["kind"] in ("draw", "take")
    )
    # every tile in the whole export is one of their own moves', their own draws' or the public
    # indicator
    allowed = {m.tile for m in mine if m.tile} | set(drawn.values()) | {hand["indicator"]}
    assert tiles_in(data) <= allowed
    # and the tiles that only the others held are nowhere
    state = engine.hand_from_dict(Hand.objects.get(game__table=played).state)
    others = {
        engine.format_tile(t) for s, rack in enumerate(state.racks) if s != 2 for t in rack
    } - allowed
    text = json.dumps(data)
    assert others and not any(f'"{t}"' in text for t in others)
    assert "racks" not in text and "stock" not in text and "seed" not in text
    assert [c["text"] for c in data["chat"]] == ["merhaba 2"]


def test_the_export_holds_both_ratings(played, users):
    """Issue 44: the Okey rating (which the Düz game played here moved) and the 101 rating, each
    with its games and wins; each game says which rating it moved."""
    Profile.objects.filter(user=users[1]).update(rating101_points=-6, games101_played=2, wins101=1)
    me = type(users[1]).objects.get(pk=users[1].pk)  # the finisher, their profile read anew
    data = account_export(me)
    okey = data["profile"]["ratings"]["okey"]
    assert okey == {"rating_points": 2, "games_played": 1, "wins": 1}  # 1 hand: +2H
    assert (data["profile"]["rating_points"], data["profile"]["games_played"]) == (2, 1)
    assert data["profile"]["ratings"]["101"] == {
        "rating_points": -6,
        "games_played": 2,
        "wins": 1,
    }
    assert [(g["rating"], g["rating_points"]) for g in data["games"]] == [("okey", 2)]


def test_the_profile_downloads_the_export(played, users, client):
    client.force_login(users[0])
    profile = client.get(reverse("accounts:profile")).content.decode()
    assert f'action="{reverse("accounts:export")}"' in profile
    response = client.post(reverse("accounts:export"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="okey-data-')
    data = json.loads(response.content)
    assert data["games"][0]["table"] == played.pk
    assert Game.objects.get(table=played).results is not None


def test_the_export_is_for_the_player_alone_and_by_post(users, client):
    assert client.post(reverse("accounts:export")).status_code == 302  # to the log-in
    client.force_login(users[0])
    assert client.get(reverse("accounts:export")).status_code == 405


def test_exports_are_limited_per_hour(users, client):
    client.force_login(users[0])
    for _ in range(3):
        assert client.post(reverse("accounts:export")).status_code == 200
    response = client.post(reverse("accounts:export"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("accounts:profile")
    assert "bir saat sonra" in response.content.decode()
