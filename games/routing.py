from django.urls import path

import okeysite.converters  # noqa: F401  (registers <id:...>)
from games.arena.socket import ArenaConsumer
from games.lobby.socket import LobbyConsumer
from games.social.socket import PlayerConsumer
from games.table.socket import TableConsumer

websocket_urlpatterns = [
    path("ws/table/<id:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/player/", PlayerConsumer.as_asgi()),
    path("ws/arena/<id:tournament_id>/", ArenaConsumer.as_asgi()),
]
