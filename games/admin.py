"""Basic registration; the staff admin (moderation, hand inspection) comes with a later issue."""

from django.contrib import admin

from .models import ChatMessage, Game, Hand, Move, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "manager", "status", "created"]
    list_filter = ["status"]
    inlines = [SeatInline]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "table", "status", "version", "started", "ended"]
    list_filter = ["status"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "number", "over", "started"]
    # the seed is secret until the hand is over: leave it out of the admin entirely
    exclude = ["seed"]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["id", "hand", "seq", "seat", "kind", "tile", "auto", "created"]


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["id", "table", "user", "text", "created"]
