"""The security review's findings, one test module each (issue 20).

The table fixtures are those of tests/games (``users``, ``playing``, ``fixed_seed``,
``in_memory_layer``), so that a finding's test reads like the game tests beside it; the browser
fixtures (``browser``, ``asgi_live_server``) are those of tests/browser.
"""

from tests.browser.conftest import (  # noqa: F401  (fixtures)
    _asgi_live_server_process,
    asgi_live_server,
    browser,
)
from tests.games.conftest import (  # noqa: F401  (fixtures)
    _fast_passwords,
    fixed_seed,
    in_memory_layer,
    playing,
    users,
)
