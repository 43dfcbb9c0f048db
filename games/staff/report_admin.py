"""The staff's pages for players' reports and the sanctions on accounts: each report with its
evidence (the table, its hand, the chat lines as they were when it was made), and the actions
that answer it: warn the player, mute their chat for a time, suspend the account for a time,
or dismiss the report. Every action goes through games.staff.sanctions and is in the audit log
(StaffAction)."""

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.models import Report, Sanction
from games.names import player_name
from games.staff.admin import ReadOnlyMixin, _link
from games.staff.sanctions import (
    HOURS_MAX,
    account_sanction,
    report_dismiss,
    sanction_lift,
)
from games.staff.services import REASON_MAX


def _hours(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _confirm(modeladmin, request, queryset, *, key, title, question, hours: bool | None):
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "question": question,
        "objects": list(queryset),
        "action": key,
        "opts": modeladmin.model._meta,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "reason_max": REASON_MAX,
        # a sanction asks its reason, which the player is shown, and a time but for a warning;
        # a dismissal or a lift only a reason for the staff record
        "hours": None if hours is None else "ask" if hours else "none",
        "hours_max": HOURS_MAX,
        "reason": request.POST.get("reason", ""),
    }
    return TemplateResponse(request, "admin/games/staff_confirm.html", context)


def _run(modeladmin, request, queryset, run, *, key, title, question, hours=None):
    """Ask once (reason, and a time for a mute or suspension), then ``run`` for each row."""
    if request.POST.get("confirm") != "yes":
        return _confirm(
            modeladmin, request, queryset, key=key, title=title, question=question, hours=hours
        )
    for obj in queryset:
        try:
            run(obj, request.POST.get("reason", ""), _hours(request.POST.get("hours")))
        except ServiceError as e:
            modeladmin.message_user(request, f"{obj}: {e.message}", messages.ERROR)
            if e.code in ("no_reason", "bad_hours"):  # ask again, with what was given
                return _confirm(
                    modeladmin,
                    request,
                    queryset,
                    key=key,
                    title=title,
                    question=question,
                    hours=hours,
                )
        else:
            modeladmin.message_user(request, f"{obj}: {title}", messages.SUCCESS)
    return None


def _sanction_action(kind, description, question, hours):
    def action(modeladmin, request, queryset):
        return _run(
            modeladmin,
            request,
            queryset,
            lambda report, reason, h: account_sanction(
                staff=request.user,
                user_id=report.reported_id,
                kind=kind,
                reason=reason,
                hours=h,
                report_id=report.pk,
            ),
            key=f"sanction_{kind}",
            title=description,
            question=question,
            hours=hours,
        )

    action.__name__ = f"sanction_{kind}"
    return admin.action(description=description, permissions=["act"])(action)


warn_players = _sanction_action(
    Sanction.Kind.WARN,
    _("Warn the reported player"),
    _("Warn the players these reports are about? They are shown the reason."),
    False,
)
mute_players = _sanction_action(
    Sanction.Kind.MUTE,
    _("Mute the reported player's chat for a time"),
    _("Mute these players' chat? They are shown the reason and until when."),
    True,
)
suspend_players = _sanction_action(
    Sanction.Kind.SUSPEND,
    _("Suspend the reported player for a time"),
    _(
        "Suspend these accounts? They cannot sit, chat, follow or invite until then; their "
        "games under way go on with bots in their seats, as when a player leaves. They are "
        "shown the reason and until when."
    ),
    True,
)


@admin.action(description=_("Dismiss the report"), permissions=["act"])
def dismiss_reports(modeladmin, request, queryset):
    return _run(
        modeladmin,
        request,
        queryset,
        lambda report, reason, _h: report_dismiss(
            staff=request.user, report_id=report.pk, reason=reason
        ),
        key="dismiss_reports",
        title=_("Dismiss the report"),
        question=_("Dismiss these reports? Nothing is done to the players."),
    )


