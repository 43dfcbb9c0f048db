"""Recurring arenas: beat makes each week's tournament ahead, at its local time, once."""

from datetime import UTC, datetime, time

import pytest

from games.arena.schedule import schedules_make
from games.models import Tournament, TournamentSchedule

pytestmark = pytest.mark.django_db


def friday_night(**kw):
    values = {
        "name": "Cuma akşamı arenası",
        "options": {"mode": "esli", "hand_limit": 4},
        "weekday": 4,
        "at": time(21, 0),
        "timezone": "Europe/Istanbul",
        "minutes": 60,
    }
    values.update(kw)
    return TournamentSchedule.objects.create(**values)


def test_fridays_at_21_istanbul_are_made_a_week_ahead_once():
    schedule = friday_night()
    monday = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
    assert schedules_make(monday) == 1
    (t,) = Tournament.objects.all()
    assert t.starts == datetime(2026, 12, 11, 18, 0, tzinfo=UTC)  # 21:00 at UTC+3
    assert t.schedule == schedule and t.name == schedule.name and t.options["mode"] == "esli"
    assert t.minutes == 60 and t.rated
    assert schedules_make(monday) == 0  # a repeated run makes nothing twice
    assert schedules_make(datetime(2026, 12, 12, 9, 0, tzinfo=UTC)) == 1  # the next Friday


def test_a_start_already_past_is_not_made_and_an_inactive_schedule_makes_nothing():
    friday_night(active=False)
    assert schedules_make(datetime(2026, 12, 7, 9, 0, tzinfo=UTC)) == 0
    friday_night(active=True, days_ahead=0)
    friday_evening_late = datetime(2026, 12, 11, 19, 0, tzinfo=UTC)
    assert schedules_make(friday_evening_late) == 0


def test_a_schedule_with_options_that_cannot_be_played_makes_nothing():
    friday_night(options={"mode": "duz", "seats": 2})
    assert schedules_make(datetime(2026, 12, 7, 9, 0, tzinfo=UTC)) == 0
