from datetime import timedelta

import pytest
from django.utils import timezone

from games.arena.schedule import tournament_schedule


@pytest.fixture
def players(db, django_user_model):
    return [
        django_user_model.objects.create_user(
            username=f"arena{i}", email=f"arena{i}@example.com", password="pw-okey-1234"
        )
        for i in range(1, 9)
    ]


@pytest.fixture(autouse=True)
def _arena_quiet(settings, in_memory_layer):
    settings.OKEY_ARENA_BOT_WAIT = 20.0
    settings.OKEY_ARENA_REPEAT_WAIT = 20.0


def arena(**kw):
    """A tournament that started a minute ago and runs an hour: one hand a game, Düz."""
    values = {
        "name": "Friday arena",
        "options": {"mode": "duz", "hand_limit": 1},
        "starts": timezone.now() - timedelta(minutes=1),
        "minutes": 60,
    }
    values.update(kw)
    return tournament_schedule(**values)
