from django.urls import path

from . import invite_views, views

app_name = "games"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("table/new/", views.table_new, name="table_new"),
    path("table/<int:table_id>/", views.table_detail, name="table"),
    path("table/<int:table_id>/sit/", views.table_sit, name="sit"),
    path("table/<int:table_id>/leave/", views.table_leave, name="leave"),
    path("table/<int:table_id>/start/", views.table_start, name="start"),
    path("table/<int:table_id>/move/", views.table_move, name="move"),
    path("table/<int:table_id>/back/", views.table_back, name="back"),
    path("table/<int:table_id>/bot/", views.table_bot, name="bot"),
    path("table/<int:table_id>/arrange/", views.rack_arrange, name="arrange"),
    path("table/<int:table_id>/hint/", views.table_hint, name="hint"),
    path("table/<int:table_id>/hand/<int:number>/verify/", views.hand_verify, name="verify"),
    path("table/<int:table_id>/hand/<int:number>/review/", views.hand_review, name="review"),
    # invites and team names (issue 6)
    path("table/<int:table_id>/invite/", invite_views.invite_new, name="invite_new"),
    path(
        "table/<int:table_id>/invite/<int:invite_id>/resend/",
        invite_views.invite_resend,
        name="invite_resend",
    ),
    path(
        "table/<int:table_id>/invite/<int:invite_id>/cancel/",
        invite_views.invite_cancel,
        name="invite_cancel",
    ),
    path("table/<int:table_id>/teams/", invite_views.team_names, name="team_names"),
    path("invite/continue/", invite_views.invite_continue, name="invite_continue"),
    path("invite/<str:token>/", invite_views.invite_open, name="invite"),
]
