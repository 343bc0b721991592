"""REST endpoints for leaderboards and public profiles. Thin: look up, call a service, answer."""
from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from games.engine import ruleset_ids
from ratings import conf, services
from ratings.models import Rating
from ratings.serializers import LeaderboardEntrySerializer, ProfileSerializer, leaderboard_entries, profile_data
from westeros.pagination import ListPagination


class LeaderboardPagination(ListPagination):
    """The site's page shape; a bad `page` is a 400 (it was DRF's 404). Its size is the setting's."""

    page_size_query_param = None

    def get_page_size(self, request: Request) -> int:
        return int(conf.get("RATINGS_LEADERBOARD_PAGE_SIZE"))


@extend_schema(
    summary="A ruleset's leaderboard, best first (inactive players hidden, provisional ones and bots marked)",
    parameters=[OpenApiParameter("ruleset", str, OpenApiParameter.PATH, description="a ruleset id, e.g. agot"),
                OpenApiParameter("bots", bool, description="true: bot accounts only; false: people only; "
                                                           "absent: everyone (bots marked `bot: true`)")],
)
class LeaderboardView(ListAPIView):
    permission_classes = [AllowAny]
    pagination_class = LeaderboardPagination
    serializer_class = LeaderboardEntrySerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Rating.objects.none()
        ruleset = self.kwargs["ruleset"]
        if ruleset not in ruleset_ids():
            raise NotFound(gettext("No ruleset '%(ruleset)s'; known: %(known)s.") % {
                "ruleset": ruleset, "known": ", ".join(ruleset_ids())})
        raw = self.request.query_params.get("bots", "")
        if raw not in ("", "true", "false"):
            raise ValidationError({"bots": [gettext("Must be true or false.")]})
        return services.leaderboard(ruleset, bots=None if raw == "" else raw == "true")

    def list(self, request: Request, *args, **kwargs) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(leaderboard_entries(page))  # LeaderboardEntrySerializer's shape

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        first = (self.paginator.page.number - 1) * self.paginator.page.paginator.per_page + 1
        for rank, rating in enumerate(page, start=first):
            rating.rank = rank
            rating.provisional = services.is_provisional(rating)
        return page


class ProfileView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=ProfileSerializer, summary="A player's public profile: ratings, history, reliability")
    def get(self, request: Request, username: str) -> Response:
        user = User.objects.filter(username=username, is_active=True).first()
        if user is None:
            raise NotFound(gettext("No player named '%(name)s'.") % {"name": username})
        return Response(profile_data(services.public_profile(user)))  # ProfileSerializer's shape
