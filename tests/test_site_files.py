"""What browsers, phones and link previews ask of the site: the web manifest, the icons, and
the description and og: tags of public pages (a table's link says its variant and seats)."""

import json
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from games.table.create import table_create
from tests.games.conftest import fixed_seed, in_memory_layer, table_full, users

__all__ = ["fixed_seed", "in_memory_layer", "users"]  # fixtures shared with tests/games

IMG = Path(__file__).resolve().parent.parent / "static" / "img"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


def test_the_icons_are_pngs_of_their_sizes():
    assert png_size(IMG / "apple-touch-icon.png") == (180, 180)
    assert png_size(IMG / "icon-192.png") == (192, 192)
    assert png_size(IMG / "icon-512.png") == (512, 512)
    ico = (IMG / "favicon.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind) == (0, 1) and count >= 2  # an icon file holding several sizes


@pytest.mark.django_db
def test_the_web_manifest(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["name"] == "Okey" and data["start_url"] == "/"
    sizes = {i["sizes"] for i in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon
    assert data["lang"] == "tr"


@pytest.mark.django_db
def test_the_web_manifest_speaks_the_pages_language(client):
    """Issue 42: the manifest was Turkish only."""
    data = json.loads(client.get("/en/manifest.webmanifest").content)
    assert data["lang"] == "en" and data["start_url"] == "/en/"
    assert data["description"].startswith("Play Düz and Eşli Okey")
    html = client.get("/en/leaderboard/").content.decode()
    assert '<link rel="manifest" href="/en/manifest.webmanifest">' in html


@pytest.mark.django_db
def test_favicon_ico_is_answered(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    assert b"".join(response.streaming_content) == (IMG / "favicon.ico").read_bytes()


@pytest.mark.django_db
def test_every_page_links_its_icons_and_says_what_it_is(client):
    html = client.get("/leaderboard/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    html = client.get("/en/leaderboard/").content.decode()
    assert 'rel="apple-touch-icon"' in html and html.count('rel="icon"') == 1
    assert '<meta name="description" content="Play Düz and Eşli Okey live' in html
    assert '<meta property="og:url" content="http://testserver/en/leaderboard/">' in html
    assert 'property="og:image" content="http://testserver/static/img/icon-512.png"' in html


@pytest.mark.django_db
def test_a_tables_link_shows_its_variant_and_seats(client, users, in_memory_layer):
    table = table_full(users[:2], mode="duz")  # two of its four seats taken
    html = client.get(f"/table/{table.pk}/").content.decode()
    assert '<meta name="description" content="Düz Okey · 2/4 yer dolu">' in html
    assert f'<meta property="og:title" content="Okey masası {table.pk}">' in html
    html = client.get(f"/en/table/{table.pk}/").content.decode()
    assert '<meta property="og:description" content="Düz Okey · 2/4 seats taken">' in html


@pytest.mark.django_db
def test_a_private_table_tells_a_stranger_nothing(client, users, in_memory_layer):
    table = table_create(manager=users[0], options={"private": True})
    response = client.get(f"/en/table/{table.pk}/")
    assert response.status_code == 404 and "Okey table" not in response.content.decode()
