"""The 101 table's socket frames: a whole 101 and Eşli 101 hand (its openings, additions, an
okey taken back off the table, its end), every frame each seat's page and a spectator's page
receive checked for another seat's tiles. The laid melds are public; a rack is not."""

import re
from collections import Counter

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import AnonymousUser

from games import engine
from games.table.moves import move_submit
from tests.games.conftest import game_started, table_full
from tests.games.helpers import current_hand, version_of
from tests.games.table.test_socket import Pages, connect, frames_of, kind_of, run_async, split_frame

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]

# A deal (first seat 0) whose hand, played by the normal bots at every seat, has a take from
# the left, openings, additions, an okey taken back off a meld and a finish.
SEED_HEX = "00" * 32
# the other attributes a 101 frame names tiles in: the rack's drawn and taken tile, the işlek
# tiles ("tile:meld" pairs), all of them the viewer's own part
OWN_TILES = re.compile(r'data-(?:drawn|taken)="([A-Z0-9]+)"|data-islek="([^"]*)"')


def state_of(table):
    return engine.variant(table.variant).hand_from_dict(current_hand(table).state)


def public_tiles(s) -> Counter:
    """Every tile anyone may see while a 101 hand runs: the indicator and okey, each pile's
    top, the melds and pairs laid (and what their okeys stand for), the tile just taken from
    the left (it lay face up on the pile)."""
    fmt = engine.format_tile
    seen = [fmt(s.indicator), fmt(s.okey)]
    seen += [fmt(p[-1]) for p in s.discards if p]
    for meld in s.table:
        seen += [fmt(t) for t in (*meld.tiles, *meld.stands)]
    if s.taken is not None:
        seen.append(fmt(s.taken))
    return Counter(seen)


def own_tiles(html: str) -> list[str]:
    out = []
    for drawn_or_taken, islek in OWN_TILES.findall(html):
        out += [drawn_or_taken] if drawn_or_taken else [p.split(":")[0] for p in islek.split()]
    return out


def check_frame(html, viewer, s):
    """The frame shows the viewer's own rack and nothing else of anyone's rack."""
    rack, rest, version = split_frame(html)
    if s.phase == "over":  # every rack is shown at the hand's end, with its count
        return version
    own = Counter() if viewer is None else Counter(map(engine.format_tile, s.racks[viewer]))
    if 'id="rack-data"' in html:
        assert viewer is not None, "a spectator is sent no rack"
        assert Counter(rack) == own, "a page shows its own rack and nothing else"
    # (the tile drawn or taken this turn may have gone onto the table since: public then)
    mine = set(own) | set(public_tiles(s))
    assert set(own_tiles(html)) <= mine, "drawn, taken and işlek tiles are the viewer's"
    assert not Counter(rest) - public_tiles(s), "the board shows only public tiles"
    return version


def bot_turn(s, rules) -> list[dict]:
    """The normal bot's moves for the seat to play, as the site's move dicts."""
    return [rules.move_to_dict(m) for m in rules.bot_moves(s, s.turn, "normal")]


@pytest.mark.parametrize("variant", ["101", "esli101"])
def test_a_101_hand_published_to_every_page_never_shows_a_foreign_tile(
    users, variant, monkeypatch, settings
):
    """A whole 101 hand, each seat's turns the normal bot's moves submitted by its player:
    every frame each player's page and a spectator's page receive shows that player's own rack
    and the public tiles, nothing of another rack, through the openings, additions, the okey
    taken back and the hand's end."""
    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    settings.OKEY_LAYER_PULSE_SECONDS = 0
    table = game_started(table_full(users, variant=variant))
    rules = table.engine_variant
    sent = []
    monkeypatch.setattr("games.table.publish.messages_send", sent.extend)
    pages = Pages()
    viewers = [0, 1, 2, 3, None]
    frames = [async_to_sync(pages.open)(table, u) for u in users]
    frames.append(async_to_sync(pages.open)(table, AnonymousUser()))
    s = state_of(table)
    assert len(s.racks[0]) == 22
    for page, viewer in zip(frames, viewers, strict=True):
        assert [kind_of(f) for f in page] == ["full"]
        check_frame(page.pop(), viewer, s)
    version, kinds = version_of(table), Counter()
    while s.phase != "over":
        for move in bot_turn(s, rules):
            mover = s.turn
            move_submit(table_id=table.pk, user=users[mover], move=move, expected_version=version)
            kinds[move["kind"]] += 1
            async_to_sync(pages.deliver)(sent)
            sent.clear()
            s = state_of(table)
            for page, viewer in zip(frames, viewers, strict=True):
                assert page, "every page hears every move"
                for html in page:
                    check_frame(html, viewer, s)
                if s.phase == "over":  # the hand's end: every page shows the table again
                    assert [kind_of(f) for f in page] == ["full"]
                page.clear()
            version += 1
            if s.phase == "over":
                break
    assert s.result.finisher is not None
    assert {"take", "lay", "add", "take_okey"} <= set(kinds), kinds
    async_to_sync(pages.close)()


@run_async
async def test_a_101_hands_first_opening_through_sockets_never_shows_a_foreign_tile(
    users, settings
):
    """The frames of the test above through the socket stack (the in-memory channel layer and
    Channels' consumers), up to and including the hand's first opening."""
    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    table = await sync_to_async(lambda: game_started(table_full(users, variant="101")))()
    rules = table.engine_variant
    viewers = [0, 1, 2, 3, None]
    socks = [await connect(table, u) for u in users] + [await connect(table, AnonymousUser())]
    s = await sync_to_async(state_of)(table)
    for sock, viewer in zip(socks, viewers, strict=True):
        html = await sock.receive_from()
        assert kind_of(html) == "full"
        check_frame(html, viewer, s)
    version, laid = await sync_to_async(version_of)(table), False
    while not laid:
        for move in bot_turn(s, rules):
            mover = s.turn
            await socks[mover].send_json_to(
                {"action": "move", **move, "version": version, "key": f"k{version}"}
            )
            received = [await frames_of(sock, until={"event"}) for sock in socks]
            s = await sync_to_async(state_of)(table)
            for page, viewer in zip(received, viewers, strict=True):
                for html in page:
                    check_frame(html, viewer, s)
            version += 1
            laid = laid or move["kind"] == "lay"
    assert s.table, "somebody opened"
    for sock in socks:
        await sock.disconnect()
