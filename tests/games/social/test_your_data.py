"""A player's follows, blocks, reports and sanctions in their data export, and what deleting the
account does to them (accounts.deletion.USER_ROWS)."""

import pytest

from accounts.deletion import account_delete
from accounts.export import account_export
from games.models import Block, Follow, Report, Sanction, StaffAction
from games.social.blocks import block_add
from games.social.follows import follow_add
from games.social.reports import report_make
from games.staff.sanctions import account_sanction

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(
        "staff", "staff@example.com", "pw-staff-1234", is_staff=True
    )


def test_the_export_holds_follows_blocks_reports_and_sanctions(users, staff):
    a, b, c, _ = users
    follow_add(user=a, other_id=b.pk)
    block_add(user=a, other_id=c.pk)
    report_make(reporter=a, reported_id=c.pk, reason="abuse", note="rude")
    account_sanction(staff=staff, user_id=a.pk, kind="warn", reason="calm down")
    data = account_export(a)
    assert [f["player"] for f in data["following"]] == [b.pk]
    assert [x["player"] for x in data["blocked"]] == [c.pk]
    assert data["reports_made"][0]["note"] == "rude"
    assert data["sanctions"][0]["reason"] == "calm down"
    # and nobody else's: c's export does not say that a blocked or reported them
    theirs = account_export(c)
    assert theirs["blocked"] == [] and theirs["reports_made"] == [] and theirs["following"] == []


def test_deleting_an_account_deletes_its_follows_and_blocks_and_keeps_reports_for_staff(
    users, staff
):
    a, b, c, _ = users
    follow_add(user=a, other_id=b.pk)
    follow_add(user=b, other_id=a.pk)
    block_add(user=a, other_id=c.pk)
    block_add(user=c, other_id=a.pk)
    report = report_make(reporter=a, reported_id=c.pk, reason="abuse")
    account_sanction(staff=staff, user_id=a.pk, kind="warn", reason="x")
    account_delete(a)
    assert not Follow.objects.filter(follower=a).exists()
    assert not Follow.objects.filter(followed=a).exists()
    assert (
        not Block.objects.filter(blocker=a).exists()
        and not Block.objects.filter(blocked=a).exists()
    )
    assert Report.objects.get(pk=report.pk).reporter_id == a.pk  # the anonymous stand-in
    assert Sanction.objects.filter(user=a).exists()
    action = StaffAction.objects.get(kind="account_delete")
    assert action.details["follows"] == 2 and action.details["blocks"] == 2
