from django.urls import path

import okeysite.converters  # noqa: F401  (registers <id:...>)

from . import views, yourdata

app_name = "accounts"
urlpatterns = [
    path("", views.profile, name="profile"),
    path("edit/", views.profile_edit, name="profile_edit"),
    path("<id:user_id>/", views.profile_detail, name="profile_detail"),
    path("delete/", yourdata.delete_account, name="delete"),
    path("delete/<str:uidb36>/<str:token>/", yourdata.delete_confirm, name="delete_confirm"),
    path("export/", yourdata.export, name="export"),
]
