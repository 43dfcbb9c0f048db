"""Serve okeysite's ASGI application (HTTP and WebSocket) with daphne, for the
`asgi_live_server` fixture: `python -m tests.browser.asgi_server PORT`.

The fixture passes settings to override as JSON in OKEY_LIVE_SETTINGS, chiefly the test
database's name, so this process works on the same data as the test that started it.
"""

import json
import os
import sys


def main():
    port = int(sys.argv[1])
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
    from django.conf import settings

    for name, value in json.loads(os.environ.get("OKEY_LIVE_SETTINGS", "{}")).items():
        setattr(settings, name, value)

    from daphne.server import Server

    from okeysite.asgi import application  # sets Django up

    Server(
        application,
        endpoints=[f"tcp:port={port}:interface=127.0.0.1"],
        signal_handlers=True,
        verbosity=0,
    ).run()


if __name__ == "__main__":
    main()
