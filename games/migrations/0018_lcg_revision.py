"""Card games started before issue 30 keep the rules they were started under: their options (from
which a replay starts) and their snapshot's options say `revision: 1` (games/engine/lcg/abilities.py
REVISION), so their action logs replay to the same states under the windows and card ids of then."""
from django.db import migrations

BATCH = 500


def mark(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    changed = []
    for game in Game.objects.filter(ruleset="lcg").only("id", "options", "state").iterator(chunk_size=BATCH):
        options = dict(game.options or {})
        if "revision" in options:
            continue
        game.options = {**options, "revision": 1}
        state = game.state
        if isinstance(state, dict) and isinstance(state.get("options"), dict):
            state["options"].setdefault("revision", 1)
        changed.append(game)
        if len(changed) == BATCH:
            Game.objects.bulk_update(changed, ["options", "state"])
            changed = []
    if changed:
        Game.objects.bulk_update(changed, ["options", "state"])


class Migration(migrations.Migration):
    dependencies = [("games", "0017_deck")]
    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
