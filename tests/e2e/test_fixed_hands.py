"""A club night's game on a phone (390×844): three hands at Minimum Counts 125 / 155 / 180, chosen on the
new-game page and played to the end (docs/rules.md §1, "A fixed number of hands").

Figures worked out by hand (modern: natural canasta 500, mixed 300; a side with no canasta scores its Count):
  hand 1  Us natural 1, Count 120 → 620            Them Count −30 → −30
  hand 2  Us mixed 1, Count 50 → 350 (970)         Them natural 2, Count 100 → 1,100 (1,070)
  hand 3  Us natural 2, Count 200 → 1,200 (2,170)  Them Count −50 → −50 (1,020)
Nobody reaches 8,500: the game ends after hand 3, and Us win by 2,170 − 1,020 = 1,150.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import name_the_players, no_horizontal_scroll

HANDS = [
    ({"Natural canastas": "1", "Count": "120"}, {"Count": "-30"}),
    ({"Mixed canastas": "1", "Count": "50"}, {"Natural canastas": "2", "Count": "100"}),
    ({"Natural canastas": "2", "Count": "200"}, {"Count": "-50"}),
]


def enter(page: Page, number: int, us: dict, them: dict) -> None:
    """Enter a hand by its fields: steppers' numbers typed, the Count typed."""
    page.get_by_role("link", name=f"Enter hand {number}").tap()
    for side, entries in ((0, us), (1, them)):
        panel = page.locator(f'fieldset[data-side="{side}"]')
        for label, value in entries.items():
            field = (
                panel.get_by_role("textbox", name=re.compile("^Count"))
                if label == "Count"
                else panel.get_by_label(label, exact=True)
            )
            field.fill(value)
    page.get_by_role("button", name=f"Save hand {number}").tap()
    expect(page.locator(f"#hand-{number}")).to_be_visible(timeout=20_000)


def test_three_hands_at_125_155_180_chosen_on_the_page_and_played_to_the_end(page: Page, live_server: str):
    assert page.viewport_size == {"width": 390, "height": 844}
    page.goto(live_server + "/games/new")
    name_the_players(page)
    page.get_by_text("Number of hands: play to the target").tap()
    page.get_by_label("Number of hands", exact=True).fill("3")
    page.get_by_label("Minimum Counts by hand", exact=True).fill("125 / 155 / 180")
    assert no_horizontal_scroll(page)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("h1")).to_have_text("Us v Them", timeout=20_000)

    next_deal, minimums = page.locator(".next-deal"), page.locator(".min-count-figure")
    expect(next_deal).to_contain_text("Hand 1 of 3: Ann deals · 3 hands, or to 8,500")
    expect(minimums).to_have_text(["125", "125"])
    for number, heading, counts in ((1, "Hand 2 of 3:", "155"), (2, "Hand 3 of 3:", "180")):
        enter(page, number, *HANDS[number - 1])
        expect(next_deal).to_contain_text(heading, timeout=20_000)
        expect(minimums).to_have_text([counts, counts])
    expect(page.locator(".total-figure")).to_have_text(["970", "1,070"])

    enter(page, 3, *HANDS[2])
    winner = page.locator(".standings .winner")
    expect(winner).to_have_text("Us won by 1,150 points after 3 of 3 hands.", timeout=20_000)
    expect(page.locator(".total-figure")).to_have_text(["2,170", "1,020"])
    expect(next_deal).to_have_count(0)
    expect(page.get_by_role("link", name="Enter hand 4")).to_have_count(0)
    assert no_horizontal_scroll(page)
