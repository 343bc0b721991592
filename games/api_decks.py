"""REST endpoints for card-game decks (games/services/decks.py): your saved decks and the ready-made ones,
create, rename or change, copy, delete, validate, import and export ThronesDB's plain text. Thin: parse, call the
service, answer."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine.lcg import data as lcg_data
from games.engine.lcg import decks as rules
from games.errors import GameError
from games.models import Deck
from games.services import decks as service


def _valid(serializer_class, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# ------------------------------------------------------------------ what is answered


class ProblemSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="the rule id behind the refusal (rules/lcg.md), for programs")
    text = serializers.CharField(help_text="why, in words")


class CountsSerializer(serializers.Serializer):
    plots = serializers.IntegerField()
    draw = serializers.IntegerField()
    by_type = serializers.DictField(child=serializers.IntegerField(), help_text="draw cards by type")
    by_cost = serializers.DictField(child=serializers.IntegerField(), help_text="draw cards by cost")
    by_faction = serializers.DictField(child=serializers.IntegerField(), help_text="draw cards by faction")


class ReportSerializer(serializers.Serializer):
    legal = serializers.BooleanField(help_text="whether the deck follows the deck-building rules")
    problems = ProblemSerializer(many=True)
    playable = serializers.BooleanField(help_text="whether the site plays every card of the deck yet")
    unplayable = serializers.ListField(child=serializers.CharField(), help_text="the cards it does not play yet")
    unplayable_text = serializers.CharField(allow_blank=True, help_text="that, in words")
    counts = CountsSerializer()


class DeckCardsSerializer(serializers.Serializer):
    name = serializers.CharField()
    faction = serializers.CharField()
    faction_name = serializers.CharField(help_text="the faction in words")
    agenda = serializers.CharField(allow_null=True)
    agenda_name = serializers.CharField(allow_null=True, help_text="the agenda in words")
    plots = serializers.ListField(child=serializers.CharField(), help_text="card ids, one per copy")
    draw = serializers.ListField(child=serializers.CharField(), help_text="card ids, one per copy")
    report = ReportSerializer()


class DeckSerializer(DeckCardsSerializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class ReadyDeckSerializer(DeckCardsSerializer):
    key = serializers.CharField(help_text="the ready-made deck's key (what a lobby's deck fields take)")


class DeckListSerializer(serializers.Serializer):
    decks = DeckSerializer(many=True, help_text="your saved decks, last changed first")
    ready_made = ReadyDeckSerializer(many=True, help_text="the ready-made decks, offered to everyone")


class ImportedSerializer(serializers.Serializer):
    deck = DeckSerializer(allow_null=True, help_text="the saved deck (null when `save` was false)")
    parsed = serializers.DictField(help_text="the deck as read: name, faction, agenda, plots, draw")
    unread = serializers.ListField(child=serializers.CharField(), help_text="the lines that could not be read, in words")
    report = ReportSerializer()


class ValidatedSerializer(ReportSerializer):
    text = serializers.CharField(help_text="the deck in ThronesDB's plain-text format (to export it)")


class TextSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="the deck in ThronesDB's plain-text format")


def _cards_row(cards: dict[str, Any], name: str) -> dict[str, Any]:
    known = lcg_data.cards()
    agenda = cards.get("agenda") or None
    return {"name": name, "faction": cards["faction"], "faction_name": rules.house(cards["faction"]),
            "agenda": agenda, "agenda_name": known[agenda]["name"] if agenda in known else None,
            "plots": list(cards["plots"]), "draw": list(cards["draw"]), "report": service.report(cards)}


def deck_row(deck: Deck) -> dict[str, Any]:
    return {"id": deck.pk, **_cards_row(deck.cards(), deck.name), "created_at": deck.created_at,
            "updated_at": deck.updated_at}


def ready_rows() -> list[dict[str, Any]]:
    return [{"key": key, **_cards_row(d, d["name"])} for key, d in service.ready_made().items()]


# ------------------------------------------------------------------ what is sent


class DeckCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    faction = serializers.CharField(max_length=40)
    agenda = serializers.CharField(max_length=80, required=False, allow_null=True, allow_blank=True)
    plots = serializers.ListField(child=serializers.CharField(max_length=80), max_length=service.MAX_DRAW,
                                  required=False, default=list)
    draw = serializers.ListField(child=serializers.CharField(max_length=80), max_length=service.MAX_DRAW,
                                 required=False, default=list)


class DeckUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    faction = serializers.CharField(max_length=40, required=False)
    agenda = serializers.CharField(max_length=80, required=False, allow_null=True, allow_blank=True)
    plots = serializers.ListField(child=serializers.CharField(max_length=80), max_length=service.MAX_DRAW,
                                  required=False)
    draw = serializers.ListField(child=serializers.CharField(max_length=80), max_length=service.MAX_DRAW,
                                 required=False)


class DeckValidateSerializer(DeckCreateSerializer):
    name = serializers.CharField(max_length=200, required=False, allow_blank=True, help_text="for the text only")


class DeckImportSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=service.MAX_TEXT, help_text="ThronesDB's plain-text deck list")
    name = serializers.CharField(max_length=200, required=False, allow_blank=True,
                                 help_text="the deck's name (default: the list's first line)")
    save = serializers.BooleanField(required=False, default=True, help_text="false: read it only, save nothing")


def _input(data: dict[str, Any]) -> service.DeckInput:
    agenda = data.get("agenda")
    return service.DeckInput(name=data.get("name"), faction=data.get("faction"),
                             agenda=("" if agenda is None and "agenda" in data else agenda),
                             plots=data.get("plots"), draw=data.get("draw"))


# ------------------------------------------------------------------ views


class DeckListView(APIView):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(responses=DeckListSerializer, operation_id="v1_decks_list",
                   summary="Your saved card-game decks and the ready-made ones")
    def get(self, request: Request) -> Response:
        mine = Deck.objects.filter(owner=request.user) if request.user.is_authenticated else Deck.objects.none()
        return Response({"decks": [deck_row(d) for d in mine], "ready_made": ready_rows()})

    @extend_schema(request=DeckCreateSerializer, responses={201: DeckSerializer},
                   summary="Save a new deck (it may be saved before it is legal; the report says why not)")
    def post(self, request: Request) -> Response:
        deck = service.do_create_deck(request.user, _input(_valid(DeckCreateSerializer, request)))
        return Response(deck_row(deck), status=status.HTTP_201_CREATED)


class DeckDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=DeckSerializer, summary="One of your decks")
    def get(self, request: Request, deck_id: int) -> Response:
        return Response(deck_row(service.own(deck_id, request.user)))

    @extend_schema(request=DeckUpdateSerializer, responses=DeckSerializer,
                   summary="Rename a deck or change its cards (what is not sent stays)")
    def patch(self, request: Request, deck_id: int) -> Response:
        deck = service.do_update_deck(deck_id, request.user, _input(_valid(DeckUpdateSerializer, request)))
        return Response(deck_row(deck))

    @extend_schema(request=None, responses={204: None}, summary="Delete a deck (games it played keep their copy)")
    def delete(self, request: Request, deck_id: int) -> Response:
        service.do_delete_deck(deck_id, request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeckCopyView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: DeckSerializer}, summary="Save a copy of one of your decks")
    def post(self, request: Request, deck_id: int) -> Response:
        return Response(deck_row(service.do_copy_deck(request.user, deck_id=deck_id)), status=status.HTTP_201_CREATED)


class ReadyDeckCopyView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: DeckSerializer}, summary="Save a copy of a ready-made deck as yours")
    def post(self, request: Request, key: str) -> Response:
        return Response(deck_row(service.do_copy_deck(request.user, ready=key)), status=status.HTTP_201_CREATED)


class DeckTextView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=TextSerializer, summary="A deck in ThronesDB's plain-text format (export)")
    def get(self, request: Request, deck_id: int) -> Response:
        return Response({"text": service.export_text(service.own(deck_id, request.user))})


class ReadyDeckTextView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=TextSerializer, summary="A ready-made deck in ThronesDB's plain-text format (export)")
    def get(self, request: Request, key: str) -> Response:
        deck = service.ready_made().get(key)
        if deck is None:
            raise GameError("not_found", gettext("No such ready-made deck."), status_code=404)
        return Response({"text": service.export_text(deck, deck["name"])})


class DeckValidateView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=DeckValidateSerializer, responses=ValidatedSerializer,
                   summary="Judge a deck by the deck-building rules without saving it: legal or why not, in words")
    def post(self, request: Request) -> Response:
        data = _valid(DeckValidateSerializer, request)
        report = service.validate(data["faction"], data.get("agenda"), data["plots"], data["draw"])
        cards = {"faction": data["faction"], "agenda": data.get("agenda") or None, "plots": data["plots"],
                 "draw": data["draw"]}
        return Response({**report, "text": service.export_text(cards, data.get("name") or "")})


class DeckImportView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=DeckImportSerializer, responses={201: ImportedSerializer, 200: ImportedSerializer},
                   summary="Read a deck from ThronesDB's plain text and save it as yours (or only read it: save false)")
    def post(self, request: Request) -> Response:
        data = _valid(DeckImportSerializer, request)
        if data["save"]:
            if not request.user.is_authenticated:
                raise NotAuthenticated()
            deck, unread = service.do_import_deck(request.user, data["text"], data.get("name") or None)
            return Response({"deck": deck_row(deck), "parsed": {"name": deck.name, **deck.cards()}, "unread": unread,
                             "report": service.report(deck.cards())}, status=status.HTTP_201_CREATED)
        parsed, unread = service.parse(data["text"])
        checked = {k: parsed[k] for k in ("faction", "agenda", "plots", "draw")}
        return Response({"deck": None, "parsed": parsed, "unread": unread, "report": service.report(checked)})
