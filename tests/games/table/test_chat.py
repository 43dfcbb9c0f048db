import pytest

from games.errors import ServiceError
from games.models import ChatMessage
from games.table import chat
from games.table.chat import chat_post
from games.table.create import table_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(users):
    return table_create(manager=users[0], options={})


def test_a_message_is_stored_on_one_line_and_announced(
    table, users, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr("games.table.chat.chat_publish", lambda t, m: sent.append(t))
    with django_capture_on_commit_callbacks(execute=True):
        chat_post(table_id=table.pk, user=users[1], text="  iyi\n\n oyunlar  ")
    assert ChatMessage.objects.get().text == "iyi oyunlar"
    assert sent == [table.pk]


@pytest.mark.parametrize(
    "text, code",
    [("", "chat_empty"), ("   ", "chat_empty"), ("x" * 201, "chat_long"), (5, "malformed")],
)
def test_bad_messages_are_refused(table, users, text, code):
    with pytest.raises(ServiceError) as e:
        chat_post(table_id=table.pk, user=users[1], text=text)
    assert e.value.code == code and not ChatMessage.objects.exists()


def test_chat_is_rate_limited_per_player(table, users):
    for i in range(chat.CHAT_BURST):
        chat_post(table_id=table.pk, user=users[1], text=f"m{i}")
    with pytest.raises(ServiceError) as e:
        chat_post(table_id=table.pk, user=users[1], text="one more")
    assert e.value.code == "chat_fast"
    chat_post(table_id=table.pk, user=users[2], text="another player may still write")


def test_chat_needs_a_signed_in_user_and_a_table(table, users):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(ServiceError) as e:
        chat_post(table_id=table.pk, user=AnonymousUser(), text="hi")
    assert e.value.code == "not_signed_in"
    with pytest.raises(ServiceError) as e:
        chat_post(table_id=987654, user=users[0], text="hi")
    assert e.value.code == "no_table"
