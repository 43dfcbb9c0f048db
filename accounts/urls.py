from django.urls import path

import okeysite.converters  # noqa: F401  (registers <id:...>)

from . import views

app_name = "accounts"
urlpatterns = [
    path("", views.profile, name="profile"),
    path("edit/", views.profile_edit, name="profile_edit"),
    path("<id:user_id>/", views.profile_detail, name="profile_detail"),
]
