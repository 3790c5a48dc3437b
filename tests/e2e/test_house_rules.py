"""A table's own house rules, set on the new-game page of a phone, and the figures that follow them.

The house: natural canasta 600 (modern: 500), going out 200 (100), a second Minimum Count band from
1,000 at 150 (3,000 at 155). Figures worked out by hand; the comment beside each shows the sum.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from conftest import name_the_players


def open_group(page: Page, title: str) -> None:
    """Open one group of the table rules by its summary."""
    page.locator("#game_rules summary", has_text=title).first.tap()


def test_house_values_set_on_the_phone_score_the_hand(page: Page, live_server: str):
    page.goto(live_server + "/games/new")
    name_the_players(page)
    natural = page.get_by_label("Natural canasta", exact=True)
    expect(natural).to_be_hidden()  # the groups start closed: the page stays short
    open_group(page, "Canastas")
    expect(natural).to_have_value("500")
    natural.fill("502")  # digits only on the phone: no minus to type
    page.get_by_role("button", name="Start the game").click()
    # Refused beside the field, its group open again, nothing typed lost.
    expect(page.locator("#value_natural_canasta-error")).to_have_text("Natural canasta: points are a multiple of 5.")
    expect(natural).to_be_visible()
    expect(page.get_by_label("Player 2 of side 2", exact=True)).to_have_value("Dot")
    natural.fill("600")
    open_group(page, "Going out")
    page.get_by_label("Going out", exact=True).fill("200")
    open_group(page, "Minimum Counts")
    page.locator("#band1_from").fill("1000")
    page.locator("#band1_minimum").fill("150")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Us v Them")).to_be_visible()

    page.get_by_role("link", name="Enter hand 1").click()
    page.locator("#s0-natural_canastas").fill("2")
    page.locator('label[for="s0-went_out"]').click()
    page.locator("#s0-count").fill("100")
    page.locator("#s1-count").fill("0")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#hand-1")).to_be_visible()
    us = page.locator('.total-card[data-side="0"]')
    expect(us.locator(".total-figure")).to_have_text("1,500")  # 2 x 600 + going out 200 + Count 100; no 3s
    expect(us.locator(".min-count-figure")).to_have_text("150")  # 1,500 reaches the band from 1,000
    them = page.locator('.total-card[data-side="1"]')
    expect(them.locator(".min-count-figure")).to_have_text("125")  # 0: the first band
