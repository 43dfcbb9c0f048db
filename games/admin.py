"""Django's admin looks for each app's ``admin`` module: the staff's pages are in
games/staff/admin.py, with the staff's other tools; the arenas' in games/arena/admin.py."""

from games.arena import admin as arena_admin  # noqa: F401
from games.staff import admin, report_admin  # noqa: F401
