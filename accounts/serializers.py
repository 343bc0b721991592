from __future__ import annotations

from django.conf import settings
from rest_framework import serializers

from accounts.forms import TOKEN_NAME_MAX
from accounts.models import ApiToken, User
from games.engine.lcg.prompts import ACTION_WINDOWS


class MeSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ("id", "username", "email", "email_pending", "date_joined", "bot", "language", "auto_pass",
                  "action_windows")
        read_only_fields = ("id", "username", "email", "email_pending", "date_joined", "bot")

    language = serializers.ChoiceField(
        choices=[("", "follow the browser"), *settings.LANGUAGES], required=False, allow_blank=True,
        help_text="the language of the pages and of the API's messages: 'en', 'es', or '' to follow the "
                  "browser's Accept-Language (PATCH to change it)")

    auto_pass = serializers.BooleanField(
        required=False,
        help_text="the card game: the server passes your action, interrupt and reaction windows when your hand "
                  "and cards in play hold nothing usable there (off by default; the opponent may infer it from "
                  "how fast the pass comes). PATCH to change it")

    action_windows = serializers.ListField(
        child=serializers.ChoiceField(choices=ACTION_WINDOWS), required=False,
        help_text="the card game: the action windows you are asked in (among " + ", ".join(ACTION_WINDOWS) + "; "
                  "by default after_attackers and after_defenders, as throneteki's); the others pass for you, in "
                  "the games that start after the change. PATCH to change it")

    email = serializers.EmailField(read_only=True, allow_null=True,
                                   help_text="the confirmed address (null until the sign-up link is followed)")
    email_pending = serializers.CharField(source="pending_email", read_only=True,
                                          help_text="an address waiting for its owner's confirmation, or empty")

    bot = serializers.BooleanField(source="is_bot", read_only=True,
                                   help_text="a bot account: plays only through the API with a token")


class TokenSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApiToken
        fields = ("id", "name", "prefix", "created_at", "last_used_at")
        read_only_fields = ("id", "prefix", "created_at", "last_used_at")


class NewTokenSerializer(TokenSerializer):
    key = serializers.CharField(read_only=True, help_text="The token itself. Shown once: store it now.")

    class Meta(TokenSerializer.Meta):
        fields = (*TokenSerializer.Meta.fields, "key")


class TokenCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=TOKEN_NAME_MAX)


class PasswordTokenSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)
    name = serializers.CharField(max_length=TOKEN_NAME_MAX, default="api")
