"""The staff admin: tables with their seats, invites, hands and move logs, a replay of any hand
that is over, and the staff actions (close a table, remove a player, void the hand and deal
again, end the game).

Game data is read-only here: the only way staff change a table is an action, which goes through
games.staff.services (one transaction, the game row locked, the version bumped, a broadcast after
commit) and leaves a StaffAction. A hand's seed, and its state (racks and stock), are shown only
once the hand is over.
"""

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.exceptions import DisallowedModelAdminLookup
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.errors import ServiceError
from games.labels import mode_label
from games.lobby.forms import TableForm
from games.models import (
    ChatMessage,
    Game,
    Hand,
    Invite,
    Move,
    PlayerResult,
    Seat,
    StaffAction,
    Table,
)
from games.names import player_name
from games.staff import services
from games.staff.replay import hand_replay_view
from games.staff.services import game_end, hand_void_redeal, seat_remove, table_close


def _lookup_opens_data(model, lookup: str) -> bool:
    """Whether ``lookup`` (``state__stock__0``, ``hand__seed``) reaches into a JSON or binary
    field: a hand's racks, stock and seed, or a result. A list filter on one answers yes or no
    about what it holds, one question at a time, to anyone who may view the list."""
    for part in lookup.split("__"):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return False
        if isinstance(field, models.JSONField | models.BinaryField):
            return True
        if not field.is_relation or field.related_model is None:
            return False
        model = field.related_model
    return False


class DataLookupsRefused:
    """No list filter from the URL into a row's JSON or binary data (games' ModelAdmins)."""

    def lookup_allowed(self, lookup, value, request=None):
        if _lookup_opens_data(self.model, lookup):
            raise DisallowedModelAdminLookup(f"Filtering by {lookup} not allowed")
        return super().lookup_allowed(lookup, value, request)


