"""Miniatures games started under rules revision 3 (between migration 0022 and revision 4: a seat with
nothing left to activate still takes its turn's start and end windows (M29), Subjugation of Power's
"cannot be targeted by its own side's Tactics cards", the NCU abilities Playing The Game and Repeating
the Words) keep revision 3: their options and their snapshot's options say `revision: 3`
(games/engine/minis/table.py REVISION), so their action logs replay to the same states. A game that
names its revision already (1 or 2, marked by 0020 and 0022) is left as it is."""
from django.db import migrations

BATCH = 500


def mark(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    changed = []
    for game in Game.objects.filter(ruleset="minis").only("id", "options", "state").iterator(chunk_size=BATCH):
        options = dict(game.options or {})
        if "revision" in options:
            continue
        game.options = {**options, "revision": 3}
        state = game.state
        if isinstance(state, dict) and isinstance(state.get("options"), dict):
            state["options"].setdefault("revision", 3)
        changed.append(game)
        if len(changed) == BATCH:
            Game.objects.bulk_update(changed, ["options", "state"])
            changed = []
    if changed:
        Game.objects.bulk_update(changed, ["options", "state"])


class Migration(migrations.Migration):
    dependencies = [("games", "0022_minis_revision_2")]
    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
