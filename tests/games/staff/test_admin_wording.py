"""The admin speaks the staff member's language as the rest of the site does: its header names
the site, its sections have names of their own (two both read "HESAPLAR"), its models and fields
are translated (the Turkish upper-casing made "INVİTES" and "TİMEOUTS İN ROW" of English names),
and a table is titled by its number, game and state, not "#8 esli playing"."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.invites.services import invite_create
from games.table.create import table_create
from tests.games.conftest import game_started, table_full
from tests.games.staff.test_admin_pages import superuser  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

WORDING = {
    "tr": {
        "header": "Okey yönetimi",
        "sections": ["Masalar ve oyunlar", "Oyuncular", "Hesaplar"],
        "models": ["Masalar", "Yerler", "Davetler", "Oyunlar", "Eller", "Yetkili işlemleri"],
        "title": "Masa #{id} · Eşli Okey · oynanıyor",
        "fields": ["Üst üste süre aşımı", "Davet eden", "Gönderim sayısı"],
    },
    "en": {
        "header": "Okey administration",
        "sections": ["Tables and games", "Players", "Accounts"],
        "models": ["Tables", "Seats", "Invites", "Games", "Hands", "Staff actions"],
        "title": "Table #{id} · Eşli Okey · playing",
        "fields": ["Timeouts in a row", "Invited by", "Times sent"],
    },
}


def _text(response) -> str:
    """The page's text as read, tags dropped and white space made single spaces."""
    html = response.content.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def staff_client(superuser):  # noqa: F811
    client = Client()
    client.force_login(superuser)
    return client


@pytest.fixture
def esli_table(users, fixed_seed, in_memory_layer, celery_eager):
    return game_started(table_full(users, mode="esli"))


@pytest.fixture
def invited_table(users, in_memory_layer, celery_eager):
    """An open private table with a seat kept by an e-mailed invite (the invites' inline)."""
    table = table_create(manager=users[0], options={"private": True})
    invite_create(table_id=table.pk, inviter=users[0], email="new@example.com", seat_index=1)
    return table


@pytest.mark.parametrize("language", ["tr", "en"])
def test_the_admin_index_names_the_site_its_sections_and_models_in_the_language(
    staff_client, language
):
    words = WORDING[language]
    with translation.override(language):
        url = reverse("admin:index")
    page = _text(staff_client.get(url))
    assert words["header"] in page
    assert "Django" not in page
    for section in words["sections"]:
        assert section in page
    # the players' app and allauth's are two sections with two names
    assert page.count(words["sections"][2]) == 1
    for model in words["models"]:
        assert model in page


@pytest.mark.parametrize("language", ["tr", "en"])
def test_a_tables_change_page_reads_in_the_language(
    staff_client, esli_table, invited_table, language
):
    words = WORDING[language]
    with translation.override(language):
        playing = reverse("admin:games_table_change", args=[esli_table.pk])
        invited = reverse("admin:games_table_change", args=[invited_table.pk])
    page = _text(staff_client.get(playing))
    assert words["header"] in page
    assert words["title"].format(id=esli_table.pk) in page
    assert f"#{esli_table.pk} esli playing" not in page
    assert words["fields"][0] in page  # the seats' inline
    page = _text(staff_client.get(invited))
    for field in words["fields"][1:]:  # the invites' inline
        assert field in page


def test_no_english_field_name_is_left_in_the_turkish_table_pages(
    staff_client, esli_table, invited_table
):
    english = ["invites", "timeouts in row", "is bot", "seats", "table manager", "change table"]
    english += ["inviter", "sent at", "expires at", "sends", "accepted by", "email"]
    for table in (esli_table, invited_table):
        with translation.override("tr"):
            url = reverse("admin:games_table_change", args=[table.pk])
        page = _text(staff_client.get(url)).lower()
        left = [name for name in english if re.search(rf"\b{name}\b", page)]
        assert left == [], left
