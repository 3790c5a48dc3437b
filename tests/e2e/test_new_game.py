"""Starting a game on a phone: the first dealer chosen is the one who deals."""

from __future__ import annotations

from playwright.sync_api import expect


def test_the_first_dealer_list_follows_the_names_and_keeps_the_choice(page, live_server):
    page.goto(live_server + "/games/new")
    for label, name in (
        ("Player 1 of side 1", "Ann"),
        ("Player 2 of side 1", "Cleo"),
        ("Player 1 of side 2", "Bea"),
        ("Player 2 of side 2", "Dan"),
    ):
        page.get_by_label(label).fill(name)
    dealer = page.get_by_label("First dealer")
    # Straight from the last name to the list: the choice must stick (seats: Ann, Bea, Cleo, Dan).
    dealer.select_option(label="Dan (Them)")
    page.get_by_label("Points to win").click()  # leave the list
    expect(dealer).to_have_value("3")
    expect(page.locator("#seat-order")).to_have_text("Ann (Us), Bea (Them), Cleo (Us), Dan (Them)")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".next-deal")).to_contain_text("Hand 1: Dan deals")
