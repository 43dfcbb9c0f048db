"""bench/load.py --game 101's players: reading only the frames the site sends each of them, four
of them play a 101 hand to its end with no move refused, opening, laying and adding as people do
(so that a load run measures 101's moves, not refusals)."""

import random
from collections import Counter

import pytest
from asgiref.sync import async_to_sync

from bench.loadlib.players import Player101, TablePace
from bench.loadlib.stats import Recorder
from games.table.moves import move_submit
from tests.games.conftest import game_started, table_full
from tests.games.helpers import current_hand
from tests.games.table.test_socket import Pages

pytestmark = pytest.mark.django_db(transaction=True)


def test_101_players_play_a_hand_to_its_end_from_their_frames(
    django_user_model, monkeypatch, settings
):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    users = [
        django_user_model.objects.create_user(username=f"p{i}", email=f"p{i}@example.com")
        for i in range(4)
    ]
    settings.OKEY_TEST_SEED_HEX = "09" * 32
    settings.OKEY_LAYER_PULSE_SECONDS = 0
    table = game_started(table_full(users, variant="101"))
    sent = []
    monkeypatch.setattr("games.table.publish.messages_send", sent.extend)
    pages, rec = Pages(), Recorder()
    players = [
        Player101(
            url="",
            origin="",
            table=table.pk,
            seat=i,
            cookie="c",
            recorder=rec,
            pace=TablePace(rate=0.0, think=0.0),
            rng=random.Random(i),
        )  # fmt: skip
        for i in range(4)
    ]
    frames = [async_to_sync(pages.open)(table, u) for u in users]

    def hear():
        async_to_sync(pages.deliver)(sent)
        sent.clear()
        for player, page in zip(players, frames, strict=True):
            for text in page:
                player.absorb(text)
            page.clear()

    hear()
    rules, kinds = table.engine_variant, Counter()
    state = rules.hand_from_dict(current_hand(table).state)
    while state.phase != "over" and sum(kinds.values()) < 400:
        chosen = [(i, p.move_choose()) for i, p in enumerate(players) if p.may_move()]
        chosen = [(i, m) for i, m in chosen if m]
        assert [i for i, _ in chosen] == [state.turn], "only the seat to play has a move"
        seat, message = chosen[0]
        move = {k: v for k, v in message.items() if k not in ("action", "version", "key")}
        # refused, this raises: every move the players choose is legal
        move_submit(
            table_id=table.pk, user=users[seat], move=move, expected_version=message["version"]
        )
        kinds[move["kind"]] += 1
        hear()
        state = rules.hand_from_dict(current_hand(table).state)
    assert state.phase == "over", kinds
    assert {"draw", "lay", "add", "discard"} <= set(kinds), kinds
    assert not rec.errors, rec.errors
    async_to_sync(pages.close)()
