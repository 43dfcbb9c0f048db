"""The table manager's choices: every option of docs/rules.md, within its range.

The initial values and ranges are read from ``RuleOptions`` and ``TablePolicy``, where they are
written once; the form only adds labels.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import RANGES, OptionError, RuleOptions, variant
from games.policy import TablePolicy, table_choices
from games.variants import site_variant

RULES = RuleOptions()


POLICY = TablePolicy()


OPTIONS101 = variant("101").make_options()


POLICY_NAMES = frozenset(POLICY.to_dict())


def _whole(name: str, label, **kw) -> forms.IntegerField:
    low, high = RANGES[name]
    return forms.IntegerField(
        label=label, min_value=low, max_value=high, initial=getattr(RULES, name), **kw
    )


class TableForm(forms.Form):
    # the game (Table.variant); named "mode" as Düz Okey's option that once chose it
    mode = forms.ChoiceField(
        label=_("Game"),
        choices=[
            ("duz", _("Düz Okey")),
            ("esli", _("Eşli Okey (partners)")),
            ("101", _("Okey 101")),
            ("esli101", _("Eşli 101 (partners)")),
        ],
        initial=RULES.mode,
    )
    seats = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(4, "4"), (3, "3"), (2, "2")],
        coerce=int,
        initial=RULES.seats,
        help_text=_("Eşli Okey and Eşli 101 need 4."),
    )
    turn_seconds = _whole("turn_seconds", _("Seconds per turn"))
    start_count = _whole(
        "start_count",
        _("Starting count"),
        help_text=_("Each player's count starts here; lower is better."),
    )
    hand_limit = _whole("hand_limit", _("Hands"))
    colour_doubling = forms.BooleanField(
        label=_("A red or black indicator doubles the points"),
        required=False,
        initial=RULES.colour_doubling,
    )
    indicator_bonus = forms.BooleanField(
        label=_("Showing the indicator scores"), required=False, initial=RULES.indicator_bonus
    )
    pairs_take_indicator = forms.BooleanField(
        label=_("A player going for pairs with six pairs may take the indicator"),
        required=False,
        initial=RULES.pairs_take_indicator,
    )
    katlamali = forms.BooleanField(
        label=_("101: katlamalı (each opening must beat the one before it)"),
        required=False,
        initial=OPTIONS101.katlamali,
    )
    bots_fill = forms.BooleanField(
        label=_("Bots may fill empty seats"), required=False, initial=POLICY.bots_fill
    )
    bot_strength = forms.ChoiceField(
        label=_("Bot strength"),
        choices=[("easy", _("easy")), ("normal", _("normal")), ("hard", _("hard"))],
        initial=POLICY.bot_strength,
        required=False,
    )
    practice = forms.BooleanField(
        label=_("Practice game: not rated; alone with bots you may ask for hints"),
        required=False,
        initial=POLICY.practice,
    )
    private = forms.BooleanField(
        label=_("Private (invite only: not listed in the lobby)"),
        required=False,
        initial=POLICY.private,
    )

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        # a form posted without the field (an older page) plays at the default strength
        data["bot_strength"] = data.get("bot_strength") or POLICY.bot_strength
        game = site_variant(data.get("mode"))
        if game.teams and data.get("seats") != 4:
            self.add_error("seats", _("Eşli Okey is played by four players."))
            return data
        data = game_options(data)
        try:
            table_choices(data)
        except OptionError as e:
            raise forms.ValidationError(str(e)) from None
        return data


def game_options(data: dict) -> dict:
    """The options of the game ``data["mode"]`` names, with its name as ``variant``: the fields
    the form shows for the other games are left out (the arena's admin form asks this too)."""
    game = site_variant(data.get("mode"))
    names = set(game.engine.make_options().to_dict()) | POLICY_NAMES
    return {k: v for k, v in data.items() if k in names} | {"variant": game.name}
