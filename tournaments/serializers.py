from __future__ import annotations

from rest_framework import serializers

from games.models import MAX_TIME_LIMIT, MIN_TIME_LIMIT
from tournaments.models import Registration, Round, Table, TableSeat, Tournament
from tournaments.pairing import TIEBREAKERS
from westeros.fields import StrictFloatField, StrictIntegerField, time_writer


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
    options = serializers.DictField(required=False, default=dict, help_text=(
        "the games' options, checked by the engine; minis: game_size (20, 30, 40 or 50 army points a player) and "
        "multiplayer: teams with seats_per_table 4 (two against two, Swiss); lcg: open_decklists"))
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


# The columns `tournament_rows` reads, as `.values()` gives them (with the organizer's name and the annotated
# count of registrations): a page of 50 events made 100 model instances (each event and its organizer, every
# column of both) for a third of the list's time (issue 27, twelfth round).
TOURNAMENT_ROW_VALUES = (
    "id", "name", "description", "format", "ruleset", "rounds", "seats_per_table", "min_seats_per_table",
    "advance_per_table", "division_size", "promotion", "season", "previous_id", "scoring", "placement_points",
    "win_bonus", "tiebreakers", "time_limit", "ranked", "options", "max_consecutive_timeouts", "max_no_shows",
    "registration_opens", "registration_closes", "check_in_required", "capacity", "min_rating", "min_reliability",
    "organizer__username", "auto_advance", "lock_votes", "bots_only", "seed", "status", "current_round",
    "registered_count", "created_at", "started_at", "finished_at")


def tournament_rows(tournaments: list[dict]) -> list[dict]:
    """What TournamentSerializer(tournaments, many=True).data gives (the schema is the serializer's),
    written without DRF's per-field machinery, from the events' TOURNAMENT_ROW_VALUES: a page of 50 events
    spent most of its time in the serializer's 38 fields a row (issue 27). Their co-organizers are read in
    one query for the page; tests/test_api_tournament_rows.py holds the two equal field by field."""
    when = time_writer()

    co_organizers: dict[int, list[str]] = {t["id"]: [] for t in tournaments}
    if co_organizers:
        through = Tournament.co_organizers.through.objects.filter(tournament_id__in=list(co_organizers)).order_by("id")
        for tournament_id, username in through.values_list("tournament_id", "user__username"):
            co_organizers[tournament_id].append(username)
    return [{
        "id": t["id"], "name": t["name"], "description": t["description"], "format": t["format"],
        "ruleset": t["ruleset"], "rounds": t["rounds"], "seats_per_table": t["seats_per_table"],
        "min_seats_per_table": t["min_seats_per_table"], "advance_per_table": t["advance_per_table"],
        "division_size": t["division_size"], "promotion": t["promotion"], "season": t["season"],
        "previous": t["previous_id"], "scoring": t["scoring"], "placement_points": t["placement_points"],
        "win_bonus": t["win_bonus"], "tiebreakers": t["tiebreakers"], "time_limit": t["time_limit"],
        "ranked": t["ranked"], "options": t["options"], "max_consecutive_timeouts": t["max_consecutive_timeouts"],
        "max_no_shows": t["max_no_shows"], "registration_opens": when(t["registration_opens"]),
        "registration_closes": when(t["registration_closes"]), "check_in_required": t["check_in_required"],
        "capacity": t["capacity"], "min_rating": t["min_rating"],
        "min_reliability": None if t["min_reliability"] is None else float(t["min_reliability"]),
        "organizer": t["organizer__username"], "co_organizers": co_organizers[t["id"]],
        "auto_advance": t["auto_advance"], "lock_votes": t["lock_votes"], "bots_only": t["bots_only"],
        "seed": t["seed"], "status": t["status"], "current_round": t["current_round"],
        "registered": t["registered_count"], "created_at": when(t["created_at"]),
        "started_at": when(t["started_at"]), "finished_at": when(t["finished_at"]),
    } for t in tournaments]


class RegistrationSerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username")
    replaces = serializers.SerializerMethodField()
    deck = serializers.SerializerMethodField(help_text=(
        "lcg: the deck the player brings to every game of the event, fixed when they registered: {deck} for a "
        "ready-made one; for a saved deck {faction, agenda}, with {name, ref, plots, draw} for its owner and the "
        "lists for everyone when the tournament chose open deck lists (options.open_decklists); null: none named"))

    army = serializers.SerializerMethodField(help_text=(
        "minis: the army the player brings to every game of the event, fixed when they registered: {faction, "
        "starter} for a starter army; for a saved army {faction, points}, with {name, ref, list} for its owner; "
        "null: none named (each table gives a house and its starter army)"))
    partner = serializers.SerializerMethodField(help_text="two against two: the partner the player named")
    team = serializers.IntegerField(read_only=True, allow_null=True,
                                    help_text="two against two: the team's number (given at the start)")

    class Meta:
        model = Registration
        fields = ("id", "user", "status", "rating", "seed_rank", "division", "no_shows", "replaces", "registered_at",
                  "deck", "army", "partner", "team")

    def get_army(self, r: Registration) -> dict | None:
        from tournaments.services import army_words

        if r.army is None:
            return None
        return army_words(self.context.get("tournament") or r.tournament, r, self.context.get("viewer"))

    def get_partner(self, r: Registration) -> str | None:
        return r.partner.username if r.partner_id else None

    def get_replaces(self, r: Registration) -> str | None:
        return r.replaces.user.username if r.replaces_id else None

    def get_deck(self, r: Registration) -> dict | None:
        from tournaments.services import deck_words

        if r.deck is None:
            return None
        return deck_words(self.context.get("tournament") or r.tournament, r, self.context.get("viewer"))


# The columns `registration_rows` reads, as `.values()` gives them (with the names of the player, the player
# replaced and the partner): each of an event's registrations was three model instances and the serializer's
# 13 fields (issue 27, thirteenth round).
REGISTRATION_ROW_VALUES = (
    "id", "user_id", "user__username", "status", "rating", "seed_rank", "division", "no_shows", "replaces_id",
    "replaces__user__username", "registered_at", "deck", "army", "partner_id", "partner__username", "team")


def registration_rows(t: Tournament, registrations: list[dict], viewer=None) -> list[dict]:
    """What RegistrationSerializer(registrations, many=True, context={"tournament": t, "viewer": viewer}).data
    gives (the schema is the serializer's), written from REGISTRATION_ROW_VALUES; a deck and an army as `viewer`
    may know them (tournaments.services deck_words and army_words). tests/test_api_tournament_rows.py holds
    the two equal field by field."""
    from types import SimpleNamespace

    from tournaments.services import army_words, deck_words

    write = time_writer()
    rows = []
    for r in registrations:
        brought = SimpleNamespace(deck=r["deck"], army=r["army"], user_id=r["user_id"])
        rows.append({
            "id": r["id"], "user": r["user__username"], "status": r["status"], "rating": float(r["rating"]),
            "seed_rank": r["seed_rank"], "division": r["division"], "no_shows": r["no_shows"],
            "replaces": r["replaces__user__username"] if r["replaces_id"] else None,
            "registered_at": write(r["registered_at"]),
            "deck": None if r["deck"] is None else deck_words(t, brought, viewer),
            "army": None if r["army"] is None else army_words(t, brought, viewer),
            "partner": r["partner__username"] if r["partner_id"] else None, "team": r["team"]})
    return rows


class RegisterSerializer(serializers.Serializer):
    deck = serializers.CharField(max_length=40, required=False, default="", allow_blank=True,
                                 help_text="lcg: the deck you bring to every game of the event, a ready-made one or "
                                           "deck:<id> of your saved decks (copied now: later edits change nothing); "
                                           "empty: the tournament's options decide")
    army = serializers.CharField(max_length=40, required=False, default="", allow_blank=True,
                                 help_text="minis: the army you bring to every game of the event, army:<id> of your "
                                           "saved armies (legal, of the tournament's game_size; copied now) or a "
                                           "starter army (list_stark_30, list_lannister_30); empty: each table "
                                           "gives you a house and its starter army")
    partner = serializers.CharField(max_length=150, required=False, default="", allow_blank=True,
                                    help_text="minis, two against two: your partner's username (a team when you "
                                              "name each other; players without one are teamed at the start)")


class TableSeatSerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="registration.user.username")
    team = serializers.IntegerField(source="registration.team", read_only=True, allow_null=True,
                                    help_text="two against two: the player's team (its number)")

    class Meta:
        model = TableSeat
        fields = ("user", "seat", "position", "place", "points", "castles", "supply", "time_used", "abandoned",
                  "no_show", "team")


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


def round_rows(tournament_id: int) -> list[dict]:
    """What RoundSerializer(rounds, many=True).data gives for the event's rounds (the schema is the
    serializer's), read as values in four queries (rounds, tables, seats with their players, byes) and
    written without DRF's per-field machinery: a round of many tables made hundreds of model instances
    and nested serializers (issue 27, ninth round). tests/test_api_tournament_rows.py holds the two
    equal field by field."""
    when = time_writer()

    rounds = [{"number": number, "status": status, "started_at": when(started), "finished_at": when(finished),
               "byes": [], "tables": [], "_id": pk}
              for pk, number, status, started, finished in Round.objects.filter(tournament_id=tournament_id)
              .order_by("number").values_list("pk", "number", "status", "started_at", "finished_at")]
    if not rounds:
        return []
    by_round = {r["_id"]: r for r in rounds}
    tables = {}
    for pk, round_id, number, division, game, status, finished in (
            Table.objects.filter(round__tournament_id=tournament_id).order_by("number", "pk")
            .values_list("pk", "round_id", "number", "division", "game", "status", "finished_at")):
        tables[pk] = {"id": pk, "number": number, "division": division, "game": game, "status": status,
                      "finished_at": when(finished), "seats": []}
        by_round[round_id]["tables"].append(tables[pk])
    for table_id, user, seat, position, place, points, castles, supply, time_used, abandoned, no_show, team in (
            TableSeat.objects.filter(table__round__tournament_id=tournament_id).order_by("position", "pk")
            .values_list("table_id", "registration__user__username", "seat", "position", "place", "points",
                         "castles", "supply", "time_used", "abandoned", "no_show", "registration__team")):
        tables[table_id]["seats"].append({
            "user": user, "seat": seat, "position": position, "place": place,
            "points": None if points is None else float(points), "castles": castles, "supply": supply,
            "time_used": float(time_used), "abandoned": abandoned, "no_show": no_show, "team": team})
    # the byes in the order of the registrations (Registration.Meta.ordering), as the serializer reads them
    for round_id, user in (Round.byes.through.objects.filter(round__tournament_id=tournament_id)
                           .order_by("registration__seed_rank", "registration__registered_at", "registration__id")
                           .values_list("round_id", "registration__user__username")):
        by_round[round_id]["byes"].append(user)
    for r in rounds:
        del r["_id"]
    return rounds


def standing_rows(standings) -> list[dict]:
    """What StandingSerializer(standings, many=True).data gives (the schema is the serializer's), written
    without DRF's per-field machinery (issue 27, ninth round); tests/test_api_tournament_rows.py holds
    the two equal."""
    def number(kind, value):
        return None if value is None else kind(value)

    rows = []
    for s in standings:
        line = s.line
        rows.append({"rank": s.rank, "division": s.division, "user": s.registration.user.username,
                     "status": s.registration.status, "points": number(float, line.points),
                     "games": number(int, line.games), "wins": number(int, line.wins),
                     "castles": number(int, line.castles), "supply": number(int, line.supply),
                     "time_used": number(float, line.time_used), "byes": number(int, line.byes),
                     "abandoned": number(int, line.abandoned)})
    return rows
