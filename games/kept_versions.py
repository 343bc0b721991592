"""The versions of the lists kept rendered that no key of their rows can cover (westeros/kept.py
`until_renewed`): each is renewed once the change that alters its list has committed, so the list is
read and rendered again once per change, not on every request nor on a timer (issue 27).

- RESULTS_VERSION: the recent results (the home page's, web.views.recent_results_html), renewed when a
  public game ends (games.signals.game_finished, with its rating changes in the same transaction).
- LOBBIES_VERSION: the open lobbies (the home page's table, web.views.home_lobbies_html), renewed when a
  lobby or a lobby's member is saved or deleted: a lobby opened, filled, left, started or cancelled.
  Every such change goes through Model.save() or delete() (games/services/lobbies.py), which send
  these signals; a queryset update() would not (the only one, a member's seat, is not on the list).
Connected in GamesConfig.ready. A renewal of a rolled-back transaction is never sent."""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from westeros import kept

RESULTS_VERSION = "games:results-version"
LOBBIES_VERSION = "games:lobbies-version"


def renew_recent_results(sender: Any, *, game, **kwargs: Any) -> None:
    """A public game's end is a new recent result, shown once the transaction that ended it commits."""
    if not game.private:
        transaction.on_commit(lambda: kept.renew(RESULTS_VERSION))


def renew_open_lobbies(sender: Any, **kwargs: Any) -> None:
    transaction.on_commit(lambda: kept.renew(LOBBIES_VERSION))


def connect() -> None:
    from games.models import Lobby, LobbyMember
    from games.signals import game_finished

    game_finished.connect(renew_recent_results, dispatch_uid="games.renew_recent_results")
    for model in (Lobby, LobbyMember):
        post_save.connect(renew_open_lobbies, sender=model, dispatch_uid=f"games.renew_open_lobbies.{model.__name__}")
        post_delete.connect(renew_open_lobbies, sender=model,
                            dispatch_uid=f"games.renew_open_lobbies.{model.__name__}.deleted")
