"""The next game at the same table: a rematch in one tap, and the names of recent games offered as you type.

The table: Us = Ann & Cleo, Them = Bea & Dot, Ann deals first, 1,000 to win. Seats go clockwise one
player from each side in turn: Ann, Bea, Cleo, Dot. Ann deals hand 1, so the rematch's first hand is Bea's.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from conftest import name_the_players

LIVE = 3000  # ms: what the scorekeeper does shows on the other players' scoreboards within 3 seconds
MINUS = "\u2212"


def start_short_game(page: Page, live_server: str) -> None:
    """A modern game to 1,000 from the new-game page, so one hand can win it."""
    page.goto(live_server + "/games/new")
    name_the_players(page)
    page.get_by_label("Points to win", exact=True).fill("1000")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".next-deal")).to_contain_text("Hand 1: Ann deals")


def win_in_one_hand(page: Page) -> None:
    """Us: two natural canastas, went out, Count 240; Them: Count −95. Typed into the hand form.

    The entries are found by the names the form sends (s0- for Us, s1- for Them), which stay put while
    the panels' layout and labels change.
    """
    page.get_by_role("link", name="Enter hand 1").tap()
    page.locator('[name="s0-natural_canastas"]').fill("2")
    page.locator('[name="s0-went_out"]').check(force=True)
    page.locator('[name="s0-count"]').fill("240")
    page.locator('[name="s1-count_sign"][value="-"]').check(force=True)
    page.locator('[name="s1-count"]').fill("95")
    expect(page.locator('[name="s0-natural_canastas"]')).to_have_value("2")
    expect(page.locator('[name="s0-went_out"]')).to_be_checked()
    expect(page.locator('[name="s0-count"]')).to_have_value("240")
    expect(page.locator('[name="s1-count_sign"][value="-"]')).to_be_checked()
    expect(page.locator('[name="s1-count"]')).to_have_value("95")
    page.get_by_role("button", name="Save hand 1").tap()
    # Us: 2 × 500 + 100 for going out + 240 = 1,340, past 1,000; Them −95; margin 1,340 + 95 = 1,435
    expect(page.locator(".winner")).to_have_text("Us won by 1,435 points.")


def test_a_rematch_starts_the_same_table_with_the_next_dealer(page: Page, live_server: str):
    start_short_game(page, live_server)
    win_in_one_hand(page)
    finished_url = page.url

    page.get_by_role("button", name="Rematch").tap()
    expect(page.locator(".flash")).to_have_text("Rematch started: Bea deals first.")
    expect(page).not_to_have_url(finished_url)
    expect(page.locator("h1")).to_have_text("Us v Them")
    expect(page.locator(".total-card .side-name")).to_have_text(["Us", "Them"])
    expect(page.locator(".total-card .side-players")).to_have_text(["Ann & Cleo", "Bea & Dot"])
    expect(page.locator(".total-figure")).to_have_text(["0", "0"])
    expect(page.locator(".next-deal")).to_contain_text("Hand 1: Bea deals")
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()  # this phone keeps its score

    # The home page now has the rematch in progress and the first game among the finished ones.
    page.get_by_role("link", name="Scorepad").tap()
    # The button's name carries the game's sides for a screen reader (Chromium puts a space before a hidden part).
    expect(page.get_by_role("button", name=re.compile(r"^Rematch\W+Us v Them$"))).to_have_count(1)

    page.get_by_role("link", name="Start a new game").tap()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    # Both games, newest first, name the same four players and two sides: each is offered once.
    expect(page.locator("#recent-players option")).to_have_count(4)
    offered = "input => Array.from(input.list.options, option => option.value)"  # what the browser offers
    for label in ("Player 1 of side 1", "Player 2 of side 1", "Player 1 of side 2", "Player 2 of side 2"):
        assert page.get_by_label(label, exact=True).evaluate(offered) == ["Ann", "Cleo", "Bea", "Dot"], label
    assert page.get_by_label("Side 1 name", exact=True).evaluate(offered) == ["Us", "Them"]


def test_a_watcher_of_the_finished_game_is_taken_to_the_rematch(
    page: Page, live_server: str, browser: Browser, browser_context_args: dict
):
    start_short_game(page, live_server)
    game_url = page.url.split("#")[0]
    viewer_context = browser.new_context(**browser_context_args)
    try:
        viewer = viewer_context.new_page()
        viewer.goto(game_url + "/scoreboard")
        expect(viewer.locator(".total-figure")).to_have_text(["0", "0"])
        win_in_one_hand(page)
        expect(viewer.locator(".winner")).to_have_text("Us won by 1,435 points.", timeout=LIVE)
        expect(viewer.locator("#scoresheet")).to_contain_text(
            "If the scorekeeper starts a rematch, this scoreboard follows it."
        )
        viewer.evaluate("window.sameScoreboard = true")  # gone if the page were ever reloaded
        # The game is over and the scoreboard still asks: a 304 while nothing has changed.
        with viewer.expect_response(lambda r: r.url.endswith("/scoreboard/live") and r.status == 304, timeout=LIVE):
            pass

        page.get_by_role("button", name="Rematch").tap()
        expect(page.locator(".flash")).to_have_text("Rematch started: Bea deals first.")
        rematch_url = page.url.split("#")[0]
        assert rematch_url != game_url
        code = page.locator(".join-panel .room-code").inner_text().replace("Room code:", "").strip()

        # Within 3 seconds the watcher's scoreboard is the rematch's: its address, room code and figures.
        expect(viewer).to_have_url(rematch_url + "/scoreboard", timeout=LIVE)
        expect(viewer.locator(".rules-line")).to_contain_text(f"room {code}")
        expect(viewer.get_by_role("status").filter(has_text="Rematch started")).to_have_text(
            "Rematch started: this scoreboard now follows the new game. The last game's final scores"
        )
        expect(viewer.locator(".total-figure")).to_have_text(["0", "0"])
        expect(viewer.locator(".next-deal")).to_contain_text("Hand 1: Bea deals")
        expect(viewer.locator(".winner")).to_have_count(0)
        expect(viewer.locator("form, button:not(.share-game)")).to_have_count(0)
        # Share (it only sends a link) sends the rematch's.
        expect(viewer.locator("button.share-game")).to_have_attribute("data-url", rematch_url + "/scoreboard")

        # It follows the rematch as it did the last game: hand 1, dealt by Bea, as before Us 1,340, Them −95.
        win_in_one_hand(page)
        expect(viewer.locator(".total-figure")).to_have_text(["1,340", f"{MINUS}95"], timeout=LIVE)
        expect(viewer.locator("#hand-1 .dealer")).to_have_text("Bea dealt")
        assert viewer.evaluate("window.sameScoreboard === true"), "the scoreboard was reloaded"

        # The last game is a tap away, and from it the rematch again.
        viewer.get_by_role("link", name="The last game's final scores").tap()
        expect(viewer).to_have_url(game_url + "/scoreboard")
        expect(viewer.locator(".winner")).to_have_text("Us won by 1,435 points.")
        viewer.get_by_role("link", name="Follow the rematch").tap()
        expect(viewer).to_have_url(rematch_url + "/scoreboard")
        expect(viewer.locator(".total-figure")).to_have_text(["1,340", f"{MINUS}95"])
    finally:
        viewer_context.close()
