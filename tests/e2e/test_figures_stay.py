"""Figures never hide (issue 17): a problem on one side marks its field and says why beside it, in full, at a small
phone's 360×740; every other side's figures stay shown, in the preview worked out on the phone and in the server's.
The preview worked out on the phone also says when the hand ends the game, in the server's words.

Modern preset (docs/rules.md): natural canasta 500, sevens and pure aces 2,500, seven 2s 3,000, 4 red 3s 1,000 (two or
more canastas), going out 100; a Count is a multiple of 5; target 8,500. Us = Ann & Cleo, Them = Bea & Dot.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route, expect

from conftest import start_game

MINUS = "\u2212"
WAIT = 20_000  # ms: a page from the server, on a machine that may be busy
SMALL = {"width": 360, "height": 740}


def only_the_phone(page: Page) -> None:
    """The server's live preview answers nothing (204: htmx swaps nothing), so what shows is the phone's own."""

    def nothing(route: Route) -> None:
        route.fulfill(status=204, body="")

    page.route("**/hands/preview", nothing)


def fully_seen(page: Page, selector: str) -> bool:
    """The element's box is inside the screen, above the bar, and nothing of its words is cut off."""
    return page.evaluate(
        """(selector) => {
            const slot = document.querySelector(selector), box = slot.getBoundingClientRect();
            const bar = document.querySelector('.entry-bar').getBoundingClientRect();
            const clipped = [];
            for (let n = slot; n && n !== document.body; n = n.parentElement) {
                if (getComputedStyle(n).overflow !== 'visible' && n.scrollWidth > n.clientWidth + 1) clipped.push(n);
            }
            return box.width > 0 && box.left >= 0 && box.right <= innerWidth && box.top >= 0 && box.bottom <= bar.top
                && slot.scrollWidth <= slot.clientWidth + 1 && slot.scrollHeight <= slot.clientHeight + 1
                && !clipped.length;
        }""",
        selector,
    )


@pytest.mark.parametrize("where", ["phone", "server"])
def test_a_problem_on_one_side_leaves_the_others_figures_shown(page: Page, live_server: str, where: str):
    page.set_viewport_size(SMALL)
    start_game(page, live_server)
    if where == "phone":
        only_the_phone(page)
    # Us: a natural canasta 500, Count 120: hand 620, total 620. Them: a Count of 123, not a multiple of 5.
    page.locator('[name="s0-natural_canastas_pick"][value="1"]').check()
    page.locator('[name="s0-count"]').fill("120")
    page.locator('[name="s1-count"]').fill("123")
    message = "The Count must be a multiple of 5."
    expect(page.locator("#s1-count-error")).to_have_text(message, timeout=WAIT)
    expect(page.locator("#s1-count")).to_have_attribute("aria-invalid", "true", timeout=WAIT)
    expect(page.locator("#side-figures-0")).to_have_text("Base 500 · Count 120", timeout=WAIT)
    expect(page.locator("#side-figures-1")).to_have_text("", timeout=WAIT)
    expect(page.locator('#preview tr[data-side="0"] td')).to_have_text(["620", "620"], timeout=WAIT)
    expect(page.locator('#preview tr[data-side="1"]')).to_contain_text("fix the entry marked above", timeout=WAIT)
    # The words beside the field, in full on the small screen.
    page.locator("#s1-count-error").scroll_into_view_if_needed()
    assert fully_seen(page, "#s1-count-error")
    # Fixed, both sides' figures: Them no canasta, Count −120 (entered as 120 with −): −120.
    page.locator('fieldset[data-side="1"]').get_by_role("radio", name="minus", exact=True).check()
    page.locator('[name="s1-count"]').fill("120")
    expect(page.locator("#s1-count-error")).to_have_text("", timeout=WAIT)
    expect(page.locator('#preview tr[data-side="1"] td')).to_have_text([f"{MINUS}120", f"{MINUS}120"], timeout=WAIT)
    expect(page.locator("#side-figures-1")).to_have_text(f"Base 0 · Count {MINUS}120", timeout=WAIT)


@pytest.mark.parametrize("where", ["phone", "server"])
def test_the_preview_says_when_the_hand_ends_the_game(page: Page, live_server: str, where: str):
    start_game(page, live_server)
    if where == "phone":
        only_the_phone(page)
    us = page.locator('fieldset[data-side="0"]')
    # Us: sevens 2,500 + pure aces 2,500 + seven 2s 3,000 + 4 red 3s 1,000 + going out 100 = Base 9,100; Count 200:
    # 9,300, past 8,500. Them: no canasta, Count −50.
    us.locator(".switch label").filter(has_text="Sevens canasta").tap()
    us.locator(".switch label").filter(has_text="Pure aces canasta").tap()
    us.locator(".chip").filter(has_text="seven 2s").tap()
    page.locator('[name="s0-red_threes_pick"][value="4"]').check()
    us.locator(".switch label").filter(has_text="Went out").tap()
    page.locator('[name="s0-count"]').fill("200")
    page.locator('fieldset[data-side="1"]').get_by_role("radio", name="minus", exact=True).check()
    page.locator('[name="s1-count"]').fill("50")
    expect(page.locator('#preview tr[data-side="0"] td')).to_have_text(["9,300", "9,300"], timeout=WAIT)
    expect(page.locator("#hand-ends-game")).to_have_text(
        f"This hand ends the game: Us win 9,300 to {MINUS}50.", timeout=WAIT
    )
    # Taken back below the target (no going out, no red 3s: 8,000 + 200 = 8,200), the line goes.
    us.locator(".switch label").filter(has_text="Went out").tap()
    page.locator('[name="s0-red_threes_pick"][value="0"]').check()
    expect(page.locator('#preview tr[data-side="0"] td')).to_have_text(["8,200", "8,200"], timeout=WAIT)
    expect(page.locator("#hand-ends-game")).to_have_text("", timeout=WAIT)
