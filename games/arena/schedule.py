"""Scheduling arenas: one tournament (staff in the admin, later perhaps players), and the
recurring ones that Celery beat makes a few days ahead."""

from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import OptionError
from games.errors import ServiceError
from games.models import Tournament, TournamentSchedule
from games.policy import options_stored, table_choices, table_variant

SEATS = 4  # an arena seats four at every table
MINUTES = (5, 12 * 60)
NAME_MAX = 80


def arena_options(options: dict, *, rated: bool, bots: bool) -> dict:
    """The tables' options as stored: the game and its rules chosen (any variant the site
    offers, checked as a table's are) with the tournament's policy: rated or practice, bots or not, and private, so
    that a big arena's tables do not fill the lobby's list."""
    try:
        rules, policy = table_choices(options)
    except (OptionError, TypeError) as e:
        raise ServiceError("bad_options", str(e)) from None
    if rules.seats != SEATS:
        raise ServiceError("bad_seats", _("An arena's tables have four seats."))
    policy = replace(policy, practice=not rated, bots_fill=bots, private=True, lesson=False)
    # the game's name beside its options, as a table's choices name it (games.policy)
    return {**options_stored(rules, policy), "variant": table_variant(rules)}


def _checked(name, minutes) -> str:
    name = " ".join(str(name or "").split())
    if not name or len(name) > NAME_MAX:
        raise ServiceError(
            "bad_name",
            _("Give the tournament a name of at most %(n)d characters.") % {"n": NAME_MAX},
        )
    low, high = MINUTES
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not low <= minutes <= high:
        raise ServiceError(
            "bad_length",
            _("A tournament lasts from %(low)d to %(high)d minutes.") % {"low": low, "high": high},
        )
    return name


def tournament_schedule(
    *, name, options: dict, starts, minutes: int, rated: bool = True, bots: bool = False, by=None
) -> Tournament:
    """A tournament that starts at ``starts`` and lasts ``minutes``, its tables played with
    ``options`` (a table's: variant, turn time, hands a game...)."""
    name = _checked(name, minutes)
    if starts is None or timezone.is_naive(starts):
        raise ServiceError("bad_start", _("Give the start as a date and time."))
    stored = arena_options(options, rated=rated, bots=bots)
    return Tournament.objects.create(
        name=name,
        options=stored,
        rated=rated,
        bots=bots,
        starts=starts,
        minutes=minutes,
        created_by=by if by is not None and by.is_authenticated else None,
    )


def schedule_check(schedule: TournamentSchedule) -> None:
    """Refuse a recurring tournament that could not make its tournaments (the admin's form)."""
    _checked(schedule.name, schedule.minutes)
    arena_options(schedule.options, rated=schedule.rated, bots=schedule.bots)
    try:
        ZoneInfo(schedule.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ServiceError("bad_timezone", _("That is not a time zone.")) from None


def schedule_starts(schedule: TournamentSchedule, now) -> list:
    """The starts of ``schedule`` from ``now`` to ``days_ahead`` days later (aware, in UTC):
    its weekday at its local time, whatever the offset of that day (summer time)."""
    zone = ZoneInfo(schedule.timezone)
    local_now = now.astimezone(zone)
    out = []
    for d in range(schedule.days_ahead + 1):
        day = (local_now + timedelta(days=d)).date()
        if day.weekday() != schedule.weekday:
            continue
        start = datetime.combine(day, schedule.at, tzinfo=zone)
        if start > now:
            out.append(start.astimezone(ZoneInfo("UTC")))
    return out


def schedules_make(now=None) -> int:
    """Make the tournaments of every active recurring tournament that start within its days
    ahead and do not exist yet; how many were made. Beat runs it; a run that is late or
    repeated makes nothing twice (one tournament per schedule and start, a unique constraint)."""
    now = now or timezone.now()
    made = 0
    for schedule in TournamentSchedule.objects.filter(active=True):
        try:
            schedule_check(schedule)
        except ServiceError:
            continue  # saved before a check refused it: the admin shows it, nothing is made
        for starts in schedule_starts(schedule, now):
            if Tournament.objects.filter(schedule=schedule, starts=starts).exists():
                continue
            try:
                with transaction.atomic():
                    t = tournament_schedule(
                        name=schedule.name,
                        options=schedule.options,
                        starts=starts,
                        minutes=schedule.minutes,
                        rated=schedule.rated,
                        bots=schedule.bots,
                    )
                    t.schedule = schedule
                    t.save(update_fields=["schedule"])
            except IntegrityError:
                continue  # another run made it meanwhile
            made += 1
    return made
