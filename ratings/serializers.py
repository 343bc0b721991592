"""Output shapes of the ratings API (read-only)."""
from __future__ import annotations

from rest_framework import serializers

from ratings import services


class LeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 = best, among the players shown")
    username = serializers.CharField(source="user.username")
    bot = serializers.BooleanField(source="user.is_bot", help_text="a bot account (rated in the same pool, marked)")
    rating = serializers.FloatField()
    games = serializers.IntegerField(help_text="ranked games counted")
    provisional = serializers.BooleanField(help_text="fewer ranked games than RATINGS_PROVISIONAL_GAMES")
    last_played = serializers.DateTimeField()


class RatingSerializer(serializers.Serializer):
    ruleset = serializers.CharField()
    format = serializers.CharField()
    rating = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.SerializerMethodField()
    last_played = serializers.DateTimeField(allow_null=True)

    def get_provisional(self, rating) -> bool:
        return services.is_provisional(rating)


class RatingChangeSerializer(serializers.Serializer):
    game = serializers.SerializerMethodField(help_text="the game's id; null for a private game")
    ruleset = serializers.CharField()
    format = serializers.CharField()
    seat = serializers.CharField()
    placement = serializers.IntegerField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    delta = serializers.FloatField()
    played_at = serializers.DateTimeField()

    def get_game(self, change) -> int | None:
        return None if change.game_private else change.game_id


class ReliabilitySerializer(serializers.Serializer):
    score = serializers.FloatField(help_text="1 - (timeouts + abandoned) / decisions; 1.0 with no decision yet")
    decisions = serializers.IntegerField(help_text="decisions counted (the last RELIABILITY_DECISIONS)")
    timeouts = serializers.IntegerField()
    abandoned = serializers.IntegerField()
    missed = serializers.IntegerField()


class ProfileSerializer(serializers.Serializer):
    username = serializers.CharField()
    bot = serializers.BooleanField(help_text="a bot account: a program playing through the API")
    date_joined = serializers.DateTimeField()
    games_played = serializers.IntegerField()
    reliability = ReliabilitySerializer()
    ratings = RatingSerializer(many=True)
    history = RatingChangeSerializer(many=True)


_WHEN = serializers.DateTimeField()  # a datetime as DRF writes it (the current time zone, ISO 8601, "Z")


def profile_data(profile: services.Profile) -> dict:
    """ProfileSerializer(profile).data, the same keys in the same order and the same values, written out:
    DRF's fields took 1.3 ms of the API profile's CPU for a history of 50 changes (issue 27). The
    serializers above stay the schema; a test compares the two on every kind of value."""
    when = _WHEN.to_representation
    reliability = profile.reliability
    return {
        "username": profile.username,
        "bot": bool(profile.bot),
        "date_joined": when(profile.date_joined),
        "games_played": int(profile.games_played),
        "reliability": {"score": float(reliability.score), "decisions": int(reliability.decisions),
                        "timeouts": int(reliability.timeouts), "abandoned": int(reliability.abandoned),
                        "missed": int(reliability.missed)},
        "ratings": [{"ruleset": r.ruleset, "format": r.format, "rating": float(r.rating), "games": int(r.games),
                     "provisional": services.is_provisional(r), "last_played": when(r.last_played)}
                    for r in profile.ratings],
        "history": [{"game": None if c.game_private else c.game_id, "ruleset": c.ruleset, "format": c.format,
                     "seat": c.seat, "placement": int(c.placement), "before": float(c.before),
                     "after": float(c.after), "delta": float(c.delta), "played_at": when(c.played_at)}
                    for c in profile.history],
    }


def leaderboard_entries(page) -> list[dict]:
    """LeaderboardEntrySerializer(page, many=True).data written out, as profile_data is (its fields were
    half the API leaderboard's CPU for a page of 50; issue 27). Each rating has its rank and provisional."""
    when = _WHEN.to_representation
    return [{"rank": int(r.rank), "username": r.user.username, "bot": bool(r.user.is_bot), "rating": float(r.rating),
             "games": int(r.games), "provisional": bool(r.provisional), "last_played": when(r.last_played)}
            for r in page]
