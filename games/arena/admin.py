"""The staff's pages for arenas: schedule a tournament (through games.arena.schedule, the
service players may one day call too), the recurring ones, and a tournament's standings.

The tables' rule options are the lobby's form's own fields (games.lobby.forms.TableForm): the
variants and options the site offers there are the ones a tournament offers, with no list of
its own to keep. Its policy is the tournament's: rated or not, bots or not, four seats.
"""

import copy

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.arena.schedule import schedule_check, tournament_schedule
from games.errors import ServiceError
from games.lobby.forms import TableForm, game_options
from games.models import Entrant, Tournament, TournamentSchedule
from games.names import player_name
from games.policy import options_split

# the table's choices an arena decides itself
NOT_CHOSEN = ("seats", "bots_fill", "practice", "private")
RULE_FIELDS = [name for name in TableForm.base_fields if name not in NOT_CHOSEN]


def _rule_fields(form_class) -> None:
    """The lobby form's rule fields on ``form_class``, declared ones: the admin makes its own
    subclass of the form, which keeps the declared fields and the model's."""
    for name in RULE_FIELDS:
        field = copy.deepcopy(TableForm.base_fields[name])
        form_class.declared_fields[name] = form_class.base_fields[name] = field


def _options(data) -> dict:
    chosen = {name: data[name] for name in RULE_FIELDS if name in data}
    return game_options(chosen) | {"seats": 4}


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ["name", "starts", "minutes", "rated", "bots"]
        help_texts = {"starts": _("In the site's time zone."), "minutes": _("5 to 720.")}

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        data["bot_strength"] = data.get("bot_strength") or "normal"
        try:
            schedule_values_check(
                name=data["name"], minutes=data["minutes"], options=_options(data),
                rated=data["rated"], bots=data["bots"],
            )  # fmt: skip
        except ServiceError as e:
            raise forms.ValidationError(e.message) from None
        return data


_rule_fields(TournamentForm)


def schedule_values_check(*, name, minutes, options, rated, bots) -> None:
    schedule_check(
        TournamentSchedule(name=name, minutes=minutes, options=options, rated=rated, bots=bots)
    )


class EntrantInline(admin.TabularInline):
    model = Entrant
    fields = ["player", "points", "games", "wins", "streak", "active", "table"]
    readonly_fields = fields
    ordering = ["-points", "-wins", "games", "pk"]
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description=_("player"))
    def player(self, obj):
        return player_name(obj.user)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "starts", "minutes", "rated", "bots", "finished", "schedule"]
    list_filter = ["rated", "bots"]
    search_fields = ["name"]
    date_hierarchy = "starts"
    inlines = [EntrantInline]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = TournamentForm
        return super().get_form(request, obj, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        # once made, only its name changes: its players joined what it said it was
        return ["starts", "minutes", "rated", "bots", "options", "finished", "schedule",
                "created_by"]  # fmt: skip

    def get_fields(self, request, obj=None):
        if obj is None:
            return super().get_fields(request, obj)
        return ["name", *self.get_readonly_fields(request, obj)]

    def save_model(self, request, obj, form, change):
        if change:
            obj.save(update_fields=["name"])
            return
        data = form.cleaned_data
        made = tournament_schedule(
            name=data["name"], options=_options(data), starts=data["starts"],
            minutes=data["minutes"], rated=data["rated"], bots=data["bots"], by=request.user,
        )  # fmt: skip
        obj.pk, obj.options = made.pk, made.options


class ScheduleForm(forms.ModelForm):
    class Meta:
        model = TournamentSchedule
        fields = ["name", "weekday", "at", "timezone", "minutes", "rated", "bots", "days_ahead",
                  "active"]  # fmt: skip

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            for name, value in options_split(self.instance.options)[0].items():
                if name in self.fields:
                    self.fields[name].initial = value
            for name, value in options_split(self.instance.options)[1].items():
                if name in self.fields:
                    self.fields[name].initial = value

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        data["bot_strength"] = data.get("bot_strength") or "normal"
        self.instance.options = _options(data)
        try:
            schedule_values_check(
                name=data["name"], minutes=data["minutes"], options=self.instance.options,
                rated=data["rated"], bots=data["bots"],
            )  # fmt: skip
        except ServiceError as e:
            raise forms.ValidationError(e.message) from None
        return data


_rule_fields(ScheduleForm)


@admin.register(TournamentSchedule)
class TournamentScheduleAdmin(admin.ModelAdmin):
    form = ScheduleForm
    list_display = ["name", "weekday", "at", "timezone", "minutes", "rated", "active"]
