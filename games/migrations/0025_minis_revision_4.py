"""Miniatures games started under rules revision 4 (between migration 0023 and revision 5: the random
terrain's 7, the player's choice, is a hill, Elevated, instead of a Forest, and the Combat zone's free
Attack may attack a Destructible piece within 1 in) keep revision 4: their options and their snapshot's
options say `revision: 4` (games/engine/minis/table.py REVISION), so their action logs replay to the same
states. A game that names its revision already (1, 2 or 3, marked by 0020, 0022 and 0023) is left as it
is."""
from django.db import migrations

BATCH = 500


def mark(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    changed = []
    for game in Game.objects.filter(ruleset="minis").only("id", "options", "state").iterator(chunk_size=BATCH):
        options = dict(game.options or {})
        if "revision" in options:
            continue
        game.options = {**options, "revision": 4}
        state = game.state
        if isinstance(state, dict) and isinstance(state.get("options"), dict):
            state["options"].setdefault("revision", 4)
        changed.append(game)
        if len(changed) == BATCH:
            Game.objects.bulk_update(changed, ["options", "state"])
            changed = []
    if changed:
        Game.objects.bulk_update(changed, ["options", "state"])


class Migration(migrations.Migration):
    dependencies = [("games", "0024_seat_user_present_game")]
    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
