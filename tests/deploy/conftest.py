from tests.games.conftest import (  # noqa: F401  (fixtures: test_backup.py plays a table)
    fixed_seed,
    in_memory_layer,
    users,
)
