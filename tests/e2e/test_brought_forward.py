"""A game moved in from paper: totals brought forward typed on the new-game page at a phone's size, seen on the
sheet as the line before hand 1 and in the totals.

By hand (docs/rules.md): Us bring 3,000 forward, Them 1,500; before hand 1 the totals are those, and the
Minimum Counts are 155 (3,000 is in the 3,000-4,995 band) and 125 (below 3,000)."""

from __future__ import annotations

from playwright.sync_api import expect

from conftest import PHONE, name_the_players, no_horizontal_scroll


def test_totals_brought_forward_on_the_new_game_page_start_the_sheet(page, live_server):
    assert page.viewport_size == PHONE
    page.goto(live_server + "/games/new")
    name_the_players(page)
    page.get_by_text("Moving a game from paper").click()  # the rare options, folded away
    page.get_by_label("Us brought forward").fill("3002")
    page.get_by_role("button", name="Start the game").click()
    # A bad value: said in words beside its field, and the names typed are still there.
    expect(page.locator("#brought_forward0-error")).to_contain_text(
        "Us's total brought forward is 3,002: canasta scores go in 5s, like 3,000.", timeout=15_000
    )
    expect(page.get_by_label("Player 1 of side 1", exact=True)).to_have_value("Ann")
    page.get_by_label("Us brought forward").fill("3000")
    page.get_by_label("Them brought forward").fill("1500")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("h1")).to_have_text("Us v Them", timeout=15_000)
    line = page.locator("tr.brought-forward")
    expect(line).to_contain_text("Brought forward")
    expect(line.locator("dd.cumulative")).to_have_text(["3,000", "1,500"])
    expect(page.locator(".total-figure")).to_have_text(["3,000", "1,500"])
    expect(page.locator(".min-count-figure")).to_have_text(["155", "125"])
    assert no_horizontal_scroll(page)
