"""Finding 12: chat is limited per user across tables and kept for a set time; following a
GET (a cross-site link or image) never seats anyone."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import ServiceError
from games.invites.services import invite_create, token_hash
from games.models import ChatMessage, Invite
from games.table.chat import CHAT_BURST, chat_post, chat_prune
from games.table.create import table_create

pytestmark = pytest.mark.django_db


def test_chat_is_limited_per_user_across_tables(users):
    tables = [table_create(manager=users[i], options={}) for i in range(3)]
    for k in range(CHAT_BURST):
        chat_post(table_id=tables[k % 3].pk, user=users[3], text=f"hi {k}")
    with pytest.raises(ServiceError) as e:
        chat_post(table_id=tables[2].pk, user=users[3], text="one more")
    assert e.value.code == "chat_fast"
    assert ChatMessage.objects.filter(user=users[3]).count() == CHAT_BURST
    chat_post(table_id=tables[2].pk, user=users[2], text="someone else")


def test_old_chat_is_pruned(users, settings):
    settings.OKEY_CHAT_KEEP = timedelta(days=7)
    table = table_create(manager=users[0], options={})
    old = chat_post(table_id=table.pk, user=users[0], text="old")
    new = chat_post(table_id=table.pk, user=users[1], text="new")
    ChatMessage.objects.filter(pk=old.pk).update(created=timezone.now() - timedelta(days=8))
    assert chat_prune() == 1
    assert list(ChatMessage.objects.values_list("pk", flat=True)) == [new.pk]


def test_the_beat_schedule_prunes_chat(settings):
    assert settings.CELERY_BEAT_SCHEDULE["chat-prune"]["task"] == "games.tasks.chat_prune_task"


def test_following_links_by_get_seats_nobody(client, users, django_user_model):
    """A page elsewhere can make a signed-in victim's browser GET the invite link and then
    /invite/continue/: neither may seat them; taking the seat is a POST from the site."""
    table = table_create(manager=users[0], options={"mode": "esli"})
    invite = invite_create(table_id=table.pk, inviter=users[0], email="v@example.com", seat_index=2)
    Invite.objects.filter(pk=invite.pk).update(token_hash=token_hash("planted-token-0123456789"))
    victim = django_user_model.objects.create_user("victim", "v@example.com", "pw-okey-1234")
    client.force_login(victim)
    assert client.get("/invite/planted-token-0123456789/").status_code == 200
    response = client.get("/invite/continue/")
    assert response.status_code in (200, 302)
    assert not table.seats.filter(user=victim).exists()
    # the page it leads to has the button that seats them, by POST
    page = client.get("/invite/continue/", follow=True).content.decode()
    assert "data-take-seat" in page
    client.post("/invite/planted-token-0123456789/")
    assert table.seats.filter(user=victim, index=2).exists()
