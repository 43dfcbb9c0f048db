"""Finding 9: malformed input gets a clear refusal, never a crash: JSON nested past any message
of ours on the socket, and ids too large for the database in URLs."""

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.routing import websocket_urlpatterns

HUGE = "9223372036854775808"  # 2**63: one past the largest id the database holds


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        f"/table/{HUGE}/",
        f"/table/{HUGE}/hand/1/verify/",
        f"/table/1/hand/{HUGE}/verify/",
        f"/table/{HUGE}/arrange/?how=runs",
        f"/profile/{HUGE}/",
        "/table/" + "9" * 400 + "/",
    ],
)
def test_an_id_too_large_is_not_found(client, users, url):
    client.force_login(users[0])
    assert client.get(url).status_code == 404


@pytest.mark.django_db
def test_a_post_with_an_id_too_large_is_not_found(client, users):
    client.force_login(users[0])
    assert client.post(f"/table/{HUGE}/sit/", {"seat": "0"}).status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("in_memory_layer")
def test_deeply_nested_json_on_the_socket_is_refused_and_the_socket_stays(playing, users):
    async def exchange():
        comm = WebsocketCommunicator(
            URLRouter(websocket_urlpatterns), f"/ws/table/{playing.pk}/?lang=en"
        )
        comm.scope["user"] = users[0]
        assert (await comm.connect())[0]
        await comm.receive_from(10)  # the table
        answers = []
        for text in ("[" * 1900, '{"action": "move", "kind": ' + "[" * 500 + "]" * 500 + "}"):
            await comm.send_to(text_data=text)
            answers.append(await comm.receive_from(10))
        await comm.send_to(text_data='{"action": "sync", "version": -1}')
        answers.append(await comm.receive_from(10))  # still served
        await comm.disconnect()
        return answers

    nested, wrapped, after = async_to_sync(exchange)()
    assert "not understood" in nested and 'id="table-message"' in nested
    assert "not understood" in wrapped
    assert 'id="table-version"' in after


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("in_memory_layer")
def test_a_socket_for_an_id_too_large_is_refused(users):
    async def attempt():
        comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/table/{HUGE}/")
        comm.scope["user"] = users[0]
        try:
            connected, _ = await comm.connect()
        except ValueError as e:  # the URL router: no route for it
            return str(e)
        return connected

    answer = async_to_sync(attempt)()
    assert answer is False or "No route found" in answer
