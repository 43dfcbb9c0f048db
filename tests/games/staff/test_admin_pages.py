"""Every page of the admin opens for staff whatever the site holds: tables with bots (quick
play's, a table of bots), a guest's practice table, a deleted player's past game, Eşli teams with
names, every game the table form offers, invites, chat, staff actions. A list that answered 500
for any table with a bot (a lazy "bot" inside str.join) went unseen because no test opened the
list with one."""

import pytest
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.contrib import admin
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.deletion import account_delete
from games.invites.services import invite_create
from games.lobby.forms import TableForm
from games.models import Seat, Table
from games.staff.services import hand_void_redeal, table_close
from games.table.bots import bot_table_create
from games.table.chat import chat_post
from games.table.create import table_create, team_names_set
from games.table.lifecycle import game_start
from tests.games.conftest import game_started, table_full
from tests.games.helpers import play_moves

pytestmark = pytest.mark.django_db

MODES = [value for value, _label in TableForm.base_fields["mode"].choices]


@pytest.fixture
def superuser(django_user_model):
    user = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1234")
    TOTP.activate(user, generate_totp_secret())  # the admin asks for a second factor
    return user


@pytest.fixture
def everything(django_user_model, users, fixed_seed, in_memory_layer, celery_eager, superuser):
    """Tables of every kind the admin lists."""
    tables = []
    for mode in MODES:
        table = game_started(table_full(users, mode=mode))
        play_moves(table, 3)
        tables.append(table)
        if mode == "esli":
            team_names_set(table_id=table.pk, user=users[0], team_a="Çaylar", team_b="Simitler")
    # a table of bots, dealt
    bots = bot_table_create(manager=users[1], options={})
    bots.refresh_from_db()
    assert game_start(table_id=bots.pk, expected_version=bots.game.version)
    # a guest's practice table with bots (quick play as a visitor)
    guest = Client()
    assert guest.post("/play/quick/", {"mode": "duz"}).status_code == 302
    # a player invited by e-mail, a chat line, staff actions, a voided hand
    open_table = table_create_open(users[2])
    invite_create(table_id=open_table.pk, inviter=users[2], email="new@example.com", seat_index=1)
    chat_post(table_id=tables[0].pk, user=users[0], text="iyi oyunlar")
    hand_void_redeal(table_id=tables[0].pk, staff=superuser, reason="checked")
    table_close(table_id=tables[-1].pk, staff=superuser, reason="checked")
    # a player who deleted their account: their seat and results stay as "Deleted player"
    gone = django_user_model.objects.create_user("gone", "gone@example.com", "pw-gone-1234")
    table = game_started(table_full([gone, *users[1:]]))
    play_moves(table, 2)
    account_delete(gone)
    assert Seat.objects.filter(is_bot=True).exists()
    assert Table.objects.count() >= len(MODES) + 4


def table_create_open(user):
    return table_create(manager=user, options={"private": True})


@pytest.mark.parametrize("language", ["tr", "en"])
def test_every_admin_list_and_page_opens_with_bots_guests_deleted_players_and_teams(
    everything, superuser, language
):
    client = Client()
    client.force_login(superuser)
    with translation.override(language):
        index = client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE=language)
    assert index.status_code == 200
    opened = 0
    for model, model_admin in admin.site._registry.items():
        meta = model._meta
        with translation.override(language):
            changelist = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        response = client.get(changelist, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, (changelist, response.content[:2000])
        for obj in model_admin.get_queryset(response.wsgi_request)[:20]:
            url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
            page = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert page.status_code == 200, (url, page.content[:2000])
            opened += 1
    assert opened > 20


def test_the_table_list_names_the_bots(everything, superuser):
    client = Client()
    client.force_login(superuser)
    page = client.get(reverse("admin:games_table_changelist"), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    # the table of bots, and the guest's practice table (the guest and three bots)
    assert "bot, bot, bot, bot" in page.content.decode()
    assert ", bot, bot, bot" in page.content.decode()
