import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

PASSWORD = "kirmizi-okey-13"


@pytest.fixture
def player(db):
    """A signed-up player whose e-mail address is verified."""
    user = get_user_model().objects.create_user("zeynep", "zeynep@example.com", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.fixture
def player_client(client, player):
    client.force_login(player)
    return client


@pytest.fixture(autouse=True)
def _mail_by_task(celery_eager, commit_per_request):
    """Mail is sent by a Celery task after commit (accounts/tasks.py): here the task runs at
    once, when the request's transaction would have committed."""
