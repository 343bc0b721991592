"""Reading the engines' YAML data files and scenario texts: one place that picks libyaml's C loader
(CSafeLoader, several times faster than PyYAML's pure-Python one; issue 27) when PyYAML was built
with it, else the pure-Python SafeLoader. Both are safe loaders: plain data only, no Python tags."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
YAMLError = yaml.YAMLError


def loads(text: str) -> Any:
    """The data in a YAML text."""
    return yaml.load(text, Loader=SafeLoader)


def load(path: str | Path) -> Any:
    """The data in a YAML file (UTF-8)."""
    return loads(Path(path).read_text(encoding="utf-8"))
