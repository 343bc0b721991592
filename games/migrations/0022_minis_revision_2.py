"""Miniatures games started under rules revision 2 (between migration 0020 and revision 3: line of
sight exact to the tolerance, Dangerous terrain entered by moves a unit does not make itself, To The
Last!) keep revision 2: their options and their snapshot's options say `revision: 2`
(games/engine/minis/table.py REVISION), so their action logs replay to the same states. A game that
names its revision already (revision 1, marked by 0020) is left as it is."""
from django.db import migrations

BATCH = 500


def mark(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    changed = []
    for game in Game.objects.filter(ruleset="minis").only("id", "options", "state").iterator(chunk_size=BATCH):
        options = dict(game.options or {})
        if "revision" in options:
            continue
        game.options = {**options, "revision": 2}
        state = game.state
        if isinstance(state, dict) and isinstance(state.get("options"), dict):
            state["options"].setdefault("revision", 2)
        changed.append(game)
        if len(changed) == BATCH:
            Game.objects.bulk_update(changed, ["options", "state"])
            changed = []
    if changed:
        Game.objects.bulk_update(changed, ["options", "state"])


class Migration(migrations.Migration):
    dependencies = [("games", "0021_army")]
    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
