from __future__ import annotations

from django.urls import path

from web import armies, decks, play, views

urlpatterns = [
    path("board/agot.json", views.board_data, name="web-board-data"),
    path("play/<str:ruleset>/", play.play_page, name="web-play"),
    path("decks/", decks.deck_builder, name="web-decks"),
    path("armies/", armies.army_builder, name="web-armies"),
    path("lobbies/", views.lobby_list, name="web-lobbies"),
    path("lobbies/new/", views.lobby_new, name="web-lobby-new"),
    path("lobbies/<int:lobby_id>/", views.lobby_page, name="web-lobby"),
    path("lobbies/<int:lobby_id>/<str:verb>", views.lobby_action, name="web-lobby-action"),
    path("leaderboards/", views.leaderboard, name="web-leaderboards"),
    path("leaderboards/<str:ruleset>/", views.leaderboard, name="web-leaderboard"),
    path("games/", views.my_games, name="web-my-games"),
    path("games/needs-player/", views.needs_player, name="web-needs-player"),
    path("games/needs-player/<int:game_id>/<str:seat>/take", views.take_seat, name="web-take-seat"),
    path("games/<int:game_id>/", views.game_page, name="web-game"),
    path("games/<int:game_id>/replay", views.replay_page, name="web-replay"),
    path("games/<int:game_id>/rematch", play.rematch, name="web-rematch"),
    path("games/<int:game_id>/replay/<int:step>.json", views.replay_step, name="web-replay-step"),
]
