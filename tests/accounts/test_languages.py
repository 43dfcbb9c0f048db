"""A signed-in player's pages are in their profile's language, wherever the link came from
(accounts/languages.py): `/` typed in, an e-mail's link, a bookmark."""

import pytest


@pytest.fixture
def english(player):
    player.profile.language = "en"
    player.profile.save()
    return player


def test_an_english_profile_gets_english_at_the_root(client, english):
    client.force_login(english)
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="tr")
    assert (response.status_code, response["Location"]) == (302, "/en/")
    page = client.get("/en/leaderboard/?page=1")
    assert page.status_code == 200 and 'lang="en"' in page.content.decode()
    assert client.get("/leaderboard/?page=1")["Location"] == "/en/leaderboard/?page=1"


def test_an_address_that_names_its_language_is_left_alone(player_client, english):
    assert player_client.get("/en/leaderboard/").status_code == 200
    english.profile.language = "tr"
    english.profile.save()
    assert player_client.get("/en/leaderboard/").status_code == 200  # a link to English pages
    assert player_client.get("/leaderboard/").status_code == 200


def test_visitors_htmx_posts_and_unpaged_paths_are_left_alone(client, english):
    assert client.get("/").status_code == 200  # not signed in: the site's default
    client.force_login(english)
    assert client.get("/", HTTP_HX_REQUEST="true").status_code == 200
    assert client.get("/healthz").status_code in (200, 503)  # outside the translated pages
    response = client.post("/i18n/setlang/", {"language": "tr", "next": "/"})
    assert response["Location"] == "/"
    assert client.get("/").status_code == 200  # the switch wrote the profile: Turkish now
