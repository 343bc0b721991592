from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from accounts import revocation, schema  # noqa: F401  (schema registers the OpenAPI auth extension)

        revocation.connect()