class ReadOnlyMixin(DataLookupsRefused):
    """Rows that only services write."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def _link(obj, text=None):
    if obj is None:
        return "—"
    url = reverse(f"admin:games_{obj._meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, text or str(obj))


def _player(user) -> str:
    return player_name(user) if user is not None else ""


def _staff_run(modeladmin, request, queryset, *, service, key, title, question, id_arg):
    """Ask once (with an optional reason), then run ``service`` for each selected row."""
    if request.POST.get("confirm") != "yes":
        context = {
            **modeladmin.admin_site.each_context(request),
            "title": title,
            "question": question,
            "objects": list(queryset),
            "action": key,
            "opts": modeladmin.model._meta,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "reason_max": services.REASON_MAX,
        }
        return TemplateResponse(request, "admin/games/staff_confirm.html", context)
    reason = request.POST.get("reason", "")
    for obj in queryset:
        try:
            service(**{id_arg: obj.pk}, staff=request.user, reason=reason)
        except ServiceError as e:
            modeladmin.message_user(request, f"{obj}: {e.message}", messages.ERROR)
        else:
            modeladmin.message_user(request, f"{obj}: {title}", messages.SUCCESS)
    return None


@admin.action(description=_("Close the table (the game is not rated)"), permissions=["change"])
def close_tables(modeladmin, request, queryset):
    return _staff_run(
        modeladmin,
        request,
        queryset,
        service=table_close,
        key="close_tables",
        title=_("Close the table"),
        question=_(
            "Close these tables? A hand in play is voided, the game is not rated, open invites "
            "are cancelled and the tables leave the lobby."
        ),
        id_arg="table_id",
    )


@admin.action(description=_("Void the current hand and deal again"), permissions=["change"])
def void_hands(modeladmin, request, queryset):
    return _staff_run(
        modeladmin,
        request,
        queryset,
        service=hand_void_redeal,
        key="void_hands",
        title=_("Void the hand and deal again"),
        question=_(
            "Void the hand being played at these tables? Nobody scores for it; a new hand is "
            "dealt at once, started by the same player."
        ),
        id_arg="table_id",
    )


@admin.action(
    description=_("End the game now (rated on the counts so far)"), permissions=["change"]
)
def end_games(modeladmin, request, queryset):
    return _staff_run(
        modeladmin,
        request,
        queryset,
        service=game_end,
        key="end_games",
        title=_("End the game"),
        question=_(
            "End the games at these tables now? A hand in play is voided; places and rating "
            "points follow from the counts over the hands played so far."
        ),
        id_arg="table_id",
    )


@admin.action(
    description=_("Remove the player (a bot or the timeouts take over)"), permissions=["change"]
)
def remove_players(modeladmin, request, queryset):
    return _staff_run(
        modeladmin,
        request,
        queryset,
        service=seat_remove,
        key="remove_players",
        title=_("Remove the player from the seat"),
        question=_(
            "Remove the players from these seats? During a game a bot takes the seat over if "
            "the table allows bots, else the timeouts play for it; before the start the seat "
            "is free again."
        ),
        id_arg="seat_id",
    )


class ModeFilter(admin.SimpleListFilter):
    title = _("mode")
    parameter_name = "mode"

    def lookups(self, request, model_admin):
        return Table.Variant.choices

    def queryset(self, request, queryset):
        if self.value() in Table.Variant.values:
            return queryset.filter(variant=self.value())
        return queryset


class PrivateFilter(admin.SimpleListFilter):
    title = _("private")
    parameter_name = "private"

    def lookups(self, request, model_admin):
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(options__private=True)
        if self.value() == "no":
            return queryset.exclude(options__private=True)
        return queryset


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    max_num = 0
    can_delete = False
    fields = ["number", "user", "is_bot", "away", "timeouts_in_row"]
    readonly_fields = fields

    @admin.display(description=_("seat"))
    def number(self, obj):
        return obj.index + 1

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class InviteInline(admin.TabularInline):
    model = Invite
    extra = 0
    max_num = 0
    can_delete = False
    fields = ["seat", "email", "state", "inviter", "sent_at", "expires_at", "sends", "accepted_by"]
    readonly_fields = fields

    @admin.display(description=_("seat"))
    def seat(self, obj):
        return obj.seat_index + 1

    @admin.display(description=_("state"))
    def state(self, obj):
        return obj.get_state_display()

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(DataLookupsRefused, admin.ModelAdmin):
    list_display = ["id", "mode", "status", "private", "manager", "players", "version", "created"]
    list_filter = ["status", ModeFilter, PrivateFilter, ("created", admin.DateFieldListFilter)]
    date_hierarchy = "created"
    search_fields = ["id", "manager__email", "manager__profile__display_name"]
    list_select_related = ["manager", "game"]
    inlines = [SeatInline, InviteInline]
    actions = [close_tables, void_hands, end_games]
    fields = [
        "manager",
        "status",
        "options_shown",
        "team_a_name",
        "team_b_name",
        "start_at",
        "created",
        "game_link",
        "hands",
        "staff_actions",
    ]
    readonly_fields = fields
    change_form_template = "admin/games/table/change_form.html"

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # close a table instead: its games and the staff record stay

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user__profile")

    @admin.display(description=_("mode"))
    def mode(self, obj):
        return mode_label(obj.variant)

    @admin.display(description=_("options"))
    def options_shown(self, obj):
        """Each option as the manager chose it on the table form, by that form's label and
        choice, in the admin's language (the raw JSON spoke neither)."""
        values = {**obj.rules.to_dict(), **obj.policy.to_dict()}
        rows = []
        for name, field in TableForm.base_fields.items():
            if name not in values:
                continue
            value = values[name]
            if isinstance(value, bool):
                value = _("yes") if value else _("no")
            elif getattr(field, "choices", None):
                value = dict(field.choices).get(value, value)
            rows.append((field.label, value))
        return format_html_join(mark_safe("<br>"), "{}: {}", rows)

    @admin.display(description=_("private"), boolean=True)
    def private(self, obj):
        return obj.policy.private

    @admin.display(description=_("players"))
    def players(self, obj):
        # str(): "bot" is a lazy translation, which str.join refuses (a 500 for any table
        # with a bot)
        return ", ".join(
            str(_player(s.user) if s.user else (_("bot") if s.is_bot else "—"))
            for s in obj.seats.all()
        )

    @admin.display(description=_("version"))
    def version(self, obj):
        return obj.game.version

    @admin.display(description=_("game"))
    def game_link(self, obj):
        return _link(obj.game)

    @admin.display(description=_("hands"))
    def hands(self, obj):
        rows = obj.game.hands.order_by("number")
        return format_html_join(
            mark_safe("<br>"),
            "{} · {} · {} {}",
            (
                (
                    _link(h, _("hand %(n)d") % {"n": h.number}),
                    _("over") if h.over else _("in play"),
                    ngettext("%(n)d move", "%(n)d moves", h.version) % {"n": h.version},
                    _replay_link(h),
                )
                for h in rows
            ),
        )

    @admin.display(description=_("staff actions"))
    def staff_actions(self, obj):
        return format_html_join(
            mark_safe("<br>"),
            "{} · {} · {} · {}",
            (
                (
                    a.created.strftime("%Y-%m-%d %H:%M"),
                    _player(a.staff),
                    a.get_kind_display(),
                    a.reason,
                )
                for a in obj.staff_actions.select_related("staff__profile")
            ),
        )

    def change_view(self, request, object_id, form_url="", extra_context=None):
        table = self.get_object(request, object_id)
        extra = {**(extra_context or {})}
        if table is not None and self.has_change_permission(request, table):
            extra["staff_seats"] = [s for s in table.seats.select_related("user") if s.user_id]
            extra["action_checkbox_name"] = helpers.ACTION_CHECKBOX_NAME
        # every field is read-only: there is nothing to save, only the actions below
        extra.update(show_save=False, show_save_and_continue=False)
        return super().change_view(request, object_id, form_url, extra)


def _replay_link(hand: Hand):
    if not hand.over:
        return ""
    url = reverse("admin:games_hand_replay", args=[hand.pk])
    return format_html('· <a href="{}">{}</a>', url, _("replay"))


