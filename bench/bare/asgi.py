"""ASGI application of the bare consumer: `daphne bench.bare.asgi:application`.

The site's settings (database, channel layer, sessions), the same origin check and session
authentication in front of the socket, and one route: ws/bare/<table>/. /healthz answers so the
harness knows when it is up.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from bench.bare.consumer import BareConsumer  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(
                URLRouter([path("ws/bare/<int:table_id>/", BareConsumer.as_asgi())])
            )
        ),
    }
)
