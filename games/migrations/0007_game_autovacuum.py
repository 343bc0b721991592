"""games_game: autovacuum by a fixed number of dead row versions, not by a share of the table (issue 20).

Every action rewrites the game's row, and its state (a few KB of JSON, compressed and kept in the
TOAST table in two chunks) leaves its old version behind until VACUUM: 3.6-4 KB per action. By
default autovacuum cleans a table once its dead versions pass 50 + 20% of its rows, so the dead
space it lets pile up grows with the number of games stored (20,000 finished games: about 4,000
dead versions, 8,000 dead TOAST chunks, some 15 MB). With the scale factor at 0, autovacuum takes
games_game and its TOAST table as soon as a fixed number of versions is dead, whatever the size of
the table, and the space it frees is reused by the next actions: the table stays at its live size
plus what the actions of about one autovacuum_naptime leave behind (benchmarks/db_growth.py;
README, "Performance"). VACUUM skips the pages of finished games (all visible), so a frequent
vacuum of a large table stays cheap.

PostgreSQL only (these are its storage parameters); on another database this migration does nothing.
"""
from django.db import migrations

OPTIONS = {
    "autovacuum_vacuum_scale_factor": "0.0",
    "autovacuum_vacuum_threshold": "500",
    "toast.autovacuum_vacuum_scale_factor": "0.0",
    "toast.autovacuum_vacuum_threshold": "1000",
}


def set_options(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        settings = ", ".join(f"{name} = {value}" for name, value in OPTIONS.items())
        schema_editor.execute(f"ALTER TABLE games_game SET ({settings})")


def reset_options(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE games_game RESET ({', '.join(OPTIONS)})")


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0006_lobby_decks"),
    ]

    operations = [
        migrations.RunPython(set_options, reset_options, elidable=False),
    ]
