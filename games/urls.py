from django.urls import path

from . import views

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
    path("table/<int:table_id>/hand/<int:number>/verify/", views.hand_verify, name="verify"),
]
