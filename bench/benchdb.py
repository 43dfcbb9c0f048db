"""What the one-process benchmarks share (socket_move_bench.py, review_bench.py, move_path.py): Django set
up for a bench, a throwaway test database, and a dealt table of four players.

Import it after putting the repository root on sys.path and before anything imports Django's
settings; call ``bench_django`` before importing the project's models.
"""

from contextlib import contextmanager


def bench_django(**settings) -> None:
    """django.setup() with an in-memory channel layer and Celery not eager, plus ``settings``."""
    import django
    from django.conf import settings as django_settings

    django_settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    }
    django_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    django_settings.CELERY_TASK_ALWAYS_EAGER = False
    for name, value in settings.items():
        setattr(django_settings, name, value)
    django.setup()


@contextmanager
def bench_database():
    """A test database (SQLite file, or test_<name> on PostgreSQL) for the block, destroyed
    after it. The next hand is dealt by the bench itself, not by a Celery worker."""
    from django.db import connection
    from django.test.utils import setup_test_environment

    from games.table import deadlines

    setup_test_environment()
    send = deadlines.deadline_send
    deadlines.deadline_send = lambda kind, *args: (
        None if kind in ("start", "next") else send(kind, *args)
    )
    name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    print(f"database: {connection.vendor} ({name})")
    try:
        yield
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


def table_of_four(options=None, lang="tr"):
    """(users, table): four new users (their site in ``lang``) seated at a Düz table whose game
    has started."""
    from django.contrib.auth import get_user_model

    from accounts.models import Profile
    from games.table.create import table_create
    from games.table.lifecycle import game_start, table_start
    from games.table.seats import seat_take

    users = [
        get_user_model().objects.create_user(username=f"bench{i}", email=f"b{i}@example.com")
        for i in range(4)
    ]
    Profile.objects.filter(user__in=users).update(language=lang)
    table = table_create(manager=users[0], options=options or {"hand_limit": 50})
    for i in range(1, 4):
        seat_take(table_id=table.pk, user=users[i], index=i)
    v = table_start(table_id=table.pk, user=users[0])
    game_start(table_id=table.pk, expected_version=v)
    return users, table
