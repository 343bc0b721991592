from django.contrib import admin

from games.models import Game, GameAction, GameSeat, Lobby, LobbyMember


class LobbyMemberInline(admin.TabularInline):
    model = LobbyMember
    extra = 0


@admin.register(Lobby)
class LobbyAdmin(admin.ModelAdmin):
    list_display = ("id", "ruleset", "creator", "seat_count", "ranked", "private", "status", "created_at")
    list_filter = ("ruleset", "status", "ranked")
    inlines = [LobbyMemberInline]


class GameSeatInline(admin.TabularInline):
    model = GameSeat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "ruleset", "status", "version", "ranked", "created_at", "finished_at")
    list_filter = ("ruleset", "status")
    readonly_fields = ("seed", "seed_salt", "seed_hash", "state", "version")
    inlines = [GameSeatInline]


@admin.register(GameAction)
class GameActionAdmin(admin.ModelAdmin):
    list_display = ("game", "version", "seat", "source", "created_at")
    list_filter = ("source",)
