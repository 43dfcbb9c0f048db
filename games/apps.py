from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    # the admin's section: a name of its own beside allauth's "Accounts" and auth's
    verbose_name = _("Tables and games")

    def ready(self):
        # the arena counts its tables' games when the table writes their results
        # (games.table.results.game_results_written)
        from games.arena import results  # noqa: F401, PLC0415
