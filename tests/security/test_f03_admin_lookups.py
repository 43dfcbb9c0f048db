"""Finding 3: staff who may only view hands cannot read a live hand through the admin's list
filters on JSON keys (``?state__stock__0=R7``): lookups into state, seed and result are refused."""

import pytest
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.contrib.auth.models import Permission
from django.test import Client

from games import engine
from tests.games.helpers import current_hand, hand_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def viewer(django_user_model):
    user = django_user_model.objects.create_user(
        username="viewer", email="viewer@example.com", password="pw-okey-1234", is_staff=True
    )
    codenames = ["view_hand", "view_game", "view_move", "view_table"]
    user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    TOTP.activate(user, generate_totp_secret())  # the admin asks staff for a second factor
    client = Client()
    client.force_login(user)
    return client


def rows(response) -> int:
    return response.context["cl"].result_count


def test_a_filter_on_a_live_hands_stock_is_refused(viewer, playing):
    state = hand_state(playing)
    top = engine.format_tile(state.stock[0])
    url = "/admin/games/hand/"
    assert viewer.get(url).status_code == 200
    for query in (
        f"state__stock__0={top}",
        f"state__racks__0__0={engine.format_tile(state.racks[0][0])}",
        "state__stock__contains=R7",
        "seed__isnull=False",
        "result__isnull=True",
    ):
        response = viewer.get(f"{url}?{query}")
        assert response.status_code == 400, query
        assert top.encode() not in response.content


def test_a_filter_through_a_relation_into_state_is_refused(viewer, playing):
    hand = current_hand(playing)
    response = viewer.get(f"/admin/games/game/?state__isnull=False&id={hand.game_id}")
    assert response.status_code == 400


def test_a_live_hand_page_shows_no_rack_and_no_stock(viewer, playing):
    hand, state = current_hand(playing), hand_state(playing)
    page = viewer.get(f"/admin/games/hand/{hand.pk}/change/").content.decode()
    rack = " ".join(engine.format_tile(t) for t in state.racks[0])
    # the hand's page, titled in the admin's language (Turkish unless asked otherwise)
    assert f"Masa #{hand.game.table_id}, {hand.number}. el" in page and rack not in page
    assert '"stock"' not in page and '"racks"' not in page
