from __future__ import annotations

from django.urls import path

from tournaments import api

urlpatterns = [
    path("tournaments", api.TournamentListView.as_view(), name="api-tournaments"),
    path("tournaments/<int:tournament_id>", api.TournamentDetailView.as_view(), name="api-tournament"),
    path("tournaments/<int:tournament_id>/register", api.RegisterView.as_view(), name="api-tournament-register"),
    path("tournaments/<int:tournament_id>/withdraw", api.WithdrawView.as_view(), name="api-tournament-withdraw"),
    path("tournaments/<int:tournament_id>/check-in", api.CheckInView.as_view(), name="api-tournament-check-in"),
    path("tournaments/<int:tournament_id>/start", api.StartView.as_view(), name="api-tournament-start"),
    path("tournaments/<int:tournament_id>/start-round", api.StartRoundView.as_view(), name="api-tournament-start-round"),
    path("tournaments/<int:tournament_id>/end", api.EndView.as_view(), name="api-tournament-end"),
    path("tournaments/<int:tournament_id>/next-season", api.NextSeasonView.as_view(), name="api-tournament-next-season"),
    path("tournaments/<int:tournament_id>/co-organizers", api.CoOrganizerAddView.as_view(),
         name="api-tournament-co-organizers"),
    path("tournaments/<int:tournament_id>/co-organizers/remove", api.CoOrganizerRemoveView.as_view(),
         name="api-tournament-co-organizers-remove"),
    path("tournaments/<int:tournament_id>/replace", api.ReplaceView.as_view(), name="api-tournament-replace"),
    path("tournaments/<int:tournament_id>/drop", api.DropView.as_view(), name="api-tournament-drop"),
    path("tournaments/<int:tournament_id>/tables/<int:table_id>/adjudicate", api.AdjudicateView.as_view(),
         name="api-tournament-adjudicate"),
    path("tournaments/<int:tournament_id>/registrations", api.RegistrationsView.as_view(),
         name="api-tournament-registrations"),
    path("tournaments/<int:tournament_id>/rounds", api.RoundsView.as_view(), name="api-tournament-rounds"),
    path("tournaments/<int:tournament_id>/standings", api.StandingsView.as_view(), name="api-tournament-standings"),
]
