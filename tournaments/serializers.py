from __future__ import annotations

from rest_framework import serializers

from games.models import MAX_TIME_LIMIT, MIN_TIME_LIMIT
from tournaments.models import Registration, Round, Table, TableSeat, Tournament
from tournaments.pairing import TIEBREAKERS
from westeros.fields import StrictFloatField, StrictIntegerField


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    description = serializers.CharField(required=False, default="", allow_blank=True, max_length=5000)
    format = serializers.ChoiceField(choices=Tournament.Format.choices, default=Tournament.Format.SWISS)
    ruleset = serializers.CharField(max_length=32, default="agot")
    rounds = StrictIntegerField(min_value=1, max_value=30, default=3, help_text="Swiss: number of rounds")
    seats_per_table = StrictIntegerField(min_value=1, max_value=16, default=6)
    min_seats_per_table = StrictIntegerField(
        min_value=1, max_value=16, required=False, allow_null=True, default=None,
        help_text="short tables may have this many seats (default: the ruleset's minimum); "
                  "equal to seats_per_table: byes instead of short tables")
    advance_per_table = StrictIntegerField(min_value=1, max_value=15, default=2,
                                           help_text="elimination: the top N of each table go on")
    division_size = StrictIntegerField(min_value=1, max_value=30, default=10, help_text="league")
    promotion = StrictIntegerField(min_value=0, max_value=15, default=2,
                                   help_text="league: promoted and relegated per division between seasons")
    scoring = serializers.ChoiceField(choices=Tournament.Scoring.choices, default=Tournament.Scoring.PLACEMENT)
    placement_points = serializers.ListField(child=StrictFloatField(), required=False, default=list,
                                             help_text="points by place at a full table, first place first")
    win_bonus = StrictIntegerField(min_value=0, max_value=1000, default=10, help_text="league points")
    tiebreakers = serializers.ListField(child=serializers.ChoiceField(choices=TIEBREAKERS), required=False,
                                        default=["wins"], help_text="in order")
    time_limit = StrictIntegerField(min_value=MIN_TIME_LIMIT, max_value=MAX_TIME_LIMIT, default=24 * 60 * 60,
                                    help_text="seconds per phase decision")
    ranked = serializers.BooleanField(default=False)
    options = serializers.DictField(required=False, default=dict)
    max_consecutive_timeouts = StrictIntegerField(min_value=0, max_value=20, default=3)
    max_no_shows = StrictIntegerField(min_value=0, max_value=20, default=2,
                                      help_text="a player who never acts in this many games is dropped (0: never)")
    registration_opens = serializers.DateTimeField(required=False, allow_null=True, default=None)
    registration_closes = serializers.DateTimeField(required=False, allow_null=True, default=None)
    check_in_required = serializers.BooleanField(default=False)
    capacity = StrictIntegerField(min_value=1, required=False, allow_null=True, default=None)
    min_rating = StrictIntegerField(min_value=0, required=False, allow_null=True, default=None)
    min_reliability = StrictFloatField(min_value=0, max_value=1, required=False, allow_null=True, default=None)
    auto_advance = serializers.BooleanField(default=True, help_text="start the next round when the last game ends")
    lock_votes = serializers.BooleanField(default=True, help_text="lock in-game votes that could spoil results")
    seed = StrictIntegerField(default=0, min_value=0, max_value=2**62, help_text="pairing seed")


class TournamentSerializer(serializers.ModelSerializer):
    organizer = serializers.CharField(source="organizer.username")
    co_organizers = serializers.SlugRelatedField(many=True, read_only=True, slug_field="username")
    registered = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = ("id", "name", "description", "format", "ruleset", "rounds", "seats_per_table", "min_seats_per_table",
                  "advance_per_table", "division_size", "promotion", "season", "previous", "scoring",
                  "placement_points", "win_bonus", "tiebreakers", "time_limit", "ranked", "options",
                  "max_consecutive_timeouts", "max_no_shows", "registration_opens", "registration_closes",
                  "check_in_required", "capacity", "min_rating", "min_reliability", "organizer", "co_organizers",
                  "auto_advance", "lock_votes", "bots_only", "seed", "status", "current_round", "registered",
                  "created_at", "started_at", "finished_at")

    def get_registered(self, t: Tournament) -> int:
        annotated = getattr(t, "registered_count", None)
        if annotated is not None:
            return annotated
        return t.registrations.filter(status__in=Registration.ACTIVE).count()


class RegistrationSerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username")
    replaces = serializers.SerializerMethodField()

    class Meta:
        model = Registration
        fields = ("id", "user", "status", "rating", "seed_rank", "division", "no_shows", "replaces", "registered_at")

    def get_replaces(self, r: Registration) -> str | None:
        return r.replaces.user.username if r.replaces_id else None


class TableSeatSerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="registration.user.username")

    class Meta:
        model = TableSeat
        fields = ("user", "seat", "position", "place", "points", "castles", "supply", "time_used", "abandoned",
                  "no_show")


class TableSerializer(serializers.ModelSerializer):
    seats = TableSeatSerializer(many=True)

    class Meta:
        model = Table
        fields = ("id", "number", "division", "game", "status", "finished_at", "seats")


class RoundSerializer(serializers.ModelSerializer):
    tables = TableSerializer(many=True)
    byes = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ("number", "status", "started_at", "finished_at", "byes", "tables")

    def get_byes(self, rnd: Round) -> list[str]:
        return [r.user.username for r in rnd.byes.all()]


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    division = serializers.IntegerField()
    user = serializers.CharField(source="registration.user.username")
    status = serializers.CharField(source="registration.status")
    points = serializers.FloatField(source="line.points")
    games = serializers.IntegerField(source="line.games")
    wins = serializers.IntegerField(source="line.wins")
    castles = serializers.IntegerField(source="line.castles")
    supply = serializers.IntegerField(source="line.supply")
    time_used = serializers.FloatField(source="line.time_used")
    byes = serializers.IntegerField(source="line.byes")
    abandoned = serializers.IntegerField(source="line.abandoned")


class ReplaceSerializer(serializers.Serializer):
    old = serializers.CharField(max_length=150, help_text="the username leaving")
    new = serializers.CharField(max_length=150, help_text="the username taking the place")


class AdjudicateSerializer(serializers.Serializer):
    ranking = serializers.ListField(child=serializers.CharField(max_length=32), min_length=1,
                                    help_text="every seat of the game, first to last")
