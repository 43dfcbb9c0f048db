"""The games app's pages, each room's from its own ``pages`` module."""

from django.urls import path

import okeysite.converters  # noqa: F401  (registers <id:...>)
from games.arena import pages as arena
from games.invites import pages as invites
from games.lobby import pages as lobby
from games.review import pages as review
from games.social import pages as social
from games.table import pages as table

app_name = "games"
urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("table/new/", lobby.table_new, name="table_new"),
    path("play/quick/", lobby.quick_play, name="quick_play"),
    path("table/<id:table_id>/", table.table_detail, name="table"),
    path("table/<id:table_id>/sit/", table.table_sit, name="sit"),
    path("table/<id:table_id>/sit/continue/", table.table_sit_continue, name="sit_continue"),
    path("table/<id:table_id>/leave/", table.table_leave, name="leave"),
    path("table/<id:table_id>/start/", table.table_start, name="start"),
    path("table/<id:table_id>/move/", table.table_move, name="move"),
    path("table/<id:table_id>/back/", table.table_back, name="back"),
    path("table/<id:table_id>/bot/", table.table_bot, name="bot"),
    path("table/<id:table_id>/arrange/", table.rack_arrange, name="arrange"),
    path("table/<id:table_id>/hint/", table.table_hint, name="hint"),
    path("table/<id:table_id>/tray/", table.table_tray, name="tray"),
    path("table/<id:table_id>/hand/<id:number>/verify/", review.hand_verify, name="verify"),
    path("table/<id:table_id>/hand/<id:number>/review/", review.hand_review, name="review"),
    path("table/<id:table_id>/invite/", invites.invite_new, name="invite_new"),
    path(
        "table/<id:table_id>/invite/<id:invite_id>/resend/",
        invites.invite_resend,
        name="invite_resend",
    ),
    path(
        "table/<id:table_id>/invite/<id:invite_id>/cancel/",
        invites.invite_cancel,
        name="invite_cancel",
    ),
    path("table/<id:table_id>/teams/", invites.team_names, name="team_names"),
    path("arena/", arena.tournaments, name="tournaments"),
    path("arena/<id:tournament_id>/", arena.tournament, name="tournament"),
    path("arena/<id:tournament_id>/join/", arena.tournament_join, name="tournament_join"),
    path("arena/<id:tournament_id>/pause/", arena.tournament_pause, name="tournament_pause"),
    path("invite/continue/", invites.invite_continue, name="invite_continue"),
    path("table/<id:table_id>/rematch/", social.rematch, name="rematch"),
    path(
        "table/<id:table_id>/rematch/accept/",
        social.rematch_answer,
        {"accept": True},
        name="rematch_accept",
    ),
    path(
        "table/<id:table_id>/rematch/decline/",
        social.rematch_answer,
        {"accept": False},
        name="rematch_decline",
    ),
    path("friends/", social.friends, name="friends"),
    path("friends/<id:user_id>/invite/", social.friend_invite_page, name="friend_invite"),
    path("invitation/<str:token>/", social.invitation_accept, name="invitation_accept"),
    path("player/<id:user_id>/follow/", social.player_follow, name="follow"),
    path("player/<id:user_id>/unfollow/", social.player_unfollow, name="unfollow"),
    path("player/<id:user_id>/block/", social.player_block, name="block"),
    path("player/<id:user_id>/unblock/", social.player_unblock, name="unblock"),
    path("player/<id:user_id>/report/", social.player_report, name="report"),
    path("invite/<str:token>/", invites.invite_open, name="invite"),
]
