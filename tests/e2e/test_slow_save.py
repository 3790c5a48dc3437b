"""A Save on a slow connection (the request still waiting, not failed) says so, where the scorekeeper is looking, and
keeps the hand on the phone as before (assets/js/status.js, sync.js, handpage.js).

Requests are held with the browser context's routes (the service worker is blocked here, so nothing passes them by):
a held request neither fails nor answers, as on club Wi-Fi with a signal and no way out. Then a send is made to fail
for real, and the words say there is no connection; then the server is reached, and the hand is stored once.
Modern preset: Us = Ann & Cleo, Them = Bea & Dot; a natural canasta 500.
"""

from __future__ import annotations

import json
import re
from urllib.request import urlopen

import pytest
from playwright.sync_api import Page, Route, expect
from test_bad_wifi import RECORD_THE_INDICATOR

from conftest import serve, start_game

WAIT = 20_000  # ms: a page from the server, on a machine that may be busy
# Us: a natural canasta 500 + Count 120 = 620. Them: no canasta, Count −30.
FIRST = {"s0-natural_canastas": "1", "s0-count": "120", "s1-count": "-30"}
SLOW = "Slow connection: still waiting for an answer. 1 hand is kept on this phone until then."
OFFLINE = "No connection: 1 hand saved on this phone, not sent yet."
SAVES = re.compile(r"/(sync/)?games/[^/]+/hands$")  # Save of the next hand, and the queue's send of it


@pytest.fixture
def live_server(database_uri):
    """The app as configured: Save of a hand waits 0.7 s for an answer (conftest's waits longer)."""
    yield from serve(database_uri)


class Saves:
    """The phone's saves of hands, as the test lets them go: held (no answer, no failure), failed, or passed on."""

    def __init__(self) -> None:
        self.way, self.held, self.seen = "hold", [], 0

    def __call__(self, route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        self.seen += 1
        if self.way == "hold":
            self.held.append(route)
        elif self.way == "fail":
            route.abort("internetdisconnected")
        else:
            route.continue_()


def stored(game_url: str) -> list[dict]:
    """The game's hands as the server stores them (asked directly, not through the phone's routes)."""
    with urlopen(game_url.replace("/games/", "/api/games/")) as answer:
        return json.load(answer)["hands"]


def test_a_save_with_no_answer_yet_says_the_connection_is_slow_where_the_scorekeeper_looks(
    page: Page, live_server: str
):
    page.add_init_script(RECORD_THE_INDICATOR)
    start_game(page, live_server)
    game_url = page.url
    saves = Saves()
    page.context.route(SAVES, saves)
    for name, value in FIRST.items():
        page.locator(f'[name="{name}"]').fill(value)
    expect(page.locator("#preview .hand-total")).to_have_text(["620", "\u221230"], timeout=WAIT)
    page.get_by_role("button", name="Save hand 1").tap()  # at the foot of the sheet
    # No answer in 0.7 s: the hand is kept on the phone, and sent from there; that send gets no answer either.
    expect(page.locator("#hand-1 .not-synced")).to_have_text("not sent yet", timeout=WAIT)
    status = page.locator("#sync-status")
    expect(status).to_have_text(SLOW, timeout=30_000)  # the send gives up waiting after 8 s: slow, not lost
    expect(status).to_be_in_viewport()
    assert saves.seen >= 2 and not stored(game_url)
    said = page.evaluate("JSON.parse(sessionStorage.getItem('seen') || '[]')")
    assert not [text for _, text in said if text.startswith("No connection")], said

    # A send that fails for real: now there is no connection.
    saves.way = "fail"
    page.evaluate("ScorepadOffline.syncNow()")
    expect(status).to_have_text(OFFLINE)
    expect(status).to_be_in_viewport()

    # The server is reached again: the hand is stored, once.
    saves.way = "pass"
    page.evaluate("ScorepadOffline.syncNow()")
    expect(status).to_have_text("Online: every hand is saved.", timeout=WAIT)
    assert len(stored(game_url)) == 1
    expect(page.locator("#hand-1 .cumulative")).to_have_text(["620", "\u221230"], timeout=WAIT)
