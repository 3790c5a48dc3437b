"""A small club night in the browser (docs/events.md): the director creates it on a phone, two tables; a table's
scorekeeper scans its card and saves a hand; the wall screen (1920×1080) follows within 3 seconds; a phone of the
other pair confirms the finished table, and its scoreboard then says who confirmed it and when; a correction at the
table clears the confirmation on the wall.

Four pairs, Mitchell, one round, played to 1,000 (a table rule): T = 2 tables, Roses(0)–Lilies(2) at table 1 and
Tulips(1)–Daisies(3) at table 2. The wall's clock stands still and the test moves it on 3 s after each change, as
tests/e2e/test_scoreboard_live.py does for the scoreboard.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import no_horizontal_scroll

LIVE = 3000  # ms of the wall's clock: a change shows within 3 seconds
ANSWER = 20_000  # ms of real time for an answer on a busy machine
WALL = {"width": 1920, "height": 1080}
PAIRS = [("Roses", "Ann", "Cleo"), ("Tulips", "Bea", "Dot"), ("Lilies", "Eve", "Fay"), ("Daisies", "Gil", "Hal")]
MINUS = "\u2212"


def create_club_night(page: Page, live_server: str, rounds: str = "1") -> str:
    """The director's phone: the new event's form, filled in and started (`rounds` typed, "" left empty); the event's
    id."""
    page.goto(live_server + "/events/new")
    page.get_by_label("The club night's name").fill("Tuesday club night")
    for i, (name, first, second) in enumerate(PAIRS):
        page.get_by_label(f"Pair {i + 1}'s name").fill(name)
        page.get_by_label(f"Pair {i + 1}'s first player").fill(first)
        page.get_by_label(f"Pair {i + 1}'s second player").fill(second)
    page.get_by_label("Rounds (empty: as many as the movement allows)", exact=True).fill(rounds)
    page.get_by_label("Play to (empty: 8,500)", exact=True).fill("1000")
    assert no_horizontal_scroll(page)
    page.get_by_role("button", name="Start the club night").click()
    expect(page.get_by_role("heading", name="Tuesday club night")).to_be_visible()
    match = re.search(r"/events/([^/]+)/director$", page.url)
    assert match, page.url
    return match.group(1)


def wall_row(wall: Page, table: int):
    return wall.locator(f"#table-{table}")


def three_seconds_later(wall: Page) -> None:
    wall.clock.run_for(LIVE)


@pytest.mark.both_databases
def test_a_small_club_night(page: Page, live_server: str, browser: Browser, browser_context_args: dict):
    event_id = create_club_night(page, live_server)
    expect(page.locator("#table-1")).to_contain_text("Roses")
    expect(page.locator("#table-1")).to_contain_text("Lilies")
    expect(page.locator("#table-2")).to_contain_text("Tulips")
    expect(page.locator("#table-2 .table-state")).to_have_text("not started")  # no hand saved yet
    assert no_horizontal_scroll(page)
    # The cards: one per table, with its QR code and room code.
    page.get_by_role("link", name="Table cards").click()
    expect(page.locator(".table-card")).to_have_count(2)
    expect(page.locator(".table-card svg.qr-code")).to_have_count(2)
    expect(page.locator(".table-card .room-code-inline").first).to_have_text(re.compile(r"^[A-Z0-9]{3} [A-Z0-9]{3}$"))
    card = f"{live_server}/events/{event_id}/tables/0"

    contexts = []
    try:
        wall_context = browser.new_context(
            **{
                **browser_context_args,
                "viewport": WALL,
                "is_mobile": False,
                "has_touch": False,
                "device_scale_factor": 1,
            }
        )
        contexts.append(wall_context)
        wall = wall_context.new_page()
        installed = time.time()
        wall.clock.install(time=installed)
        wall.goto(f"{live_server}/events/{event_id}")
        expect(wall.get_by_role("heading", name="Tuesday club night")).to_be_visible()
        # Read across a room: rank and names at least 48 px.
        for cell in (".event-standings .rank", ".event-standings .pair-name"):
            size = wall.locator(cell).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
            assert size >= 48, (cell, size)
        assert no_horizontal_scroll(wall)
        wall.evaluate("window.sameWall = true")
        wall.clock.pause_at(installed + 600)
        with wall.expect_response(lambda r: r.url.endswith("/live") and r.status == 304, timeout=ANSWER):
            three_seconds_later(wall)

        # Table 1's scorekeeper scans the card: the table's game's scoresheet, to keep.
        keeper_context = browser.new_context(**browser_context_args)
        contexts.append(keeper_context)
        keeper = keeper_context.new_page()
        keeper.goto(card)
        expect(keeper.locator("h1")).to_have_text("Roses v Lilies")
        # Hand 1. Roses: two naturals 1,000 + going out 100 + Count 240 = 1,340 ≥ 1,000: the game is over.
        # Lilies: Count −95.
        keeper.get_by_role("link", name="Enter hand 1").click()
        keeper.locator('[name="s0-natural_canastas"]').fill("2")
        keeper.locator('[name="s0-went_out"]').check(force=True)
        keeper.locator('[name="s0-count"]').fill("240")
        keeper.locator('[name="s1-count_sign"][value="-"]').check(force=True)
        keeper.locator('[name="s1-count"]').fill("95")
        keeper.get_by_role("button", name="Save hand 1").click()
        expect(keeper.locator(".total-figure")).to_have_text(["1,340", f"{MINUS}95"])

        three_seconds_later(wall)
        expect(wall_row(wall, 1).locator(".table-state")).to_have_text("finished", timeout=ANSWER)
        expect(wall_row(wall, 1)).to_contain_text("1,340")
        # Roses won: 2 match points, first; Lilies last.
        expect(wall.locator(".event-standings .pair-name").first).to_have_text("Roses")

        # A phone of the other pair scans the same card: it watches, and confirms the finished table.
        other_context = browser.new_context(**browser_context_args)
        contexts.append(other_context)
        other = other_context.new_page()
        other.goto(card)
        expect(other).to_have_url(re.compile(r"/scoreboard$"))
        other.get_by_role("button", name="Confirm this result").click()
        expect(other.locator(".event-confirmed")).to_contain_text("Confirmed: Roses 1,340, Lilies " + MINUS + "95")
        # Back on the scoreboard, Confirm has given way to who confirmed it and when.
        other.get_by_role("link", name="Back to the scoreboard").click()
        expect(other.locator(".event-confirmed")).to_have_text(
            re.compile(r"Confirmed by the other pair at \d\d:\d\d UTC\.$"), timeout=ANSWER
        )
        expect(other.get_by_role("button", name="Confirm this result")).to_have_count(0)
        assert no_horizontal_scroll(other)
        three_seconds_later(wall)
        expect(wall_row(wall, 1).locator(".table-state")).to_have_text("confirmed", timeout=ANSWER)

        # The director corrects it on the phone (the game is over: only the director's phone changes it now):
        # Roses' Count was 300, so 1,000 + 100 + 300 = 1,400. The confirmation is cleared.
        page.goto(f"{live_server}/events/{event_id}/director")
        page.get_by_role("link", name="Scoresheet of table 1").click()
        expect(page.locator("h1")).to_have_text("Roses v Lilies")
        page.wait_for_load_state("load")  # the sheet's scripts have run: the tap lands on the row as it stays
        page.locator("#hand-1").get_by_role("link", name="Edit hand 1").click()
        expect(page).to_have_url(re.compile(r"/hands/1/edit$"))
        page.locator('[name="s0-count"]').fill("300")
        page.get_by_role("button", name="Save changes").click()
        expect(page.locator(".total-figure")).to_have_text(["1,400", f"{MINUS}95"])
        three_seconds_later(wall)
        expect(wall_row(wall, 1).locator(".table-state")).to_have_text("finished", timeout=ANSWER)
        expect(wall_row(wall, 1)).to_contain_text("1,400")
        assert wall.evaluate("window.sameWall === true"), "the wall screen was reloaded"

        # The director's page shows the same on the phone, and the correction recorded; the director confirms again.
        page.goto(f"{live_server}/events/{event_id}/director")
        expect(page.locator("#table-1 .table-state")).to_have_text("finished")
        expect(page.locator(".event-corrections li")).to_have_text(
            re.compile(r"Round 1, table 1: hand 1 corrected by the director, \d\d:\d\d UTC\.")
        )
        assert no_horizontal_scroll(page)
        page.get_by_role("button", name="Confirm table 1").click()
        expect(page.locator("#table-1 .table-state")).to_have_text("confirmed")
        three_seconds_later(wall)
        expect(wall_row(wall, 1).locator(".table-state")).to_have_text("confirmed", timeout=ANSWER)
    finally:
        for context in contexts:
            context.close()


SMALL_CONTROLS = """() => [...document.querySelectorAll(
    'main a, main button, main select, main input:not([type=hidden]):not([type=checkbox]), main label.check')]
  .filter(e => e.getClientRects().length && !e.closest('p, li'))  // a link inside a sentence is read, not aimed at
  .filter(e => e.getBoundingClientRect().height < 44)
  .map(e => `${e.tagName} "${(e.textContent || e.name || '').trim().slice(0, 40)}" ${e.offsetHeight}px`)"""
SMALL_TEXT = """() => [...document.querySelectorAll('main input:not([type]), main input[type=text], main select')]
  .filter(e => parseFloat(getComputedStyle(e).fontSize) < 16).map(e => e.name)"""


def test_the_club_nights_phone_pages_are_tapped_and_typed_in_without_zooming(page: Page, live_server: str):
    """The director's phone (390 px wide): every control of the new-event form and of the director's page at least
    44 px tall, and every box typed in at 16 px or more (an iPhone zooms in on smaller text)."""
    page.goto(live_server + "/events/new")
    assert page.evaluate(SMALL_CONTROLS) == [] and page.evaluate(SMALL_TEXT) == []
    create_club_night(page, live_server, rounds="")  # left empty: a Mitchell of 4 pairs has 2 tables, so 2 rounds
    expect(page.get_by_text("Round 1 of 2")).to_be_visible()
    close = page.get_by_label("Close this round: tables still playing end as they stand")
    assert close.locator("xpath=..").bounding_box()["height"] >= 44  # the box's whole row is its tap target
    assert page.evaluate(SMALL_CONTROLS) == [] and page.evaluate(SMALL_TEXT) == []
