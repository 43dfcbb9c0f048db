"""Table policy (games.policy) beside the engine's rule options: validation, the defaults written
once, how a table stores and reads both, and hands stored before the split."""

import re

import pytest
from django.core import mail
from django.test import TestCase
from django.urls import reverse
from django.utils import translation

from games import engine
from games.engine import OptionError, RuleOptions
from games.errors import ServiceError
from games.invites.services import invite_create
from games.lobby.forms import TableForm
from games.models import Hand, Table
from games.policy import TablePolicy, options_split, options_stored, table_choices
from games.table.create import table_create
from tests.games.helpers import current_hand, discard_first, hand_state

# docs/rules.md, "Table options": bots may fill empty seats on, private off; bots play well
DOCUMENTED_RULES = {
    "mode": "duz",
    "seats": 4,
    "turn_seconds": 30,
    "start_count": 20,
    "hand_limit": 8,
    "colour_doubling": True,
    "indicator_bonus": True,
    "pairs_take_indicator": False,
}
DOCUMENTED_POLICY = {
    "private": False,
    "bots_fill": True,
    "bot_strength": "normal",
    "practice": False,
    "lesson": False,
}


def test_policy_defaults_are_the_documented_ones():
    assert TablePolicy().to_dict() == DOCUMENTED_POLICY
    assert RuleOptions().to_dict() == DOCUMENTED_RULES


@pytest.mark.parametrize("flag", ["private", "bots_fill", "practice", "lesson"])
def test_policy_flags_must_be_booleans(flag):
    assert getattr(TablePolicy.validated(**{flag: True}), flag) is True
    with pytest.raises(OptionError, match=f"{flag} must be true or false"):
        TablePolicy.validated(**{flag: 1})


def test_bot_strength_is_one_the_engine_plays():
    assert TablePolicy.validated(bot_strength="easy").bot_strength == "easy"
    assert TablePolicy.validated(bot_strength="hard").bot_strength == "hard"
    with pytest.raises(OptionError, match="bot_strength must be 'easy' or 'hard' or 'normal'"):
        TablePolicy.validated(bot_strength="grandmaster")
    assert set(engine.BOT_STRENGTHS) == {"easy", "normal", "hard"}


def test_policy_refuses_unknown_names_and_rules():
    with pytest.raises(OptionError, match="unknown table policy: seats"):
        TablePolicy.validated(seats=4)
    with pytest.raises(OptionError, match="mapping"):
        TablePolicy.from_dict(["private"])
    p = TablePolicy(private=True, bot_strength="easy")
    assert TablePolicy.from_dict(p.to_dict()) == p


def test_choices_split_into_rules_and_policy():
    rules, policy = options_split({"seats": 3, "private": True, "jokers": 2})
    assert rules == {"seats": 3, "jokers": 2} and policy == {"private": True}
    assert table_choices({"seats": 3, "bots_fill": False}) == (
        RuleOptions(seats=3),
        TablePolicy(bots_fill=False),
    )
    # a name that is neither is refused by the rules' check
    with pytest.raises(OptionError, match="unknown table option"):
        table_choices({"jokers": 2})
    with pytest.raises(OptionError, match="mapping"):
        table_choices(None)


@pytest.mark.django_db
def test_a_table_created_with_no_options_gets_the_documented_defaults(users):
    table = table_create(manager=users[0], options={})
    table = Table.objects.get(pk=table.pk)
    assert table.rules == RuleOptions() and table.policy == TablePolicy()
    # every name is written out, so the row says what the table plays by
    assert table.options == {**DOCUMENTED_RULES, **DOCUMENTED_POLICY}
    assert (table.mode, table.seat_count, table.private) == ("duz", 4, False)
    assert table.seats.count() == 4


@pytest.mark.django_db
def test_a_row_missing_names_reads_the_same_defaults(users):
    # the model's JSON default ({}) and rows written by hand fall back on the same defaults
    table = Table.objects.create(manager=users[0], options={"seats": 2, "private": True})
    assert table.rules == RuleOptions(seats=2)
    assert table.policy == TablePolicy(private=True)
    assert Table(manager=users[0]).policy == TablePolicy()


