import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
django_asgi_app = get_asgi_application()  # before importing consumers: it sets up the app registry

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from okeysite.accesslog import AccessLog  # noqa: E402
from okeysite.clients import LoopbackOnly, TrustedProxies  # noqa: E402
from okeysite.logcontext import ConnectionIds  # noqa: E402
from okeysite.request_connections import request_connections_close_connect  # noqa: E402

request_connections_close_connect()

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
# AccessLog inside TrustedProxies: each request's line names the client the proxies saw
application = ConnectionIds(LoopbackOnly(TrustedProxies(AccessLog(router))))

from okeysite.gc_pauses import gc_settle  # noqa: E402

gc_settle()  # last: everything loaded above is frozen out of the collector's walks
