"""An installed (non-editable) copy of the project must carry every engine's data files: each data
folder of a package is listed in pyproject.toml's package-data."""
from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_data_file_of_a_package_is_in_package_data():
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    missing = []
    for folder in ("games", "web"):
        for path in sorted((ROOT / folder).rglob("data/*")):
            if path.suffix not in {".yaml", ".md"} or "__pycache__" in path.parts:
                continue
            package = ".".join(path.parent.parent.relative_to(ROOT).parts)
            inside = path.relative_to(path.parent.parent).as_posix()
            if not any(fnmatch.fnmatch(inside, pattern) for pattern in listed.get(package, [])):
                missing.append(f"{package}: {inside}")
    assert not missing, missing
