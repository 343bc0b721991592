from __future__ import annotations

from django.contrib import admin

from ratings.models import Rating, RatingChange


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