@pytest.mark.django_db
def test_a_table_stores_its_policy_beside_its_rules(users):
    table = table_create(
        manager=users[0],
        options={"seats": 3, "private": True, "bots_fill": False, "bot_strength": "easy"},
    )
    table.refresh_from_db()
    assert table.rules == RuleOptions(seats=3)
    assert table.policy == TablePolicy(private=True, bots_fill=False, bot_strength="easy")
    assert table.options == options_stored(table.rules, table.policy)
    # the lobby and the admin filter on the stored column
    assert not Table.objects.filter(options__private=False).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "options", [{"bot_strength": "grandmaster"}, {"private": "yes"}, {"bots": 1}]
)
def test_table_create_refuses_bad_policy(users, options):
    with pytest.raises(ServiceError) as e:
        table_create(manager=users[0], options=options)
    assert e.value.code == "bad_options"
    assert not Table.objects.exists()


def test_the_form_offers_the_defaults_and_ranges_written_once():
    form = TableForm()
    for name, value in {**DOCUMENTED_RULES, **DOCUMENTED_POLICY}.items():
        if name == "lesson":  # the first hand's tables: the site opens them, never the form
            assert name not in form.fields
            continue
        assert form.fields[name].initial == value, name
    turn = form.fields["turn_seconds"]
    assert (turn.min_value, turn.max_value) == engine.RANGES["turn_seconds"]


def test_the_form_checks_policy_with_the_rules():
    data = {**DOCUMENTED_RULES, **DOCUMENTED_POLICY, "bot_strength": ""}
    form = TableForm(data)
    assert form.is_valid(), form.errors
    assert table_choices(form.cleaned_data) == (RuleOptions(), TablePolicy())
    form = TableForm({**data, "bot_strength": "hard"})
    assert form.is_valid() and table_choices(form.cleaned_data)[1].bot_strength == "hard"
    form = TableForm({**data, "bot_strength": "grandmaster"})
    assert not form.is_valid() and "bot_strength" in form.errors


@pytest.mark.django_db
def test_a_hand_stored_before_the_split_plays_on(playing, users):
    # hands dealt before the policy left the engine carry it in their state's options
    hand = current_hand(playing)
    old = dict(hand.state)
    old["options"] = {**old["options"], "bots_fill": True, "private": False, "bot_strength": "easy"}
    Hand.objects.filter(pk=hand.pk).update(state=old)
    assert hand_state(playing).options == RuleOptions()
    discard_first(playing, users[hand_state(playing).turn])
    stored = current_hand(playing).state
    assert stored["seq"] == old["seq"] + 1
    assert stored["options"] == DOCUMENTED_RULES


@pytest.mark.django_db
def test_the_lobby_shows_each_tables_rules_and_policy(client, users):
    table_create(
        manager=users[0], options={"turn_seconds": 47, "start_count": 11, "hand_limit": 13}
    )
    table_create(
        manager=users[1], options={"colour_doubling": False, "bots_fill": False, "seats": 2}
    )
    with translation.override("en"):
        html = client.get(reverse("games:lobby")).content.decode()
    assert "47 s a turn · count from 11 · 13 hands" in html
    assert "30 s a turn · count from 20 · 8 hands" in html
    # each mention belongs to one table: only the first doubles and lets bots fill its seats
    assert html.count("coloured indicator doubles") == 1
    assert html.count("bots may fill seats") == 1


@pytest.mark.django_db
def test_an_invite_states_the_tables_rules(client, users, celery_eager):
    table = table_create(
        manager=users[0], options={"turn_seconds": 47, "start_count": 11, "hand_limit": 13}
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        invite_create(table_id=table.pk, inviter=users[0], email="friend@example.com", seat_index=1)
    body = mail.outbox[-1].body
    assert "Hamle başına 47 saniye, 13 el." in body
    link = re.search(r"/invite/[A-Za-z0-9_-]+/", body).group(0)
    html = client.get(link).content.decode()
    assert "hamle 47 sn · sayı 11 · 13 el" in html
