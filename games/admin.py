"""Django's admin looks for each app's ``admin`` module: the staff's pages are in
games/staff/admin.py, with the staff's other tools."""

from games.staff import admin, report_admin  # noqa: F401
