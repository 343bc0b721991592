from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # the engines' log sentences in the reader's language (games/i18n/narration_words.py)
        from games.engine import narration
        from games.i18n.narration_words import SiteWords

        narration.use_words(SiteWords())

        # a public game's end renews the recent results kept rendered (games/results.py)
        from games.results import renew_recent_results
        from games.signals import game_finished

        game_finished.connect(renew_recent_results, dispatch_uid="games.renew_recent_results")
