"""Reports and staff's sanctions: a report keeps its evidence as it was; staff warn, mute or
suspend from the admin, each in the audit log; a suspension takes effect at once."""

from datetime import timedelta

import pytest
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.errors import ServiceError
from games.models import ChatMessage, Report, Sanction, Seat, StaffAction, Table
from games.social.follows import follow_add
from games.social.reports import REPORTS_PER_HOUR, report_make
from games.staff.sanctions import account_sanction, report_dismiss, sanction_lift
from games.table.chat import chat_post
from games.table.create import table_create
from games.table.seats import seat_take
from tests.games.conftest import game_started, table_full

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    user = django_user_model.objects.create_user(
        "moderator", "mod@example.com", "pw-staff-1234", is_staff=True
    )
    codenames = ["view_report", "view_sanction", "add_sanction", "view_staffaction"]
    user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    TOTP.activate(user, generate_totp_secret())
    return user


@pytest.fixture
def staff_client(staff):
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def chatty(users, in_memory_layer):
    """A four-seat table before its start where seat 2 insulted seat 1."""
    table = table_full(users)
    chat_post(table_id=table.pk, user=users[0], text="good luck all")
    chat_post(table_id=table.pk, user=users[1], text="you are an idiot")
    return table


def test_a_report_keeps_the_chat_as_it_was_when_made(users, chatty):
    report = report_make(
        reporter=users[0], reported_id=users[1].pk, reason="abuse", table_id=chatty.pk
    )
    ChatMessage.objects.all().delete()  # pruned later: the report still holds it
    report.refresh_from_db()
    lines = report.evidence["chat"]
    assert [(line["author"], line["text"]) for line in lines] == [
        (users[0].pk, "good luck all"),
        (users[1].pk, "you are an idiot"),
    ]
    assert report.evidence["table"] == chatty.pk and report.table_id == chatty.pk


@pytest.mark.parametrize(
    "kwargs, code",
    [
        ({"reason": "nonsense"}, "bad_reason"),
        ({"reason": "abuse", "note": "x" * 501}, "note_long"),
        ({"reason": "abuse", "note": ["list"]}, "malformed"),
        ({"reason": "abuse", "table_id": "7"}, "no_table"),
        ({"reason": "abuse", "table_id": 10**9}, "no_table"),
    ],
)
def test_a_malformed_report_is_refused_and_stores_nothing(users, chatty, kwargs, code):
    with pytest.raises(ServiceError) as e:
        report_make(reporter=users[0], reported_id=users[1].pk, **kwargs)
    assert e.value.code == code
    assert not Report.objects.exists()


def test_a_private_table_cannot_be_learned_through_a_report(users, django_user_model):
    """Leak test: a report naming a private table the reporter is not at is answered as for a
    table that does not exist."""
    private = table_create(manager=users[0], options={"private": True})
    outsider = django_user_model.objects.create_user("outsider", "o@example.com", "pw-x-12345")
    answers = []
    for table_id in (private.pk, 10**9):
        with pytest.raises(ServiceError) as e:
            report_make(
                reporter=outsider, reported_id=users[0].pk, reason="abuse", table_id=table_id
            )
        answers.append((e.value.code, str(e.value.message)))
    assert answers[0] == answers[1]


def test_reports_are_limited_per_hour_and_once_per_player_and_table(users, chatty):
    a, b, c, d = users
    report_make(reporter=a, reported_id=b.pk, reason="abuse", table_id=chatty.pk)
    with pytest.raises(ServiceError) as e:
        report_make(reporter=a, reported_id=b.pk, reason="abuse", table_id=chatty.pk)
    assert e.value.code == "reported"
    for other in (c, d):
        report_make(reporter=a, reported_id=other.pk, reason="other")
    report_make(reporter=a, reported_id=b.pk, reason="stalling")
    report_make(reporter=a, reported_id=c.pk, reason="abuse", table_id=chatty.pk)
    assert Report.objects.count() == REPORTS_PER_HOUR
    with pytest.raises(ServiceError) as e:
        report_make(reporter=a, reported_id=d.pk, reason="abuse", table_id=chatty.pk)
    assert e.value.code == "reports_fast"
    assert Report.objects.count() == REPORTS_PER_HOUR


