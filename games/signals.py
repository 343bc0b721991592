"""Signals other apps connect to (in their AppConfig.ready), so games/ never imports them.

Both are sent inside the transaction that changed the game, with the game row locked: a receiver's
writes commit or roll back with the change. Receivers that talk to the outside world (mail,
webhooks) must defer that work with transaction.on_commit or a Celery task.
"""
from __future__ import annotations

from django.dispatch import Signal

# Sent after every change: game, pending_before (set of seats), records (list of GameAction),
# started (bool: the game was just created).
game_changed = Signal()

# Sent once, when a game becomes finished or abandoned: game.
game_finished = Signal()

# Sent before an in-game vote (pausing) is counted: game, seat, kind. A receiver that returns a
# string vetoes the vote with that reason (tournaments lock votes that could spoil results).
vote_check = Signal()
