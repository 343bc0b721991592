"""A small driver of the AGoT game page for browser tests: it answers whatever decision the page
shows with the page's own controls (clicks, never actions sent by hand), choosing simple, safe
answers so that a round is played quickly and with few surprises:

- orders: Consolidate Power and Defense where it can (R116-R117: the tokens the page allows), other
  tokens only when those run out; no March, so no battle of ours;
- the Messenger Raven: skipped; a March order (none is placed, but the page may still ask): removed;
- a bid: 0 power; a tie: the order the page proposes; mustering: nothing;
- a house card (the computer attacked us, or we support): the first card, then its confirmation
  (issue 26: "Play <card>");
- any other decision (raids, Consolidate Power, support, retreats, casualties, card abilities):
  the first of the choices the page lists as buttons.

`answer(page)` answers the page's seat's pending decision once and returns its kind; it raises when
the page shows no control it knows for it (a decision the page cannot answer is a defect)."""
from __future__ import annotations

from tests.browser.util import game_state

# Safest first: orders that neither start a battle nor leave an area open to one of ours.
PREFERRED_TOKENS = ("consolidate", "defense+1", "defense+2*", "consolidate*", "support+0", "support+1*",
                    "raid", "raid*", "march+0", "march-1", "march+1*")


def my_kind(page) -> str | None:
    s = game_state(page)
    return s["pending"].get(s["your_seat"]) if s and s["status"] == "active" else None


def place_safe_orders(page) -> dict[str, str]:
    """An order on every area the page lists for the seat, the safest allowed token each; submitted.
    Returns {area: token} as placed."""
    page.wait_for_selector("#submit-orders")
    areas = page.eval_on_selector_all("#decision button.area-pick", "bs => bs.map(b => b.dataset.area)")
    assert areas, "no area to order"
    placed = {}
    for area in areas:
        page.click(f"#decision button.area-pick[data-area={area}]")
        page.wait_for_selector(f"#decision button.area-pick[data-area={area}][aria-pressed=true]")
        allowed = page.eval_on_selector_all("#decision .tokens button.token:not([disabled])", "bs => bs.map(b => b.dataset.token)")
        token = next(t for t in PREFERRED_TOKENS if t in allowed)
        page.click(f"#decision .tokens button.token[data-token='{token}']")
        placed[area] = token
    submit = page.locator("#submit-orders")
    assert submit.inner_text() == "Place orders", submit.inner_text()   # no area left without one
    submit.click()
    return placed


def _first_choice(page, prefer: str | None = None) -> None:
    buttons = page.locator("#decision button.choice[data-action]:visible")
    if prefer and page.locator(f"#decision button.choice[data-action*='{prefer}']:visible").count():
        buttons = page.locator(f"#decision button.choice[data-action*='{prefer}']:visible")
    if not buttons.count():
        raise AssertionError(f"the page offers no choice for {my_kind(page)!r}: {page.locator('#decision').inner_text()}")
    buttons.first.click()


def answer(page) -> str:
    """Answer the seat's pending decision once through the page; returns its kind."""
    kind = my_kind(page)
    assert kind, "nothing to answer"
    page.wait_for_selector("#decision h2 .decision-title")
    if kind == "place_orders":
        place_safe_orders(page)
    elif kind == "house_card":
        page.locator("#decision .cards.choose .card[data-card]").first.click()
        page.wait_for_selector("#house-card-submit:not([disabled])")
        assert page.locator("#house-card-submit").inner_text().startswith("Play ")
        page.click("#house-card-submit")
    elif kind == "march" and page.locator("#decision button.choice[data-from]").count():
        page.locator("#decision button.choice[data-from]").first.click()
        page.click("#march-remove")
    elif kind == "bid" and page.locator("#bid-submit").count():
        page.fill("#bid-input", "0")
        page.click("#bid-submit")
    elif kind == "break_tie" and page.locator("#tie-submit").count():
        page.click("#tie-submit")
    elif kind == "muster" and page.locator("#muster-submit").count():
        page.click("#muster-submit")
    elif page.locator("#lose-submit").count():
        # units to lose: the server's list of every possible choice, the first of them
        page.locator("#decision details.lose-fallback summary").click()
        page.locator("#decision details.lose-fallback button.choice").first.click()
    elif kind == "raven":
        _first_choice(page, prefer="skip")
    else:
        _first_choice(page)
    return kind
