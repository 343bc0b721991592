"""Miniatures games started before rules revision 2 (issue 32's rules framework: effects declared
together, M70's alignment, the Combat and Wealth zones in full, exact line of sight, forced decisions,
terrain keywords) keep revision 1: their options and their snapshot's options say `revision: 1`
(games/engine/minis/table.py REVISION), so their action logs replay to the same states. A game that
names its revision already is left as it is."""
from django.db import migrations

BATCH = 500


def mark(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    changed = []
    for game in Game.objects.filter(ruleset="minis").only("id", "options", "state").iterator(chunk_size=BATCH):
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
    dependencies = [("games", "0019_lcg_revision_2")]
    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
