"""The hand form's number boxes read as the server reads them (issue 17's small points): a count's box holding only
spaces is an empty box, so the choice ticked in its row counts, on the phone as on the server; a stepper's + never
takes a number down.

Modern preset (docs/rules.md): natural canasta 500; a player dirty on 7s 1,500; Us = Ann & Cleo, Them = Bea & Dot.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route, expect

from conftest import start_game

WAIT = 20_000  # ms: the machine running the tests may be slow


def only_the_phone(page: Page) -> None:
    """The server's live preview answers nothing (204: htmx swaps nothing), so what shows is the phone's own."""

    def nothing(route: Route) -> None:
        route.fulfill(status=204, body="")

    page.route("**/hands/preview", nothing)


@pytest.mark.parametrize("where", ["phone", "server"])
def test_a_box_of_spaces_beside_a_choice_is_read_as_the_choice(page: Page, live_server: str, where: str):
    start_game(page, live_server)
    if where == "phone":
        only_the_phone(page)
    page.locator('[name="s0-natural_canastas_pick"][value="2"]').check()
    # Spaces in the box beside the row, as a paste puts them there (the keyboard's are refused as they are typed).
    page.locator('[name="s0-natural_canastas"]').evaluate(
        "box => { box.value = '   '; box.dispatchEvent(new Event('input', {bubbles: true})); }"
    )
    page.locator('[name="s0-count"]').fill("100")
    page.locator('[name="s1-count"]').fill("50")
    # Us: two natural canastas 1,000, Count 100: 1,100. Them: no canasta, Count −50.
    page.locator('fieldset[data-side="1"]').get_by_role("radio", name="minus", exact=True).check()
    expect(page.locator("#side-figures-0")).to_have_text("Base 1,000 · Count 100", timeout=WAIT)
    expect(page.locator('#preview tr[data-side="0"] td')).to_have_text(["1,100", "1,100"], timeout=WAIT)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#hand-1 .cumulative")).to_have_text(["1,100", "\u221250"], timeout=WAIT)


def test_a_steppers_plus_never_takes_a_number_typed_past_its_most_down(page: Page, live_server: str):
    """Us have two players: three dirty on 7s is one too many, and + leaves the 3 as typed, to be put right."""
    start_game(page, live_server)
    us = page.locator('fieldset[data-side="0"]')
    us.locator("details.more summary").click()
    box = page.locator('[name="s0-dirty_sevens"]')
    box.fill("3")
    us.get_by_role("button", name="One more: Players dirty with 7s", exact=True).click()
    expect(box).to_have_value("3")
    us.get_by_role("button", name="One fewer: Players dirty with 7s", exact=True).click()
    expect(box).to_have_value("2")
    us.get_by_role("button", name="One more: Players dirty with 7s", exact=True).click()
    expect(box).to_have_value("2")  # at its most, + does nothing


def test_every_target_on_the_hand_form_is_a_fingers_size_at_360_px(page: Page, live_server: str):
    """The rows were drawn closer together to leave room for longer words (issue 17): no target got smaller for it.
    Each choice of a row, chip, switch, sign, Grid, "More" and Save is at least 44 px high; a choice at least 36 px
    wide (five of a row and the box beside it fit a 360 px phone)."""
    page.set_viewport_size({"width": 360, "height": 740})
    start_game(page, live_server)
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.get_by_role("heading", name="Hand 1")).to_be_visible(timeout=WAIT)
    targets = page.evaluate("""() => [...document.querySelectorAll(
        '.hand-form :is(.segmented span, .chip span, .switch label, .grid-toggle span, details > summary, .save-hand)')]
        .map((target) => {
            const box = target.getBoundingClientRect();
            return {what: target.textContent.trim().slice(0, 30), height: box.height, width: box.width};
        })
        .filter((target) => target.height > 0)""")
    assert len(targets) > 30, targets  # each side's rows, chips and switches
    small = [t for t in targets if t["height"] < 44 - 0.5 or t["width"] < 36 - 0.5]
    assert not small, small
