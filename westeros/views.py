from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    # Lobbies arrive with issue 6; the page already has their place.
    return render(request, "home.html", {"lobbies": []})
