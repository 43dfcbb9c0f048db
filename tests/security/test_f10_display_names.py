"""Finding 10: no look-alike display names. Names are stored in NFKC form, format and bidi
characters are refused, and uniqueness is checked on the normalised, case-folded form (in the
database too)."""

import pytest
from django.db import IntegrityError, transaction

from accounts.models import Profile

pytestmark = pytest.mark.django_db

PASSWORD = "kirmizi-okey-13"


def signup(client, email, name):
    return client.post(
        "/en/accounts/signup/",
        {"email": email, "display_name": name, "password1": PASSWORD, "password2": PASSWORD},
    )


@pytest.fixture
def alice(client):
    assert signup(client, "alice@example.com", "Alice").status_code == 302
    client.logout()


@pytest.mark.parametrize(
    "name",
    [
        "Ali\u200bce",  # zero-width space
        "Alice\u200d",  # zero-width joiner
        "\u202eecilA",  # right-to-left override
        "Ali\u2066ce\u2069",  # bidi isolate
        "Ａｌｉｃｅ",  # fullwidth letters: NFKC makes them "Alice"
        "ALICE",
        " alice ",
    ],
)
def test_a_look_alike_of_a_taken_name_is_refused(client, alice, name):
    response = signup(client, f"{abs(hash(name))}@example.com", name)
    assert response.status_code == 200
    assert Profile.objects.count() == 1


def test_a_name_is_stored_in_its_normal_form(client):
    assert signup(client, "b@example.com", "Ｂｏｒａ　Ｋａｙａ").status_code == 302
    assert Profile.objects.get(user__email="b@example.com").display_name == "Bora Kaya"


def test_format_characters_are_refused_even_in_a_free_name(client):
    response = signup(client, "z@example.com", "Zey\u200bnep")
    assert response.status_code == 200
    assert "invisible" in response.content.decode()


def test_the_database_refuses_two_profiles_with_one_normal_form(django_user_model, alice):
    user = django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)
    user.profile.display_name = "ａｌｉｃｅ"
    with pytest.raises(IntegrityError), transaction.atomic():
        user.profile.save()


def test_a_profile_edit_is_checked_the_same_way(client, alice, django_user_model):
    user = django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)
    client.force_login(user)
    response = client.post("/en/profile/edit/", {"display_name": "Ali\u200bce", "language": "en"})
    assert response.status_code == 200
    user.profile.refresh_from_db()
    assert user.profile.display_name != "Ali\u200bce"
