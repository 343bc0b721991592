"""REST endpoints for miniatures armies (games/services/armies.py): your saved armies and the starter ones,
create, rename or change, copy, delete, validate, import and export the builders' plain text. Thin: parse, call the
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

from games.engine.minis import armies as rules
from games.errors import GameError
from games.models import Army
from games.services import armies as service


def _valid(serializer_class, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# ------------------------------------------------------------------ what is answered


class ArmyProblemSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="the rule id behind the refusal (rules/minis.md), for programs")
    text = serializers.CharField(help_text="why, in words")


class ArmyReportSerializer(serializers.Serializer):
    legal = serializers.BooleanField(help_text="whether the army follows the army-building rules (M1-M17)")
    problems = ArmyProblemSerializer(many=True)
    playable = serializers.BooleanField(help_text="whether the site fields it (legal, within the starter boxes)")
    unplayable = serializers.ListField(child=serializers.CharField(), help_text="why the site does not field it yet")
    points = serializers.IntegerField(help_text="units, attachments and NCUs (the Commander costs none)")
    neutral_points = serializers.IntegerField()
    game_size = serializers.IntegerField()
    victory_points = serializers.IntegerField(help_text="the VP a game of this size is won with (M126)")
    tactics = serializers.ListField(child=serializers.CharField(), help_text="the Tactics deck's card ids (M16)")


class ArmyUnitSerializer(serializers.Serializer):
    unit = serializers.CharField(max_length=20)
    attachment = serializers.CharField(max_length=20, required=False, allow_blank=True, allow_null=True)


class ArmyCardsSerializer(serializers.Serializer):
    name = serializers.CharField()
    faction = serializers.CharField()
    faction_name = serializers.CharField(help_text="the faction in words")
    game_size = serializers.IntegerField()
    commander = serializers.CharField(allow_null=True)
    commander_name = serializers.CharField(allow_null=True)
    units = ArmyUnitSerializer(many=True)
    ncus = serializers.ListField(child=serializers.CharField())
    summary = serializers.CharField(help_text="faction, points of the size, Commander, in words")
    report = ArmyReportSerializer()


class ArmySerializer(ArmyCardsSerializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class StarterArmySerializer(ArmyCardsSerializer):
    key = serializers.CharField(help_text="the starter army's key (what a lobby's army field takes)")


class ArmyListSerializer(serializers.Serializer):
    armies = ArmySerializer(many=True, help_text="your saved armies, last changed first")
    starter = StarterArmySerializer(many=True, help_text="the starter armies, offered to everyone")


class ArmyImportedSerializer(serializers.Serializer):
    army = ArmySerializer(allow_null=True, help_text="the saved army (null when `save` was false)")
    parsed = serializers.DictField(help_text="the army as read: name, faction, game_size, commander, units, ncus")
    unread = serializers.ListField(child=serializers.CharField(), help_text="the lines that could not be read")
    report = ArmyReportSerializer()


class ArmyValidatedSerializer(ArmyReportSerializer):
    text = serializers.CharField(help_text="the army as plain text (to export it)")


class ArmyTextSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="the army as plain text: name and points a line")


def _cards_row(army: dict[str, Any], name: str) -> dict[str, Any]:
    return {"name": name, "faction": army["faction"], "faction_name": rules.house(army["faction"]),
            "game_size": army["game_size"], "commander": army["commander"],
            "commander_name": rules.name(army["commander"]) if army["commander"] else None,
            "units": army["units"], "ncus": army["ncus"], "summary": rules.summary(army),
            "report": service.report(army)}


def army_row(army: Army) -> dict[str, Any]:
    return {"id": army.pk, **_cards_row(army.army(), army.name), "created_at": army.created_at,
            "updated_at": army.updated_at}


def starter_rows() -> list[dict[str, Any]]:
    return [{"key": key, **_cards_row(rules.normalise(a), service.starter_name(key))}
            for key, a in service.starter_armies().items()]


# ------------------------------------------------------------------ what is sent


class ArmyCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    faction = serializers.CharField(max_length=40)
    game_size = serializers.IntegerField(required=False, default=30)
    commander = serializers.CharField(max_length=20, required=False, allow_null=True, allow_blank=True)
    units = ArmyUnitSerializer(many=True, required=False, default=list)
    ncus = serializers.ListField(child=serializers.CharField(max_length=20), max_length=rules.MAX_NCUS,
                                 required=False, default=list)

    def validate_units(self, value):
        if len(value) > rules.MAX_UNITS:
            raise serializers.ValidationError(gettext("An army of more than %(units)s combat units cannot be saved.")
                                              % {"units": rules.MAX_UNITS})
        return value


class ArmyUpdateSerializer(ArmyCreateSerializer):
    name = serializers.CharField(max_length=200, required=False)
    faction = serializers.CharField(max_length=40, required=False)
    game_size = serializers.IntegerField(required=False)
    units = ArmyUnitSerializer(many=True, required=False)
    ncus = serializers.ListField(child=serializers.CharField(max_length=20), max_length=rules.MAX_NCUS,
                                 required=False)


class ArmyValidateSerializer(ArmyCreateSerializer):
    name = serializers.CharField(max_length=200, required=False, allow_blank=True, help_text="for the text only")


class ArmyImportSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=service.MAX_TEXT, help_text="an army builder's plain-text list")
    name = serializers.CharField(max_length=200, required=False, allow_blank=True,
                                 help_text="the army's name (default: the list's first line)")
    save = serializers.BooleanField(required=False, default=True, help_text="false: read it only, save nothing")


def _units(units: Any) -> Any:
    if units is None:
        return None
    return [{"unit": u["unit"], **({"attachment": u["attachment"]} if u.get("attachment") else {})} for u in units]


def _input(data: dict[str, Any]) -> service.ArmyInput:
    commander = data.get("commander")
    return service.ArmyInput(name=data.get("name"), faction=data.get("faction"), game_size=data.get("game_size"),
                             commander=("" if commander is None and "commander" in data else commander),
                             units=_units(data.get("units")), ncus=data.get("ncus"))


def _army(data: dict[str, Any]) -> dict[str, Any]:
    return {"faction": data["faction"], "game_size": data["game_size"], "commander": data.get("commander") or None,
            "units": _units(data["units"]), "ncus": data["ncus"]}


# ------------------------------------------------------------------ views


class ArmyListView(APIView):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(responses=ArmyListSerializer, operation_id="v1_armies_list",
                   summary="Your saved miniatures armies and the starter ones")
    def get(self, request: Request) -> Response:
        mine = Army.objects.filter(owner=request.user) if request.user.is_authenticated else Army.objects.none()
        return Response({"armies": [army_row(a) for a in mine], "starter": starter_rows()})

    @extend_schema(request=ArmyCreateSerializer, responses={201: ArmySerializer},
                   summary="Save a new army (it may be saved before it is legal; the report says why not)")
    def post(self, request: Request) -> Response:
        army = service.do_create_army(request.user, _input(_valid(ArmyCreateSerializer, request)))
        return Response(army_row(army), status=status.HTTP_201_CREATED)


class ArmyDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=ArmySerializer, summary="One of your armies")
    def get(self, request: Request, army_id: int) -> Response:
        return Response(army_row(service.own(army_id, request.user)))

    @extend_schema(request=ArmyUpdateSerializer, responses=ArmySerializer,
                   summary="Rename an army or change it (what is not sent stays)")
    def patch(self, request: Request, army_id: int) -> Response:
        army = service.do_update_army(army_id, request.user, _input(_valid(ArmyUpdateSerializer, request)))
        return Response(army_row(army))

    @extend_schema(request=None, responses={204: None}, summary="Delete an army (games it played keep their copy)")
    def delete(self, request: Request, army_id: int) -> Response:
        service.do_delete_army(army_id, request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ArmyCopyView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: ArmySerializer}, summary="Save a copy of one of your armies")
    def post(self, request: Request, army_id: int) -> Response:
        return Response(army_row(service.do_copy_army(request.user, army_id=army_id)), status=status.HTTP_201_CREATED)


class StarterArmyCopyView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: ArmySerializer}, summary="Save a copy of a starter army as yours")
    def post(self, request: Request, key: str) -> Response:
        return Response(army_row(service.do_copy_army(request.user, starter=key)), status=status.HTTP_201_CREATED)


class ArmyTextView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=ArmyTextSerializer, summary="An army as plain text (export)")
    def get(self, request: Request, army_id: int) -> Response:
        return Response({"text": service.export_text(service.own(army_id, request.user))})


class StarterArmyTextView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=ArmyTextSerializer, summary="A starter army as plain text (export)")
    def get(self, request: Request, key: str) -> Response:
        army = service.starter_armies().get(key)
        if army is None:
            raise GameError("not_found", gettext("No such starter army."), status_code=404)
        return Response({"text": rules.format_text(rules.normalise(army), army["name"])})


class ArmyValidateView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=ArmyValidateSerializer, responses=ArmyValidatedSerializer,
                   summary="Judge an army by the army-building rules without saving it: legal or why not, in words")
    def post(self, request: Request) -> Response:
        data = _valid(ArmyValidateSerializer, request)
        army = _army(data)
        report = service.validate(army)
        return Response({**report, "text": service.export_text(army, data.get("name") or "")})


class ArmyImportView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=ArmyImportSerializer, responses={201: ArmyImportedSerializer, 200: ArmyImportedSerializer},
                   summary="Read an army from a builder's plain text and save it as yours (or only read it: save false)")
    def post(self, request: Request) -> Response:
        data = _valid(ArmyImportSerializer, request)
        if data["save"]:
            if not request.user.is_authenticated:
                raise NotAuthenticated()
            army, unread = service.do_import_army(request.user, data["text"], data.get("name") or None)
            return Response({"army": army_row(army), "parsed": {"name": army.name, **army.army()}, "unread": unread,
                             "report": service.report(army.army())}, status=status.HTTP_201_CREATED)
        parsed, title, unread = service.parse(data["text"])
        checked = service._checked(parsed)
        return Response({"army": None, "parsed": {"name": title, **checked}, "unread": unread,
                         "report": service.report(checked)})
