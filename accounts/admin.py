from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from .models import Profile
from .ratings import RATINGS

# each rating's points, games and wins (accounts.ratings): Okey's, then 101's
RATING_FIELDS = [f for r in RATINGS.values() for f in (r.points, r.games, r.wins)]

User = get_user_model()
# The admin has no log-in of its own: its page sends to the site's, which has the failed log-in
# limits (ACCOUNT_RATE_LIMITS) and asks an enrolled staff member for the second factor after the
# password. The admin's own form asks only for a password: it would be a side door around both.
admin.site.login = secure_admin_login(admin.site.login)
# The site's name where Django says "Django administration", in the staff member's language.
admin.site.site_header = _("Okey administration")
admin.site.site_title = _("Okey administration")
admin.site.index_title = _("Site administration")


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False
    fields = ["display_name", "language", *RATING_FIELDS]


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "language", *RATING_FIELDS]
    list_filter = ["language"]
    search_fields = ["display_name", "user__email", "user__username"]
    ordering = ["-rating_points"]
    readonly_fields = ["created"]


admin.site.unregister(User)


@admin.register(User)
class PlayerUserAdmin(UserAdmin):
    inlines = [ProfileInline]

    def get_inline_instances(self, request, obj=None):
        # A new user gets its profile from the post_save signal; an inline would make a second.
        return super().get_inline_instances(request, obj) if obj else []
