"""The site's YAML (engine data, board layout, scenarios) is read through games/engine/yamlfile.py,
with libyaml's C loader (issue 27: a pure-Python read of a card file cost 0.35-0.53 s a page)."""
import re
from pathlib import Path

import pytest
import yaml

from games.engine import yamlfile

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "web", "accounts", "ratings", "tournaments", "challenges", "westeros", "notifications",
            "events", "chat")


def test_the_c_loader_is_used_when_pyyaml_has_it():
    assert yaml.__with_libyaml__, "PyYAML was installed without libyaml: the data files load slowly"
    assert yamlfile.SafeLoader is yaml.CSafeLoader


def test_no_site_module_reads_yaml_another_way():
    offenders = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if path.name == "yamlfile.py" or "migrations" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            if re.search(r"\byaml\.(safe_load|load|full_load|unsafe_load)\(", text):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_loads_plain_data_and_refuses_python_tags(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text("cards:\n  - id: c1\n    name: Ser Jaime\n", encoding="utf-8")
    assert yamlfile.load(path) == {"cards": [{"id": "c1", "name": "Ser Jaime"}]}
    with pytest.raises(yamlfile.YAMLError):  # a safe loader refuses Python tags
        yamlfile.loads("!!python/object/apply:os.system ['true']")
