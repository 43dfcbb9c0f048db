"""The learning pages' addresses (included by okeysite.urls in every language)."""

from django.urls import path

import okeysite.converters  # noqa: F401  (registers <id:...>)
from games.learn import pages

app_name = "learn"
urlpatterns = [
    path("rules/", pages.rules, name="rules"),
    path("learn/first-hand/", pages.first_hand, name="first_hand"),
    path("learn/coach/<id:table_id>/", pages.coach, name="coach"),
]
