from __future__ import annotations

from django.contrib import admin

from tournaments.models import Registration, Round, Table, TableSeat, Tournament


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ("user", "replaces")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "format", "ruleset", "status", "current_round", "organizer", "created_at")
    list_filter = ("format", "status", "ruleset")
    raw_id_fields = ("organizer", "previous")
    filter_horizontal = ("co_organizers",)
    inlines = [RegistrationInline]


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    raw_id_fields = ("registration",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "round", "number", "division", "game", "status")
    list_filter = ("status",)
    raw_id_fields = ("game",)
    inlines = [TableSeatInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("id", "tournament", "number", "status", "started_at", "finished_at")
