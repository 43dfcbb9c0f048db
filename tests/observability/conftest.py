from tests.games.conftest import (  # noqa: F401  (fixtures)
    _fast_passwords,
    fixed_seed,
    in_memory_layer,
    playing,
    users,
)