@admin.register(Seat)
class SeatAdmin(DataLookupsRefused, admin.ModelAdmin):
    list_display = ["__str__", "table", "number", "user", "is_bot", "away"]
    list_filter = ["is_bot", "away", "table__status"]
    search_fields = ["user__email", "user__profile__display_name", "table__id"]
    list_select_related = ["table", "user"]
    actions = [remove_players]
    fields = ["table", "number", "user", "is_bot", "away", "timeouts_in_row"]
    readonly_fields = fields

    @admin.display(description=_("seat"))
    def number(self, obj):
        return obj.index + 1

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    max_num = 0
    can_delete = False
    ordering = ["seq"]
    fields = ["seq", "seat_number", "kind", "tile", "user", "auto", "version", "created"]
    readonly_fields = fields

    @admin.display(description=_("seat"))
    def seat_number(self, obj):
        return obj.seat + 1

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["id", "table", "number", "over", "moves", "commitment_short", "started"]
    list_filter = ["over", ("started", admin.DateFieldListFilter)]
    search_fields = ["game__table__id", "commitment"]
    list_select_related = ["game"]
    inlines = [MoveInline]
    # the seed and the state (racks, stock) are secret while the hand is played
    fields = [
        "game",
        "number",
        "first_seat_number",
        "commitment",
        "seed_revealed",
        "state_shown",
        "result",
        "started",
        "turn_started",
        "ended",
        "replay",
    ]
    readonly_fields = fields

    def get_urls(self):
        replay = self.admin_site.admin_view(self.replay_view)
        return [
            path("<int:hand_id>/replay/", replay, name="games_hand_replay"),
            *super().get_urls(),
        ]

    def replay_view(self, request, hand_id):
        return hand_replay_view(self, request, hand_id)

    @admin.display(description=_("table"))
    def table(self, obj):
        return obj.game.table_id

    @admin.display(description=_("moves"))
    def moves(self, obj):
        return obj.version

    @admin.display(description=_("commitment"))
    def commitment_short(self, obj):
        return obj.commitment[:16] + "…"

    @admin.display(description=_("first player"))
    def first_seat_number(self, obj):
        return obj.first_seat + 1

    @admin.display(description=_("seed"))
    def seed_revealed(self, obj):
        if not obj.over:
            return _("secret until the hand is over")
        return bytes(obj.seed).hex()

    @admin.display(description=_("state"))
    def state_shown(self, obj):
        if not obj.over:
            s = obj.state
            return _("phase %(phase)s, seat %(turn)d to play, %(stock)d tiles in the stock") % {
                "phase": s["phase"],
                "turn": s["turn"] + 1,
                "stock": len(s["stock"]),
            }
        return obj.state

    @admin.display(description=_("replay"))
    def replay(self, obj):
        return _replay_link(obj) or _("once the hand is over")


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    max_num = 0
    can_delete = False
    fields = ["hand", "first_seat", "over", "version", "commitment", "started", "ended"]
    readonly_fields = fields
    show_change_link = True

    @admin.display(description=_("hand"))
    def hand(self, obj):
        return obj.number

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["id", "table", "status", "version", "started", "ended"]
    list_filter = ["status", ("started", admin.DateFieldListFilter)]
    search_fields = ["table__id"]
    fields = ["table", "status", "version", "started", "ended", "state", "results"]
    readonly_fields = fields
    inlines = [HandInline]


@admin.register(Move)
class MoveAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["id", "hand", "seq", "seat", "kind", "tile", "auto", "created"]
    list_filter = ["kind", "auto"]
    list_select_related = ["hand__game"]


@admin.register(Invite)
class InviteAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["id", "table", "seat", "email", "state", "inviter", "sent_at", "expires_at"]
    list_filter = ["status", ("created", admin.DateFieldListFilter)]
    search_fields = ["email", "table__id"]
    exclude = ["token_hash"]

    @admin.display(description=_("seat"))
    def seat(self, obj):
        return obj.seat_index + 1

    @admin.display(description=_("state"))
    def state(self, obj):
        return obj.get_state_display()


@admin.register(PlayerResult)
class PlayerResultAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["game", "user", "seat", "place", "points", "count", "ended"]
    search_fields = ["user__email", "user__profile__display_name"]


@admin.register(StaffAction)
class StaffActionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["created", "staff", "kind", "table_link", "reason", "versions"]
    list_filter = ["kind", ("created", admin.DateFieldListFilter)]
    search_fields = ["staff__email", "table__id", "reason"]
    list_select_related = ["staff", "table"]
    fields = ["created", "staff", "kind", "table", "reason", "versions", "details"]
    readonly_fields = fields

    @admin.display(description=_("table"))
    def table_link(self, obj):
        return _link(obj.table) if obj.table_id else obj.details.get("table")

    @admin.display(description=_("version"))
    def versions(self, obj):
        if obj.version_before is None:  # an account's deletion: no table
            return "—"
        return f"{obj.version_before} → {obj.version_after}"


@admin.register(ChatMessage)
class ChatMessageAdmin(DataLookupsRefused, admin.ModelAdmin):
    list_display = ["id", "table", "user", "text", "created"]
    list_filter = [("created", admin.DateFieldListFilter)]
    search_fields = ["text", "user__email"]
