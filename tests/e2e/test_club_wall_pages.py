"""The wall screen of a club night bigger than one screen (docs/events.md, "The wall screen"): 47 pairs with the
long names clubs give them, 23 tables and a pair sitting out, at 1920×1080. Each page of the standings and of the
round's tables fits the screen (nothing below its foot, nothing beside it), rank and names at 48 px, a name too
long for its column cut with "…", and the wall turns its pages by itself (every 3 s here, 10 s as served)."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import Browser, expect

from conftest import no_horizontal_scroll, serve

WALL = {"width": 1920, "height": 1080}


def re_page(words: str, count: int) -> re.Pattern[str]:
    return re.compile(rf"^{words} \d+–\d+ of {count}$")


NAMES = ["Margaret & Eleanor", "Roses", "The Wednesday Ladies", "Tulips", "Bob and Gloria Fitzgerald"]


@pytest.fixture
def wall_server(database_uri):
    yield from serve(database_uri, WALL_PAGE_SECONDS=3)


def club_night(server: str, pairs: int) -> str:
    doc = {
        "format": "scorepad-event",
        "version": 1,
        "name": "Tuesday club night",
        "rules": {"preset": "modern", "hands_per_game": 3, "minimum_counts_by_hand": [125, 155, 180]},
        "pairs": [{"name": f"{NAMES[n % 5]} {n + 1}", "players": [f"Ann {n}", f"Bea {n}"]} for n in range(pairs)],
        "movement": "mitchell",
        "rounds": 3,
        "round_minutes": 60,
    }
    request = urllib.request.Request(
        server + "/api/events", data=json.dumps(doc).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())["id"]


def test_each_page_of_a_big_wall_fits_the_screen_and_the_pages_turn(browser: Browser, wall_server):
    event_id = club_night(wall_server, 47)  # 23 tables; Tulips 24 sits out
    context = browser.new_context(viewport=WALL)
    try:
        wall = context.new_page()
        wall.goto(f"{wall_server}/events/{event_id}")
        seen: set[str] = set()
        for _ in range(3):  # three pages in a row: whichever the clock shows, each fits
            caption = wall.locator(".event-standings caption")
            expect(caption).to_have_text(re_page("Standings", 47))
            shown = caption.inner_text()
            seen.add(shown)
            assert wall.locator(".event-standings tbody tr").count() <= 10
            assert wall.locator(".event-tables tbody tr").count() <= 10
            # Nothing of the page below the screen's foot: the last table, the last standing and the pair out.
            for last in (".event-standings tbody tr", ".event-tables tbody tr", ".event-bye"):
                bottom = wall.locator(last).last.evaluate("e => e.getBoundingClientRect().bottom")
                assert bottom <= WALL["height"], (shown, last, bottom)
            assert no_horizontal_scroll(wall)
            for cell in (".event-standings .rank", ".event-standings .pair-name"):
                size = wall.locator(cell).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
                assert size >= 48, (cell, size)
            expect(caption).not_to_have_text(shown, timeout=10_000)  # the wall turns the page itself
        assert len(seen) == 3
        # "Bob and Gloria Fitzgerald 5" is longer than its column: cut with "…", the row kept to one line.
        wall.wait_for_function(
            "() => [...document.querySelectorAll('.event-standings .pair-name')].some("
            "e => e.textContent.startsWith('Bob and Gloria'))",
            timeout=20_000,
        )
        cut = wall.locator(".event-standings .pair-name", has_text="Bob and Gloria").first
        assert cut.evaluate("e => e.scrollWidth > e.clientWidth && getComputedStyle(e).textOverflow === 'ellipsis'")
    finally:
        context.close()
