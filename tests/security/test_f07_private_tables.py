"""Finding 7: a private table's page, socket, chat and hand checks are for its manager, the
people seated there and the people invited to it; to anyone else it does not exist."""

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games.errors import ServiceError
from games.invites.services import invite_create
from games.models import ChatMessage
from games.routing import websocket_urlpatterns
from games.table.chat import chat_post
from games.table.create import table_create


@pytest.fixture
def private(db, users):
    table = table_create(manager=users[0], options={"private": True})
    invite_create(table_id=table.pk, inviter=users[0], email=users[2].email, seat_index=2)
    return table


@pytest.fixture
def outsider(django_user_model):
    return django_user_model.objects.create_user("outsider", "out@example.com", "pw-okey-1234")


def page_status(user, url) -> int:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(url).status_code


@pytest.mark.django_db
def test_the_page_is_for_the_manager_and_the_invited_only(private, users, outsider):
    url = f"/table/{private.pk}/"
    assert page_status(users[0], url) == 200
    assert page_status(users[2], url) == 200  # invited, not yet seated
    assert page_status(outsider, url) == 404
    assert page_status(users[3], url) == 404
    assert page_status(None, url) == 404
    public = table_create(manager=users[1], options={})
    assert page_status(outsider, f"/table/{public.pk}/") == 200


@pytest.mark.django_db
def test_an_outsider_cannot_chat_at_a_private_table(private, outsider, users):
    with pytest.raises(ServiceError) as e:
        chat_post(table_id=private.pk, user=outsider, text="hello")
    assert e.value.code == "no_table"
    assert not ChatMessage.objects.exists()
    chat_post(table_id=private.pk, user=users[0], text="hello")


def socket_accepted(table, user) -> bool:
    async def attempt():
        comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{table.pk}/")
        comm.scope["user"] = user
        connected, _ = await comm.connect()
        await comm.disconnect()
        return connected

    return async_to_sync(attempt)()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("in_memory_layer")
def test_the_socket_is_refused_to_outsiders(private, users, outsider):
    assert socket_accepted(private, users[0])
    assert not socket_accepted(private, outsider)
    assert not socket_accepted(private, AnonymousUser())
