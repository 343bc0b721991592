"""The engines are pure Python (the design card): no module under games/engine imports Django, so an
engine runs, replays and simulates without the site."""
from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def test_no_engine_module_imports_django():
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.relative_to(ENGINE)}: {n}" for n in names if n == "django" or n.startswith("django.")]
    assert not found, found
