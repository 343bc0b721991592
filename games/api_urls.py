from __future__ import annotations

from django.urls import path

from games import api, api_armies, api_decks, api_substitutes

urlpatterns = [
    path("lobbies", api.LobbyListView.as_view(), name="api-lobbies"),
    path("lobbies/<int:lobby_id>", api.LobbyDetailView.as_view(), name="api-lobby"),
    path("lobbies/<int:lobby_id>/join", api.LobbyJoinView.as_view(), name="api-lobby-join"),
    path("lobbies/<int:lobby_id>/leave", api.LobbyLeaveView.as_view(), name="api-lobby-leave"),
    path("lobbies/<int:lobby_id>/kick", api.LobbyKickView.as_view(), name="api-lobby-kick"),
    path("lobbies/<int:lobby_id>/assign", api.LobbyAssignView.as_view(), name="api-lobby-assign"),
    path("lobbies/<int:lobby_id>/cancel", api.LobbyCancelView.as_view(), name="api-lobby-cancel"),
    path("lobbies/<int:lobby_id>/start", api.LobbyStartView.as_view(), name="api-lobby-start"),
    path("games/computer", api.ComputerGameView.as_view(), name="api-games-computer"),
    path("games/needs-player", api_substitutes.NeedsPlayerView.as_view(), name="api-games-needs-player"),
    path("games/<int:game_id>/seats/<str:seat>/take", api_substitutes.TakeSeatView.as_view(), name="api-game-take-seat"),
    path("games/<int:game_id>", api.GameDetailView.as_view(), name="api-game"),
    path("games/<int:game_id>/actions", api.GameActionView.as_view(), name="api-game-actions"),
    path("games/<int:game_id>/check", api.GameCheckView.as_view(), name="api-game-check"),
    path("games/<int:game_id>/log", api.GameLogView.as_view(), name="api-game-log"),
    path("games/<int:game_id>/extend", api.GameExtendView.as_view(), name="api-game-extend"),
    path("games/<int:game_id>/pause", api.GamePauseView.as_view(), name="api-game-pause"),
    path("games/<int:game_id>/concede", api.GameConcedeView.as_view(), name="api-game-concede"),
    path("games/<int:game_id>/fairness", api.GameFairnessView.as_view(), name="api-game-fairness"),
    path("me/games", api.MyGamesView.as_view(), name="api-my-games"),
    path("decks", api_decks.DeckListView.as_view(), name="api-decks"),
    path("decks/validate", api_decks.DeckValidateView.as_view(), name="api-decks-validate"),
    path("decks/import", api_decks.DeckImportView.as_view(), name="api-decks-import"),
    path("decks/ready/<str:key>/copy", api_decks.ReadyDeckCopyView.as_view(), name="api-ready-deck-copy"),
    path("decks/ready/<str:key>/text", api_decks.ReadyDeckTextView.as_view(), name="api-ready-deck-text"),
    path("decks/<int:deck_id>", api_decks.DeckDetailView.as_view(), name="api-deck"),
    path("decks/<int:deck_id>/copy", api_decks.DeckCopyView.as_view(), name="api-deck-copy"),
    path("decks/<int:deck_id>/text", api_decks.DeckTextView.as_view(), name="api-deck-text"),
    path("armies", api_armies.ArmyListView.as_view(), name="api-armies"),
    path("armies/validate", api_armies.ArmyValidateView.as_view(), name="api-armies-validate"),
    path("armies/import", api_armies.ArmyImportView.as_view(), name="api-armies-import"),
    path("armies/starter/<str:key>/copy", api_armies.StarterArmyCopyView.as_view(), name="api-starter-army-copy"),
    path("armies/starter/<str:key>/text", api_armies.StarterArmyTextView.as_view(), name="api-starter-army-text"),
    path("armies/<int:army_id>", api_armies.ArmyDetailView.as_view(), name="api-army"),
    path("armies/<int:army_id>/copy", api_armies.ArmyCopyView.as_view(), name="api-army-copy"),
    path("armies/<int:army_id>/text", api_armies.ArmyTextView.as_view(), name="api-army-text"),
]
