"""Card games started under rules revision 2 (after 0018, before the rules were put right in issue
30) keep it: their options and their snapshot's options say `revision: 2`
(games/engine/lcg/abilities.py REVISION), so their action logs replay to the same states. A game
that names its revision already is left as it is."""
from django.db import migrations

BATCH = 500


def mark(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    changed = []
    for game in Game.objects.filter(ruleset="lcg").only("id", "options", "state").iterator(chunk_size=BATCH):
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
    dependencies = [("games", "0018_lcg_revision")]
    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