def test_the_admin_lists_a_report_with_its_chat_lines(users, chatty, staff_client):
    report = report_make(
        reporter=users[0], reported_id=users[1].pk, reason="abuse", table_id=chatty.pk
    )
    listing = staff_client.get(reverse("admin:games_report_changelist"))
    assert listing.status_code == 200 and f"{report.pk}" in listing.content.decode()
    page = staff_client.get(reverse("admin:games_report_change", args=[report.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "you are an idiot" in html and "good luck all" in html


def _act(staff_client, report, action, **extra):
    return staff_client.post(
        reverse("admin:games_report_changelist"),
        {"action": action, "_selected_action": [report.pk], "confirm": "yes", **extra},
        follow=True,
    )


def test_staff_suspend_from_the_admin_hands_the_game_to_a_bot_and_bars_the_account(
    users, staff, staff_client, fixed_seed, in_memory_layer
):
    table = game_started(table_full(users, bots_fill=True))
    chat_post(table_id=table.pk, user=users[1], text="idiot")
    report = report_make(
        reporter=users[0], reported_id=users[1].pk, reason="abuse", table_id=table.pk
    )
    asked = staff_client.post(
        reverse("admin:games_report_changelist"),
        {"action": "sanction_suspend", "_selected_action": [report.pk]},
    )
    assert b"staff-hours" in asked.content  # asks for the reason and the time first
    _act(staff_client, report, "sanction_suspend", reason="insults", hours="48")
    sanction = Sanction.objects.get()
    assert sanction.kind == "suspend" and sanction.staff == staff
    assert timedelta(hours=47) < sanction.until - timezone.now() <= timedelta(hours=48)
    seat = Seat.objects.get(table=table, index=1)
    assert seat.user is None and seat.is_bot and seat.left_by == users[1]  # as a leave does
    report.refresh_from_db()
    assert report.status == "actioned" and report.handled_by == staff
    action = StaffAction.objects.get(kind="account_suspend")
    assert action.staff == staff and action.reason == "insults"
    assert action.details["user"] == users[1].pk and action.details["report"] == report.pk
    # and the account cannot sit, chat, follow or open a table, told why and until when
    other = table_create(manager=users[0], options={})
    for call in (
        lambda: seat_take(table_id=other.pk, user=users[1], index=1),
        lambda: chat_post(table_id=table.pk, user=users[1], text="hello?"),
        lambda: follow_add(user=users[1], other_id=users[2].pk),
        lambda: table_create(manager=users[1], options={}),
    ):
        with pytest.raises(ServiceError) as e:
            call()
        assert e.value.code == "suspended" and "insults" in str(e.value.message)


def test_a_sanction_without_a_reason_or_time_is_asked_again_and_nothing_changes(
    users, chatty, staff_client
):
    report = report_make(reporter=users[0], reported_id=users[1].pk, reason="abuse")
    page = _act(staff_client, report, "sanction_mute", reason="", hours="3")
    assert b"staff-reason" in page.content
    _act(staff_client, report, "sanction_mute", reason="spam", hours="0")
    _act(staff_client, report, "sanction_mute", reason="spam", hours="x")
    assert not Sanction.objects.exists() and not StaffAction.objects.exists()


def test_mute_stops_chat_for_its_time_only_and_is_liftable(users, chatty, staff):
    sanction = account_sanction(
        staff=staff, user_id=users[1].pk, kind="mute", reason="spam", hours=2
    )
    with pytest.raises(ServiceError) as e:
        chat_post(table_id=chatty.pk, user=users[1], text="hi")
    assert e.value.code == "muted"
    seat_take(table_id=table_create(manager=users[0], options={}).pk, user=users[1], index=1)
    sanction_lift(staff=staff, sanction_id=sanction.pk, reason="appeal")
    chat_post(table_id=chatty.pk, user=users[1], text="sorry")
    kinds = list(StaffAction.objects.order_by("id").values_list("kind", flat=True))
    assert kinds == ["account_mute", "sanction_lift"]


def test_warn_and_dismiss_are_recorded_and_only_staff_may(users, chatty, staff):
    report = report_make(reporter=users[0], reported_id=users[1].pk, reason="abuse")
    with pytest.raises(ServiceError):
        account_sanction(staff=users[2], user_id=users[1].pk, kind="warn", reason="x")
    with pytest.raises(ServiceError):
        report_dismiss(staff=users[2], report_id=report.pk)
    account_sanction(staff=staff, user_id=users[1].pk, kind="warn", reason="be kind")
    report_dismiss(staff=staff, report_id=report.pk, reason="banter")
    report.refresh_from_db()
    assert report.status == "dismissed"
    assert set(StaffAction.objects.values_list("kind", flat=True)) == {
        "account_warn",
        "report_dismiss",
    }
    assert Table.objects.count() == 1


def test_the_report_form_is_reachable_from_a_table_and_files_the_report(users, chatty):
    client = Client()
    client.force_login(users[0])
    url = reverse("games:report", args=[users[1].pk]) + f"?table={chatty.pk}"
    assert client.get(url).status_code == 200
    response = client.post(url, {"reason": "abuse", "note": "see chat", "table": chatty.pk})
    assert response.status_code == 302
    report = Report.objects.get()
    assert report.note == "see chat" and report.evidence["chat"]
    bad = client.post(url, {"reason": "?", "table": chatty.pk})
    assert bad.status_code == 400 and Report.objects.count() == 1