class ActPermission:
    def has_act_permission(self, request):
        return (
            request.user.is_active
            and request.user.is_staff
            and (request.user.has_perm("games.add_sanction"))
        )


@admin.register(Report)
class ReportAdmin(ActPermission, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["id", "created", "status", "reported_link", "reason", "table_link", "lines"]
    list_filter = ["status", "reason", ("created", admin.DateFieldListFilter)]
    search_fields = ["reported__profile__display_name", "reported__email", "note"]
    list_select_related = ["reported__profile", "reporter__profile", "table"]
    fields = [
        "created",
        "status",
        "reported_link",
        "reporter_link",
        "reason",
        "note",
        "table_link",
        "hand_number",
        "chat",
        "earlier",
        "handled_by",
        "handled_at",
    ]
    readonly_fields = fields
    actions = [warn_players, mute_players, suspend_players, dismiss_reports]

    @admin.display(description=_("player reported"))
    def reported_link(self, obj):
        return format_html(
            '{} <span class="muted">(#{})</span>', player_name(obj.reported), obj.reported_id
        )

    @admin.display(description=_("reported by"))
    def reporter_link(self, obj):
        return player_name(obj.reporter) if obj.reporter else "—"

    @admin.display(description=_("table"))
    def table_link(self, obj):
        return _link(obj.table) if obj.table_id else obj.evidence.get("table") or "—"

    @admin.display(description=_("chat lines"))
    def lines(self, obj):
        return len(obj.evidence.get("chat") or ())

    @admin.display(description=_("chat at the table when the report was made"))
    def chat(self, obj):
        rows = obj.evidence.get("chat") or ()
        if not rows:
            return "—"
        body = format_html_join(
            "",
            '<tr{}><td>{}</td><th scope="row">{}</th><td>{}</td></tr>',
            (
                (
                    format_html(' class="{}"', "report-line--reported")
                    if r.get("author") == obj.reported_id
                    else "",
                    (r.get("time") or "")[11:19],
                    r.get("name"),
                    r.get("text"),
                )
                for r in rows
            ),
        )
        return format_html(
            '<table class="report-chat"><thead><tr><th scope="col">{}</th><th scope="col">{}</th>'
            '<th scope="col">{}</th></tr></thead><tbody>{}</tbody></table>',
            _("time"),
            _("player"),
            _("line"),
            body,
        )

    @admin.display(description=_("earlier reports and sanctions of this player"))
    def earlier(self, obj):
        reports = Report.objects.filter(reported_id=obj.reported_id).exclude(pk=obj.pk).count()
        sanctions = Sanction.objects.filter(user_id=obj.reported_id)
        listed = format_html_join(
            "",
            "<li>{} — {} ({})</li>",
            ((s.get_kind_display(), s.reason, s.created.date()) for s in sanctions[:20]),
        )
        if not listed:
            return format_html("<p>{}: {}</p>", _("other reports"), reports)
        return format_html("<p>{}: {}</p><ul>{}</ul>", _("other reports"), reports, listed)


@admin.action(description=_("Lift the sanction now"), permissions=["act"])
def lift_sanctions(modeladmin, request, queryset):
    return _run(
        modeladmin,
        request,
        queryset,
        lambda s, reason, _h: sanction_lift(staff=request.user, sanction_id=s.pk, reason=reason),
        key="lift_sanctions",
        title=_("Lift the sanction now"),
        question=_("End these mutes or suspensions now?"),
    )


@admin.register(Sanction)
class SanctionAdmin(ActPermission, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["id", "created", "user", "kind", "until", "lifted", "staff", "reason"]
    list_filter = ["kind", ("created", admin.DateFieldListFilter)]
    search_fields = ["user__profile__display_name", "user__email", "reason"]
    list_select_related = ["user__profile", "staff"]
    fields = ["created", "user", "kind", "reason", "until", "lifted", "staff", "report", "seen"]
    readonly_fields = fields
    actions = [lift_sanctions]
