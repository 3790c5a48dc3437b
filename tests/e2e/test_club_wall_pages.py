"""The wall screen of a club night bigger than one screen (docs/events.md, "The wall screen"): 47 pairs with the
long names clubs give them, 23 tables and a pair sitting out, one table finished with the widest figures of the
night, at 1920×1080. Each page of the standings and of the round's tables fits the screen (nothing below its foot,
nothing beside it), rank and names at 48 px, no figure cut short, a name too long for its column cut with "…", and
the wall turns its pages by itself (every 3 s here, 10 s as served)."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import Browser, expect

from conftest import no_horizontal_scroll, serve

WALL = {"width": 1920, "height": 1080}


# The wall in English and in Spanish, whose headers are longer ("Puntos de partido", "Puesto") and figures written
# 10.800: what each language says of a page of the standings, and a figure of ten thousand and more.
LANGUAGES = {
    "en": ("Standings {first}–{last} of {count}", "10,800"),
    "es": ("Posiciones {first}–{last} de {count}", "10.800"),
}


def re_page(words: str, count: int) -> re.Pattern[str]:
    return re.compile("^" + words.format(first=r"\d+", last=r"\d+", count=count) + "$")


MINUS = "\u2212"
NAMES = ["Margaret & Eleanor", "Roses", "The Wednesday Ladies", "Tulips", "Bob and Gloria Fitzgerald"]


@pytest.fixture
def wall_server(database_uri):
    yield from serve(database_uri, WALL_PAGE_SECONDS=3)


def club_night(server: str, pairs: int) -> dict:
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
    return ask(server + "/api/events", doc)


def ask(url: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


# Each hand at table 1: Margaret & Eleanor 1 a sevens canasta (2,500), a natural (500) and a mixed (300): 3,300;
# Bob and Gloria Fitzgerald 25 no canasta and a Count of -300: -300. After three hands 9,900 to -900, a difference
# of 10,800 each way: the widest figures of the night, on the first page of the standings and on the last.
BIG_HAND = {"sides": [{"sevens_canasta": True, "natural_canastas": 1, "mixed_canastas": 1}, {"count": -300}]}
CUT = """() => [...document.querySelectorAll('.wall td:not(.pair-name), .wall th')]
  .filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_page_of_a_big_wall_fits_the_screen_and_the_pages_turn(browser: Browser, wall_server, language: str):
    page_words, big = LANGUAGES[language]
    made = club_night(wall_server, 47)  # 24 tables; table 24 faces the missing pair 48, so Tulips 24 sits out
    table = made["tables"][0]
    for _ in range(3):
        ask(f"{wall_server}/api/games/{table['game']}/hands", BIG_HAND, table["edit_token"])
    context = browser.new_context(viewport=WALL, locale=language, extra_http_headers={"Accept-Language": language})
    try:
        wall = context.new_page()
        wall.goto(f"{wall_server}/events/{made['id']}")
        seen: dict[str, str] = {}
        caption = wall.locator(".event-standings caption")
        while len(seen) < 5:  # every page of the standings (1-10 ... 41-47), whichever the clock shows first
            expect(caption).to_have_text(re_page(page_words, 47))
            shown = caption.inner_text()
            seen[shown] = wall.locator(".event-standings tbody").inner_text()
            assert wall.locator(".event-standings tbody tr").count() <= 10
            assert wall.locator(".event-tables tbody tr").count() <= 10
            # Nothing of the page below the screen's foot: the last table, the last standing and the pair out.
            for last in (".event-standings tbody tr", ".event-tables tbody tr", ".event-bye"):
                bottom = wall.locator(last).last.evaluate("e => e.getBoundingClientRect().bottom")
                assert bottom <= WALL["height"], (shown, last, bottom)
            assert no_horizontal_scroll(wall)
            assert wall.evaluate(CUT) == [], shown  # a figure or a header is never cut short
            for cell in (".event-standings .rank", ".event-standings .pair-name"):
                size = wall.locator(cell).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
                assert size >= 48, (cell, size)
            expect(caption).not_to_have_text(shown, timeout=10_000)  # the wall turns the page itself
        first, last = (page_words.format(first=f, last=t, count=47) for f, t in ((1, 10), (41, 47)))
        assert big in seen[first] and f"{MINUS}{big}" in seen[last]
        # A name longer than its column is cut with "…", the row kept to one line.
        cut = wall.locator(".event-standings .pair-name", has_text="Bob and Gloria").first
        assert cut.evaluate("e => e.scrollWidth > e.clientWidth && getComputedStyle(e).textOverflow === 'ellipsis'")
    finally:
        context.close()
