"""A table's rules saved on the phone under its name, and chosen beside the presets for the next game.

Tuesday club plays CLA with a natural canasta at 600 (CLA: 500), going out 200 (100), and the Count of a
side with no canasta as melded minus in hand (CLA: every card against it). Figures worked out by hand.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from test_accessibility import assert_none, axe_violations

from conftest import name_the_players, no_horizontal_scroll


def open_group(page: Page, title: str) -> None:
    """Open one group of the table rules by its summary."""
    page.locator("#game_rules summary", has_text=title).first.tap()


def test_rules_saved_under_a_name_start_the_next_game(page: Page, live_server: str):
    page.goto(live_server + "/games/new")
    name_the_players(page)
    page.locator('input[name="preset"][value="cla"]').check()
    expect(page.locator("#game_rules")).to_contain_text("Each value starts as CLA's")
    open_group(page, "Canastas")
    page.get_by_label("Natural canasta", exact=True).fill("600")
    page.get_by_label("The Count of a side with no canasta").select_option("melded_minus_hand")
    open_group(page, "Going out")
    page.get_by_label("Going out", exact=True).fill("200")
    page.get_by_label("Save these rules as").fill("Tuesday club")
    page.get_by_role("button", name="Save these rules").click()
    expect(page.get_by_text("Rules saved as \u201cTuesday club\u201d: choose them here next time.")).to_be_visible()
    expect(page.get_by_label("Player 2 of side 2", exact=True)).to_have_value("Dot")  # nothing typed lost
    assert no_horizontal_scroll(page)

    # Next time: a fresh page, the saved rules chosen beside the presets.
    page.goto(live_server + "/games/new")
    name_the_players(page)
    expect(page.locator('input[name="preset"][value="modern"]')).to_be_checked()
    page.get_by_label("Or start from rules saved on this phone").select_option(label="Tuesday club (CLA)")
    expect(page.locator("#game_rules")).to_contain_text("Each value starts as \u201cTuesday club\u201d saved it")
    expect(page.locator('input[name="preset"][value="cla"]')).to_be_checked()  # the preset comes along
    open_group(page, "Canastas")
    expect(page.get_by_label("Natural canasta", exact=True)).to_have_value("600")
    expect(page.get_by_label("The Count of a side with no canasta")).to_have_value("melded_minus_hand")
    assert no_horizontal_scroll(page)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Us v Them")).to_be_visible()
    expect(page.locator(".rules-line")).to_contain_text("CLA")

    page.get_by_role("link", name="Enter hand 1").click()
    page.locator("#s0-natural_canastas").fill("2")
    page.locator('label[for="s0-went_out"]').click()
    page.locator("#s0-count").fill("100")
    page.locator("#s1-count").fill("20")  # no canasta, yet a Count above 0: melded minus in hand
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#hand-1")).to_be_visible()
    # Us: 2 x 600 + going out 200 + Count 100 = 1,500; Them: no 3s, no canasta, Count 20
    expect(page.locator('.total-card[data-side="0"] .total-figure')).to_have_text("1,500")
    expect(page.locator('.total-card[data-side="1"] .total-figure')).to_have_text("20")


def test_saved_rules_are_renamed_and_deleted_on_the_phone_s_rules_page(page: Page, live_server: str):
    page.goto(live_server + "/games/new")
    page.get_by_label("Save these rules as").fill("Tuesday club")
    page.get_by_role("button", name="Save these rules").click()
    expect(page.get_by_text("Rules saved as \u201cTuesday club\u201d")).to_be_visible()
    page.get_by_role("link", name="Rules saved on this phone").first.click()
    expect(page.get_by_role("heading", name="Tuesday club")).to_be_visible()
    page.get_by_text("Rename or delete").tap()
    page.get_by_label("New name for Tuesday club").fill("Thursday club")
    page.get_by_role("button", name="Rename Tuesday club").click()
    expect(page.get_by_text("\u201cTuesday club\u201d is now called \u201cThursday club\u201d.")).to_be_visible()
    assert no_horizontal_scroll(page)
    page.get_by_text("Rename or delete").tap()
    page.get_by_role("link", name="Delete Thursday club").click()
    page.get_by_role("button", name="Delete \u201cThursday club\u201d").click()
    expect(page.get_by_text("No rules are saved on this phone yet.")).to_be_visible()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_saving_and_the_rules_page_have_no_axe_fault(browser, browser_context_args, live_server: str, scheme: str):
    # axe-core is added as a script of the test's own: the app's Content-Security-Policy would refuse it.
    context = browser.new_context(**{**browser_context_args, "bypass_csp": True, "color_scheme": scheme})
    page = context.new_page()
    problems: list[str] = []
    page.goto(live_server + "/games/new")
    page.get_by_label("Save these rules as").fill("Tuesday club")
    page.get_by_role("button", name="Save these rules").click()
    expect(page.get_by_label("Or start from rules saved on this phone")).to_be_visible()
    page.get_by_label("Save these rules as").fill("Tuesday club")
    page.get_by_role("button", name="Save these rules").click()
    expect(page.get_by_role("button", name="Replace \u201cTuesday club\u201d")).to_be_visible()
    open_group(page, "Canastas")
    problems += axe_violations(page, scheme)
    page.goto(live_server + "/rules")
    page.get_by_text("Rename or delete").tap()
    page.get_by_label("New name for Tuesday club").fill("")
    page.get_by_role("button", name="Rename Tuesday club").click()
    expect(page.locator(".field-error", has_text="Give the rules a name")).to_be_visible()
    problems += axe_violations(page, scheme)
    context.close()
    assert_none(problems)
