"""Helpers shared by the tests of the log in words of the card game and the miniatures
(tests/engine/test_lcg_narrate.py, tests/engine/test_minis_narrate.py): the strings of an event, and
the check that every sample event reads as a sentence of its own to every viewer."""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator


def strings(x) -> Iterator[str]:
    """Every string of a (filtered) event, keys included."""
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield k
            yield from strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from strings(v)


def assert_every_sample_reads_as_a_sentence(ruleset, narrators, samples: dict, viewers: Iterable, *,
                                            placeholder: re.Pattern, raw: re.Pattern,
                                            in_text: Iterable[re.Pattern] = (),
                                            in_bare: Iterable[re.Pattern] = ()) -> None:
    """Each sample event (`samples`: one event per (kind, keys)), as each of `viewers` sees it
    (event_view), has a sentence of its own (its kind in `narrators`, not the fallback): it begins
    with a capital or a seat placeholder and ends with a full stop; it holds nothing `raw` matches,
    nothing `in_text` matches, and, once the seat placeholders are taken out, no brace and nothing
    `in_bare` matches; its parts join to the text, each seat placeholder is a part naming its seat,
    and the sentence's `seats` are those parts' seats in order, once each."""
    viewers, in_text, in_bare = list(viewers), list(in_text), list(in_bare)
    for (kind, _), ev in samples.items():
        assert kind in narrators, kind  # its own sentence, not the fallback
        for viewer in viewers:
            said = ruleset.describe_event(ruleset.event_view(ev, viewer))
            text = said["text"]
            assert text and (text[0].isupper() or text.startswith("{")) and text.endswith("."), (kind, text)
            bare = placeholder.sub("", text)
            assert not raw.search(text) and "{" not in bare and "}" not in bare, (kind, text)
            for pattern in in_text:
                assert not pattern.search(text), (kind, text, pattern.pattern)
            for pattern in in_bare:
                assert not pattern.search(bare), (kind, text, pattern.pattern)
            assert "".join(p["text"] for p in said["parts"]) == text
            seats = [p["seat"] for p in said["parts"] if "seat" in p]
            assert all(p["text"] == "{" + p["seat"] + "}" for p in said["parts"] if "seat" in p)
            assert len(seats) == len(placeholder.findall(text)) and said.get("seats", []) == list(dict.fromkeys(seats))
