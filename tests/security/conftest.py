"""The security review's findings, one test module each (issue 20).

The table fixtures are those of tests/games (``users``, ``playing``, ``fixed_seed``,
``in_memory_layer``), so that a finding's test reads like the game tests beside it.
"""

from tests.games.conftest import (  # noqa: F401  (fixtures)
    _fast_passwords,
    fixed_seed,
    in_memory_layer,
    playing,
    users,
)
