"""The table manager's choices: every option of okey-rules.md, within its range."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import OptionError, TableOptions


class TableForm(forms.Form):
    mode = forms.ChoiceField(
        label=_("Game"),
        choices=[("duz", _("Düz Okey")), ("esli", _("Eşli Okey (partners)"))],
        initial="duz",
    )
    seats = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(4, "4"), (3, "3"), (2, "2")],
        coerce=int,
        initial=4,
        help_text=_("Eşli Okey needs 4."),
    )
    turn_seconds = forms.IntegerField(
        label=_("Seconds per turn"), min_value=15, max_value=120, initial=30
    )
    start_count = forms.IntegerField(
        label=_("Starting count"),
        min_value=5,
        max_value=50,
        initial=20,
        help_text=_("Each player's count starts here; lower is better."),
    )
    hand_limit = forms.IntegerField(label=_("Hands"), min_value=1, max_value=50, initial=8)
    colour_doubling = forms.BooleanField(
        label=_("A red or black indicator doubles the points"), required=False, initial=True
    )
    indicator_bonus = forms.BooleanField(
        label=_("Showing the indicator scores"), required=False, initial=True
    )
    pairs_take_indicator = forms.BooleanField(
        label=_("A player going for pairs with six pairs may take the indicator"),
        required=False,
        initial=False,
    )
    bots_fill = forms.BooleanField(
        label=_("Bots may fill empty seats"), required=False, initial=True
    )
    bot_strength = forms.ChoiceField(
        label=_("Bots play"),
        choices=[("normal", _("well")), ("easy", _("gently"))],
        initial="normal",
        required=False,
    )
    private = forms.BooleanField(
        label=_("Private (invite only: not listed in the lobby)"),
        required=False,
        initial=False,
    )

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        data["bot_strength"] = data.get("bot_strength") or "normal"
        if data.get("mode") == "esli" and data.get("seats") != 4:
            self.add_error("seats", _("Eşli Okey is played by four players."))
            return data
        try:
            TableOptions.validated(**data)
        except OptionError as e:
            raise forms.ValidationError(str(e)) from None
        return data
