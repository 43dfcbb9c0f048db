"""Staff schedule an arena in the admin, which calls the service; recurring ones too."""

import re

import pytest
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.contrib.auth.models import Permission
from django.test import Client

from games.models import Tournament, TournamentSchedule

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(django_user_model):
    user = django_user_model.objects.create_user(
        "organiser", "org@example.com", "pw-staff-1234", is_staff=True
    )
    codenames = ["add_tournament", "change_tournament", "view_tournament", "add_tournamentschedule",
                 "change_tournamentschedule", "view_tournamentschedule"]  # fmt: skip
    user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    TOTP.activate(user, generate_totp_secret())  # the admin opens to a second factor only
    client = Client()
    client.force_login(user)
    return client, user


FORM = {
    "name": "Cuma gecesi arenası",
    "starts_0": "2026-12-11",
    "starts_1": "21:00:00",
    "minutes": "60",
    "rated": "on",
    "mode": "esli",
    "turn_seconds": "20",
    "start_count": "20",
    "hand_limit": "2",
    "colour_doubling": "on",
    "indicator_bonus": "on",
    "bot_strength": "normal",
    "entrants-TOTAL_FORMS": "0",
    "entrants-INITIAL_FORMS": "0",
}


def test_staff_schedule_a_tournament_through_the_service(staff_client):
    client, user = staff_client
    r = client.post("/admin/games/tournament/add/", FORM)
    assert r.status_code == 302, re.findall(r"errorlist.{0,300}", r.content.decode())
    (t,) = Tournament.objects.all()
    assert t.name == "Cuma gecesi arenası" and t.created_by == user and t.rated and not t.bots
    assert t.options["mode"] == "esli" and t.options["turn_seconds"] == 20
    assert t.options["hand_limit"] == 2 and t.options["seats"] == 4
    assert t.options["private"] is True and t.options["practice"] is False
    # the change page shows it, and only its name may change
    assert client.get(f"/admin/games/tournament/{t.pk}/change/").status_code == 200


def test_a_tournament_the_tables_could_not_play_is_refused_in_the_form(staff_client):
    client, _ = staff_client
    r = client.post("/admin/games/tournament/add/", {**FORM, "minutes": "1"})
    assert r.status_code == 200 and not Tournament.objects.exists()


def test_staff_make_a_recurring_tournament(staff_client):
    client, _ = staff_client
    form = {k: v for k, v in FORM.items() if not k.startswith(("starts", "entrants"))}
    form.update({"weekday": "4", "at": "21:00", "timezone": "Europe/Istanbul",
                 "days_ahead": "7", "active": "on"})  # fmt: skip
    r = client.post("/admin/games/tournamentschedule/add/", form)
    assert r.status_code == 302, re.findall(r"errorlist.{0,300}", r.content.decode())
    (s,) = TournamentSchedule.objects.all()
    assert s.options["mode"] == "esli" and s.weekday == 4
