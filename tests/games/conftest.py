import pytest

from games.models import Table
from games.table.create import table_create
from games.table.lifecycle import game_start, table_start
from games.table.seats import seat_take

# A fixed deal for tests that must know the tiles (see games/services/seeds.py).
SEED_HEX = "5eed" * 16


@pytest.fixture
def users(django_user_model):
    return [
        django_user_model.objects.create_user(
            username=f"player{i}", email=f"player{i}@example.com", password="pw-okey-1234"
        )
        for i in range(1, 5)
    ]


@pytest.fixture
def fixed_seed(settings):
    settings.OKEY_TEST_SEED_HEX = SEED_HEX
    return bytes.fromhex(SEED_HEX)


@pytest.fixture
def in_memory_layer(settings):
    # Through pytest-django's ``settings``, not a separate override_settings: a test that also
    # sets ``settings.X`` would otherwise undo the two out of order and leave the in-memory layer
    # in place for the rest of the session (the browser tests' broadcasts then went nowhere).
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def table_full(users, **options) -> Table:
    """A table whose seats are all taken by ``users`` in order (user i at seat i)."""
    table = table_create(manager=users[0], options=options)
    for i, user in enumerate(users[1 : table.seat_count], start=1):
        seat_take(table_id=table.pk, user=user, index=i)
    return table


def game_started(table: Table) -> Table:
    """Press Start and run the deal the countdown task would run."""
    version = table_start(table_id=table.pk, user=table.manager)
    assert game_start(table_id=table.pk, expected_version=version)
    table.refresh_from_db()
    return table


@pytest.fixture
def playing(db, users, fixed_seed, in_memory_layer):
    """A four-seat Düz table with the first hand dealt from the fixed seed."""
    return game_started(table_full(users))


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
