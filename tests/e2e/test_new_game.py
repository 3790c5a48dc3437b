"""Starting a game on a phone: the first dealer chosen is the one who deals."""

from __future__ import annotations

from playwright.sync_api import expect

from conftest import until


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


def test_a_table_size_answered_late_keeps_the_names_typed_meanwhile(page, live_server):
    """Tapping a table size asks the server for its dealer list; on slow Wi-Fi the names are typed before it
    comes. The list that comes names them anyway (not "Player 1 of side 1")."""
    page.goto(live_server + "/games/new")
    held = []
    page.route("**/games/new?*", lambda route: held.append(route))  # the table size's answer, held back
    page.get_by_role("radio", name="Two players").click()
    until(page, lambda: held, "asking for the table size's dealer list", seconds=5)
    page.get_by_label("Player 1 of side 1", exact=True).fill("Ann")
    page.get_by_label("Player 1 of side 2", exact=True).fill("Bea")
    held[0].continue_()  # the answer arrives now, drawn from the form as it was (no names yet)
    dealer = page.get_by_label("First dealer")
    expect(dealer.locator("option")).to_have_text(["Ann (Us)", "Bea (Them)"])


def test_names_typed_before_the_page_script_runs_still_name_the_dealers(page, live_server):
    held = []
    page.route("**/static/js/scorepad.min.js*", lambda route: held.append(route))  # a slow phone's script
    page.goto(live_server + "/games/new", wait_until="commit")  # the page is drawn; its script is held
    page.get_by_label("Player 1 of side 1", exact=True).fill("Ann")
    page.get_by_label("Player 1 of side 2", exact=True).fill("Bea")
    until(page, lambda: held, "asking for the page's script", seconds=5)
    held[0].continue_()
    options = page.get_by_label("First dealer").locator("option")
    expect(options).to_have_text(["Ann (Us)", "Bea (Them)", "Player 2 of side 1 (Us)", "Player 2 of side 2 (Them)"])
