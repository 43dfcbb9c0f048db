from django.urls import path

import okeysite.converters  # noqa: F401  (registers <id:...>)

from . import invite_views, views

app_name = "games"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("table/new/", views.table_new, name="table_new"),
    path("play/quick/", views.quick_play, name="quick_play"),
    path("table/<id:table_id>/", views.table_detail, name="table"),
    path("table/<id:table_id>/sit/", views.table_sit, name="sit"),
    path("table/<id:table_id>/sit/continue/", views.table_sit_continue, name="sit_continue"),
    path("table/<id:table_id>/leave/", views.table_leave, name="leave"),
    path("table/<id:table_id>/start/", views.table_start, name="start"),
    path("table/<id:table_id>/move/", views.table_move, name="move"),
    path("table/<id:table_id>/back/", views.table_back, name="back"),
    path("table/<id:table_id>/bot/", views.table_bot, name="bot"),
    path("table/<id:table_id>/arrange/", views.rack_arrange, name="arrange"),
    path("table/<id:table_id>/hint/", views.table_hint, name="hint"),
    path("table/<id:table_id>/hand/<id:number>/verify/", views.hand_verify, name="verify"),
    path("table/<id:table_id>/hand/<id:number>/review/", views.hand_review, name="review"),
    # invites and team names (issue 6)
    path("table/<id:table_id>/invite/", invite_views.invite_new, name="invite_new"),
    path(
        "table/<id:table_id>/invite/<id:invite_id>/resend/",
        invite_views.invite_resend,
        name="invite_resend",
    ),
    path(
        "table/<id:table_id>/invite/<id:invite_id>/cancel/",
        invite_views.invite_cancel,
        name="invite_cancel",
    ),
    path("table/<id:table_id>/teams/", invite_views.team_names, name="team_names"),
    path("invite/continue/", invite_views.invite_continue, name="invite_continue"),
    path("invite/<str:token>/", invite_views.invite_open, name="invite"),
]
