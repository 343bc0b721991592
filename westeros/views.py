from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.api import active_lobbies_for_home


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"lobbies": active_lobbies_for_home()})
