"""WCAG contrast of the board's colours, read from the one place they are defined (the :root block of
static/css/board.css): every house colour against the land, sea, port and impassable fills (3:1, a
graphic), and the order-token text against every token colour (4.5:1, text); the area labels
against every fill they sit on, owned tints included (4.5:1); the highlights of choosable, selected
and target areas and the rivers against the fills (3:1)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = Path(__file__).resolve().parent.parent / "static" / "css" / "board.css"
HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")
FILLS = ("land", "sea", "port", "impassable")


def colours() -> dict[str, str]:
    root = re.search(r":root\s*\{([^}]*)\}", CSS.read_text(encoding="utf-8")).group(1)
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})\s*;", root))


def rgb(hex_colour: str) -> tuple[float, float, float]:
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))


def luminance(hex_colour: str) -> float:
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb(hex_colour)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def ratio(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def mix(a: str, b: str, share: float) -> str:
    """CSS color-mix(in srgb, a share, b)."""
    return "#" + "".join(f"{round(x * 255 * share + y * 255 * (1 - share)):02x}" for x, y in zip(rgb(a), rgb(b), strict=True))


def test_every_colour_is_defined_once_in_the_root_block():
    c = colours()
    assert set(HOUSES) | set(FILLS) | {"token-text", "hidden-order", "board-ink"} <= set(c)
    css = CSS.read_text(encoding="utf-8")
    # outside :root the board's rules use the variables, not their own copies of a house colour
    rest = css[css.index("}", css.index(":root")):]
    for house in HOUSES:
        assert c[house].lower() not in rest.lower(), house


@pytest.mark.parametrize("house", HOUSES)
@pytest.mark.parametrize("fill", FILLS)
def test_house_colour_stands_out_on_every_fill(house, fill):
    c = colours()
    assert ratio(c[house], c[fill]) >= 3, f"{house} on {fill}: {ratio(c[house], c[fill]):.2f}:1"


@pytest.mark.parametrize("background", [*HOUSES, "hidden-order", "neutral"])
def test_token_text_is_readable_on_every_token(background):
    c = colours()
    assert ratio(c["token-text"], c[background]) >= 4.5, f"{ratio(c['token-text'], c[background]):.2f}:1"


@pytest.mark.parametrize("house", HOUSES)
def test_owned_areas_keep_labels_readable_and_the_band_visible(house):
    c = colours()
    css = CSS.read_text(encoding="utf-8")
    share = int(re.search(rf"\.owned\.house-{house} \{{ fill: color-mix\(in srgb, var\(--{house}\) (\d+)%, var\(--land\)\)", css).group(1))
    tint = mix(c[house], c["land"], share / 100)
    assert ratio(c["board-ink"], tint) >= 4.5
    assert ratio(c[house], tint) >= 3  # the band in the house colour on the tinted area


@pytest.mark.parametrize("mark", ["choosable", "selected", "target", "river"])
@pytest.mark.parametrize("fill", FILLS)
def test_highlights_and_rivers_stand_out(mark, fill):
    c = colours()
    assert ratio(c[mark], c[fill]) >= 3, f"{mark} on {fill}: {ratio(c[mark], c[fill]):.2f}:1"


@pytest.mark.parametrize("fill", FILLS)
def test_area_labels_are_readable(fill):
    c = colours()
    assert ratio(c["board-ink"], c[fill]) >= 4.5
