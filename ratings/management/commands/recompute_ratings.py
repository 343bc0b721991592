"""Replay every rated game and show how the stored ratings differ from the replay; --write applies it."""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from ratings.services import Difference, Recomputed, recompute_all

SHOWN_GAME_IDS = 20


class Command(BaseCommand):
    help = (
        "Replay all Elo ratings from the ranked games, in the order they were rated (games never rated "
        "come after, by finish time), and show every rating that differs from the stored one. A dry run "
        "by default: nothing is written and no row is locked, and the exit code is 1 when a rating "
        "differs (0 when none does), so a scheduled check can alert. --write replaces the stored ratings "
        "and history with the replay (exit code 0)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--write", action="store_true",
                            help="Replace the stored ratings and rating history with the replay (the rating "
                                 "rows are locked while it runs; best when the server is quiet).")

    def handle(self, *args, write: bool = False, **options) -> None:
        result = recompute_all(write=write)
        self.stdout.write(f"Replayed {result.games} ranked games into {result.ratings} ratings.")
        if result.never_rated:
            shown = ", ".join(str(pk) for pk in result.never_rated[:SHOWN_GAME_IDS])
            more = ", ..." if len(result.never_rated) > SHOWN_GAME_IDS else ""
            self.stdout.write(self.style.WARNING(
                f"{len(result.never_rated)} games had never been rated (finished while ratings were off?); "
                f"replayed after the rated ones, by finish time: {shown}{more}."))
        if result.differences:
            self.stdout.write(table(result.differences))
        style = self.style.WARNING if result.differences else self.style.SUCCESS
        self.stdout.write(style(summary(result)))
        if result.differences and not write:
            raise CommandError("Ratings differ from the replay; run with --write to apply it.", returncode=1)


def table(differences: list[Difference]) -> str:
    rows = [("player", "ruleset", "stored", "recomputed", "difference")]
    rows += [(d.username, f"{d.ruleset}/{d.format}", _show(d.stored), _show(d.recomputed),
              "" if d.delta is None else f"{d.delta:+.2f}") for d in differences]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(width) if i < 2 else cell.rjust(width)
                               for i, (cell, width) in enumerate(zip(row, widths, strict=True))).rstrip()
                     for row in rows)


def _show(value: tuple[float, int] | None) -> str:
    return "none" if value is None else f"{value[0]:.2f} ({value[1]} games)"


def summary(result: Recomputed) -> str:
    if not result.differences:
        return "No rating differs: the stored ratings match the replay."
    if result.written:
        return f"{len(result.differences)} ratings differed from the replay; written."
    return f"{len(result.differences)} ratings differ from the replay; nothing written (dry run)."
