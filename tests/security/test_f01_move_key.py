"""Finding 1: a move key used again answers with the first move's answer, never an error page;
and no error page, even with DEBUG on, shows a function's local variables (the game state)."""

import sys

import pytest
from django.test import RequestFactory
from django.views import debug

from games import engine
from games.models import Move
from games.table.moves import move_submit
from tests.games.helpers import hand_state, version_of

pytestmark = pytest.mark.django_db


def discard(table, user, key, version=None):
    state = hand_state(table)
    tile = engine.format_tile(state.racks[state.turn][0])
    return move_submit(
        table_id=table.pk,
        user=user,
        move={"kind": "discard", "tile": tile},
        expected_version=version_of(table) if version is None else version,
        idempotency_key=key,
    )


def test_a_key_reused_with_the_current_version_returns_the_first_answer(playing, users):
    first = discard(playing, users[0], "key-1")
    moves, version = Move.objects.count(), version_of(playing)
    again = move_submit(
        table_id=playing.pk,
        user=users[1],
        move={"kind": "draw"},
        expected_version=version,
        idempotency_key="key-1",
    )
    assert again.duplicate and (again.version, again.seq) == (first.version, first.seq)
    assert Move.objects.count() == moves and version_of(playing) == version


def test_a_reused_key_over_http_is_no_error_page(client, playing, users):
    discard(playing, users[0], "key-2")
    client.force_login(users[1])
    response = client.post(
        f"/table/{playing.pk}/move/",
        {"kind": "draw", "version": version_of(playing), "key": "key-2"},
    )
    assert response.status_code == 302


def test_the_debug_error_page_shows_no_local_variable(settings):
    settings.DEBUG = True
    request = RequestFactory().get("/")
    # a local the page must not show (made at run time: the page does show source lines)
    stock_order = "-".join(["R7", "K13", "secret", "stock"])  # noqa: F841
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        response = debug.technical_500_response(request, *sys.exc_info())
    assert b"boom" in response.content
    assert stock_order.encode() not in response.content
