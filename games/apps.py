from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # the engines' log sentences in the reader's language (games/i18n/narration_words.py)
        from games.engine import narration
        from games.i18n.narration_words import SiteWords

        narration.use_words(SiteWords())

        # the lists kept rendered renewed when a game ends or a lobby changes (games/kept_versions.py)
        from games import kept_versions

        kept_versions.connect()
