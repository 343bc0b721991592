from __future__ import annotations

from rest_framework import serializers

from challenges.models import Challenge, Invite
from challenges.services import DECLINE_REASONS
from games.models import MAX_TIME_LIMIT, MIN_TIME_LIMIT
from westeros.fields import StrictIntegerField


class ChallengeCreateSerializer(serializers.Serializer):
    ruleset = serializers.CharField(max_length=32, default="agot")
    users = serializers.ListField(child=serializers.CharField(max_length=150), min_length=1, max_length=15,
                                  help_text="the players (people or bot accounts) you challenge, by name; "
                                            "the game has one seat for you and one for each of them")
    time_limit = StrictIntegerField(min_value=MIN_TIME_LIMIT, max_value=MAX_TIME_LIMIT,
                                    help_text="seconds per decision, 120 (2 minutes) to 604800 (7 days)")
    ranked = serializers.BooleanField(default=False)
    options = serializers.DictField(required=False, default=dict,
                                    help_text="the ruleset's options, as for a lobby")
    deck = serializers.CharField(max_length=40, required=False, default="", allow_blank=True,
                                 help_text="lcg: the deck you bring, a ready-made one or deck:<id> of your saved "
                                           "decks (empty: drawn at random)")


class AcceptSerializer(serializers.Serializer):
    deck = serializers.CharField(max_length=40, required=False, default="", allow_blank=True,
                                 help_text="lcg: the deck you bring, a ready-made one or deck:<id> of your saved "
                                           "decks (empty: drawn at random)")


class DeclineSerializer(serializers.Serializer):
    reason = serializers.ChoiceField(choices=list(DECLINE_REASONS), default="generic",
                                     help_text="why (lichess's reasons); the challenger is told in words")


class InviteSerializer(serializers.Serializer):
    user = serializers.CharField()
    bot = serializers.BooleanField(help_text="a bot account")
    status = serializers.ChoiceField(choices=Invite.Status.choices)
    reason = serializers.CharField(allow_null=True, help_text="the decline reason's code")
    reason_text = serializers.CharField(allow_null=True, help_text="the decline reason in words")


class ChallengeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Challenge.Status.choices)
    challenger = serializers.CharField()
    challenger_bot = serializers.BooleanField()
    ruleset = serializers.CharField()
    options = serializers.DictField()
    time_limit = serializers.IntegerField()
    ranked = serializers.BooleanField()
    seats = serializers.IntegerField(help_text="the challenger and the players challenged")
    invites = InviteSerializer(many=True)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="unanswered by then, the challenge expires")
    game = serializers.IntegerField(allow_null=True, help_text="the game, once everyone accepted")

