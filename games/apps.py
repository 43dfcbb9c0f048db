from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        # the arena counts its tables' games when the table writes their results
        # (games.table.results.game_results_written)
        from games.arena import results  # noqa: F401, PLC0415
