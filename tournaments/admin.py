from __future__ import annotations

from django.contrib import admin

from tournaments.models import Registration, Round, Table, TableSeat, Tournament
from tournaments.services import page_changed


class EventPageChanged:
    """An edit here changes the event's page: its kept rendering is dropped (services.page_changed;
    the site's own changes lock the event, which does it)."""

    def tournament_id_of(self, obj) -> int | None:
        return obj.pk

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        page_changed(self.tournament_id_of(form.instance))

    def delete_model(self, request, obj):
        tournament_id = self.tournament_id_of(obj)
        super().delete_model(request, obj)
        page_changed(tournament_id)


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ("user", "replaces")


@admin.register(Tournament)
class TournamentAdmin(EventPageChanged, admin.ModelAdmin):
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
class TableAdmin(EventPageChanged, admin.ModelAdmin):
    list_display = ("id", "round", "number", "division", "game", "status")
    list_filter = ("status",)
    raw_id_fields = ("game",)
    inlines = [TableSeatInline]

    def tournament_id_of(self, obj) -> int | None:
        return obj.round.tournament_id


@admin.register(Round)
class RoundAdmin(EventPageChanged, admin.ModelAdmin):
    list_display = ("id", "tournament", "number", "status", "started_at", "finished_at")

    def tournament_id_of(self, obj) -> int | None:
        return obj.tournament_id
