from __future__ import annotations

from django.contrib import admin

from ratings.models import RatedGame, Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "ruleset", "format", "rating", "games", "last_played")
    list_filter = ("ruleset", "format")
    search_fields = ("user__username",)


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "ruleset", "placement", "before", "after", "played_at")
    list_filter = ("ruleset",)
    search_fields = ("user__username",)


@admin.register(RatedGame)
class RatedGameAdmin(admin.ModelAdmin):
    """The order games were applied to the ratings in (what recompute_ratings replays): read-only."""

    list_display = ("sequence", "game")
    search_fields = ("game__id",)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
