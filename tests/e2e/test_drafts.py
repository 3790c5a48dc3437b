"""A hand being typed survives a reload, and is forgotten once saved or cancelled."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from conftest import start_game


def test_a_reload_keeps_the_hand_being_typed_until_it_is_saved(page, live_server):
    start_game(page, live_server)
    page.get_by_role("link", name="Enter hand 1").click()
    us, them = page.locator('fieldset[data-side="0"]'), page.locator('fieldset[data-side="1"]')
    us.get_by_label("Natural canastas", exact=True).fill("2")
    us.get_by_label("Went out").check(force=True)
    us.get_by_role("textbox", name=re.compile("^Count")).fill("240")
    them.get_by_role("radio", name="minus").check(force=True)
    them.get_by_role("textbox", name=re.compile("^Count")).fill("95")

    page.reload()  # a pull-to-refresh
    expect(page.locator("#draft-note")).to_be_visible()
    expect(us.get_by_label("Natural canastas", exact=True)).to_have_value("2")
    expect(us.get_by_label("Went out")).to_be_checked()
    expect(them.get_by_role("radio", name="minus")).to_be_checked()
    expect(them.get_by_role("textbox", name=re.compile("^Count"))).to_have_value("95")
    # The figures follow the restored entries: Us 1,000 + 100 + 240 = 1,340; Them −95
    expect(page.locator('#preview tr[data-side="0"] .cumulative')).to_have_text("1,340")
    expect(page.locator('#preview tr[data-side="1"] .cumulative')).to_have_text("\u221295")

    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".flash")).to_have_text("Hand 1 saved.")
    page.get_by_role("link", name="Enter hand 2").click()
    expect(page.locator("#draft-note")).to_be_hidden()
    expect(us.get_by_role("textbox", name=re.compile("^Count"))).to_have_value("")


def drafts(page) -> list[str]:
    """The keys of the drafts kept on this phone."""
    return page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('scorepad-draft:'))")


def test_enter_in_the_count_saves_the_hand_and_forgets_its_draft(page, live_server):
    start_game(page, live_server)
    page.get_by_role("link", name="Enter hand 1").click()
    us = page.locator('fieldset[data-side="0"]')
    us.get_by_label("Mixed canastas", exact=True).fill("1")
    count = us.get_by_role("textbox", name=re.compile("^Count"))
    count.fill("75")
    # Us: one mixed canasta, 3s count 0: 300 + 75 = 375
    expect(page.locator('#preview tr[data-side="0"] .cumulative')).to_have_text("375")
    assert drafts(page)
    count.press("Enter")
    expect(page.locator(".flash")).to_have_text("Hand 1 saved.")
    expect(page.locator(".total-figure").first).to_have_text("375")
    assert drafts(page) == []


def test_a_reload_after_the_game_changed_meanwhile_keeps_the_entries(page, context, live_server):
    start_game(page, live_server)
    page.get_by_role("link", name="Enter hand 1").click()
    page.locator('fieldset[data-side="0"]').get_by_role("textbox", name=re.compile("^Count")).fill("-45")
    other = context.new_page()  # the same scorekeeper on a second tab saves hand 1 first
    other.goto(page.url)
    other.locator('fieldset[data-side="0"]').get_by_role("textbox", name=re.compile("^Count")).fill("-10")
    other.locator('fieldset[data-side="1"]').get_by_role("textbox", name=re.compile("^Count")).fill("-20")
    other.get_by_role("button", name="Save hand 1").click()
    expect(other.locator(".flash")).to_have_text("Hand 1 saved.")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#form-errors")).to_contain_text("now as hand 2")
    # Once htmx has settled the answer, the draft is kept under the game's new version.
    page.wait_for_function("""() => Object.keys(localStorage).some(
        key => key.endsWith(':' + document.querySelector('input[name=version]').value))""")
    page.reload()
    expect(page.locator("h1")).to_have_text("Hand 2")
    expect(page.locator('fieldset[data-side="0"]').get_by_role("textbox", name=re.compile("^Count"))).to_have_value(
        "-45"
    )
