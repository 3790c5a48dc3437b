"""The hand loop of a game kept only on the phone (issue 17): the six varied hands of test_hand_loop.py, entered on
the offline game's form (offline_game.html) with no connection, at 390×844 and 360×740, take at most one tap beyond
one per thing said plus Save for a typical hand and two for any: the 3s and canastas in their rows, the special
canastas, a wild-card canasta and a special hand each one tap where they are shown, as on the form online.

Figures and what counts as a tap: test_hand_loop.py (modern preset, Us = Ann & Cleo, Them = Bea & Dot).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_hand_loop import SCREENS, WAIT, play_six_hands
from test_offline_new_game import on_the_phone_from_the_start

from conftest import name_the_players


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """The game is started with no connection: the service worker keeps its pages."""
    return {**browser_context_args, "service_workers": "allow"}


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_six_hands_on_the_phone_take_at_most_two_taps_beyond_what_they_say(page: Page, wifi, screen: dict):
    page.set_viewport_size(screen)
    on_the_phone_from_the_start(page, wifi.url)
    wifi.cut()
    page.goto(wifi.url + "/games/new")  # from the phone: no connection
    name_the_players(page)
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/offline/game#local-"), timeout=WAIT)

    excess = play_six_hands(page)
    assert excess == [0, 1, 0, 1, 0, 0], excess  # the minus sign; "More"
    expect(page.locator("#hand-6 .not-synced")).to_have_text("not sent yet")
    expect(page.locator(".total-figure")).to_have_text(["11,470", "9,065"])
    expect(page.locator("form.offline-hand-form")).to_be_hidden()  # a finished game has no next hand
