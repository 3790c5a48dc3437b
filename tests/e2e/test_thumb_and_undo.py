"""A thumb never skips, and Undo is for the change just made (issue #15), at a phone's 390×844.

Save sits at the bottom of the hand form; the scoresheet that follows has the next hand's form, its Save in the
same place.
For a moment after a change, nothing on that page takes a tap (games.show's `settling`, scorepad.css). A
loaded machine cannot promise to tap within a real second, so the tests that tap where Save was slow the
page's animations a hundredfold through the DevTools protocol first (the moment then lasts 100 s) and ask
the page which control, if any, a tap at that point would reach (`elementFromPoint` skips what takes no tap).

Figures are worked out by hand from docs/rules.md (modern preset). The table: Us = Ann & Cleo, Them = Bea &
Dot; Ann deals hand 1.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from test_next_hand import PAST_THE_QUIET_MOMENT

from conftest import PHONE, name_the_players, start_game, until

MINUS = "\u2212"
WAIT = 20_000  # ms: a page from the server, on a machine that may be busy
FIRST = {"s0-natural_canastas": "1", "s0-count": "120", "s1-count": "-30"}
# Us: a natural canasta 500 + Count 120 = 620. Them: no canasta, Count −30.
SECOND = {"s0-mixed_canastas": "1", "s0-count": "50", "s1-natural_canastas": "1", "s1-count": "100"}
# Us: mixed 300 + 50 = 350, total 970. Them: natural 500 + 100 = 600, total 570.


def fill(page: Page, entries: dict[str, str]) -> None:
    """Type a hand into the open hand form (fields by the names the form sends: s0- for Us, s1- for Them)."""
    for name, value in entries.items():
        page.locator(f'[name="{name}"]').fill(value)
    for name, value in entries.items():
        expect(page.locator(f'[name="{name}"]')).to_have_value(value, timeout=WAIT)


def enter(page: Page, number: int, entries: dict[str, str]) -> None:
    page.get_by_role("link", name=f"Enter hand {number}").tap()
    expect(page.get_by_role("heading", name=f"Hand {number}")).to_be_visible(timeout=WAIT)
    fill(page, entries)
    page.get_by_role("button", name=f"Save hand {number}").tap()
    expect(page.locator(f"#hand-{number}")).to_be_visible(timeout=WAIT)


def slow_the_moment(page: Page) -> None:
    """The page's animations (the settling moment included) run a hundred times slower from now on."""
    devtools = page.context.new_cdp_session(page)
    devtools.send("Animation.enable")
    devtools.send("Animation.setPlaybackRate", {"playbackRate": 0.01})


def control_at(page: Page, x: float, y: float) -> str | None:
    """The control a tap at (x, y) would reach, by its text, or None: the point is on no control."""
    return page.evaluate(
        """([x, y]) => {
            const control = document.elementFromPoint(x, y)?.closest('a, button, input, select, label, summary');
            return control ? control.textContent.trim() || control.outerHTML.slice(0, 80) : null;
        }""",
        [x, y],
    )


def hands_stored(page: Page, game_url: str) -> int:
    return len(page.request.get(game_url.replace("/games/", "/api/games/")).json()["hands"])


@pytest.mark.both_databases
@pytest.mark.parametrize("taps", [2, 3])
def test_save_tapped_fast_stores_one_hand_and_shows_its_totals_and_undo(page: Page, live_server: str, taps: int):
    start_game(page, live_server)
    game_url = page.url
    page.get_by_role("link", name="Enter hand 1").tap()
    fill(page, FIRST)
    slow_the_moment(page)
    save = page.get_by_role("button", name="Save hand 1").bounding_box()
    assert save is not None
    x, y = save["x"] + save["width"] / 2, save["y"] + save["height"] / 2
    for _ in range(taps - 1):  # as fast as the thumb goes: the later ones land while Save is busy, or after
        page.touchscreen.tap(x, y)
    expect(page.locator("#hand-1")).to_be_visible(timeout=WAIT)
    came_back = page.evaluate("performance.now()")
    # Where Save was, the next hand's Save is now (its form waits on the sheet): in this moment a tap there reaches
    # nothing.
    enter_next = page.get_by_role("button", name="Save hand 2").bounding_box()
    assert enter_next is not None and enter_next["y"] <= y <= enter_next["y"] + enter_next["height"]
    assert control_at(page, x, y) is None
    page.touchscreen.tap(x, y)  # the last tap, on the scoresheet
    expect(page.locator(".total-figure")).to_have_text(["620", f"{MINUS}30"], timeout=WAIT)
    expect(page.get_by_role("button", name="Undo: take back hand 1")).to_be_visible(timeout=WAIT)
    expect(page.locator("h1")).to_have_text("Us v Them", timeout=WAIT)  # the next hand's form did not open
    expect(page).to_have_url(game_url, timeout=WAIT)
    assert hands_stored(page, game_url) == 1
    # The totals and the Undo are at the top of the screen the scorekeeper is looking at.
    for shown in (page.locator(".total-figure").first, page.get_by_role("button", name="Undo: take back hand 1")):
        box = shown.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] / 2
    # Once the moment is over, the same place is the next hand's Save: on its empty form it stores nothing.
    page.context.new_cdp_session(page).send("Animation.setPlaybackRate", {"playbackRate": 1})
    page.evaluate(PAST_THE_QUIET_MOMENT, came_back)  # a tap within it is the last of a double tap: let go quietly
    page.get_by_role("button", name="Save hand 2").tap()
    expect(page.locator("#preview")).to_contain_text("Nothing entered for hand 2 yet", timeout=WAIT)
    assert hands_stored(page, game_url) == 1


@pytest.mark.both_databases
@pytest.mark.parametrize("taps", [2, 3])
def test_save_tapped_fast_without_javascript_stores_one_hand(browser: Browser, live_server: str, taps: int):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, java_script_enabled=False)
    page = context.new_page()
    try:
        start_game(page, live_server)
        game_url = page.url
        page.get_by_role("link", name="Enter hand 1").tap()
        fill(page, FIRST)
        slow_the_moment(page)
        save = page.get_by_role("button", name="Save hand 1").bounding_box()
        assert save is not None
        x, y = save["x"] + save["width"] / 2, save["y"] + save["height"] / 2
        for _ in range(taps - 1):  # a post sent again before the answer: the server stores the hand once
            page.touchscreen.tap(x, y)
        expect(page.locator("#hand-1")).to_be_visible(timeout=WAIT)
        assert control_at(page, x, y) is None
        page.touchscreen.tap(x, y)
        expect(page.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible(timeout=WAIT)
        expect(page.locator(".total-figure")).to_have_text(["620", f"{MINUS}30"], timeout=WAIT)
        expect(page.get_by_role("button", name="Undo: take back hand 1")).to_be_visible(timeout=WAIT)
        expect(page.locator("h1")).to_have_text("Us v Them", timeout=WAIT)
        expect(page).to_have_url(game_url, timeout=WAIT)
        assert hands_stored(page, game_url) == 1
    finally:
        context.close()


def test_undo_is_not_offered_again_after_leaving_the_page(page: Page, live_server: str):
    start_game(page, live_server)
    enter(page, 1, FIRST)
    expect(page.get_by_role("button", name="Undo: take back hand 1")).to_be_visible(timeout=WAIT)
    page.get_by_role("link", name="Rules").tap()
    expect(page.locator("h1")).not_to_have_text("Us v Them", timeout=WAIT)
    page.go_back()
    expect(page.locator("h1")).to_have_text("Us v Them", timeout=WAIT)
    expect(page.locator("#hand-1")).to_be_visible(timeout=WAIT)
    expect(page.locator("form.undo")).to_have_count(0, timeout=WAIT)
    page.reload()
    expect(page.locator("#hand-1")).to_be_visible(timeout=WAIT)
    expect(page.locator("form.undo")).to_have_count(0, timeout=WAIT)


@pytest.mark.both_databases
def test_undo_is_not_offered_after_a_later_change(page: Page, live_server: str, browser: Browser):
    start_game(page, live_server)
    game_url = page.url
    enter(page, 1, FIRST)
    enter(page, 2, SECOND)
    # Only the latest change is offered.
    expect(page.locator("form.undo button")).to_have_text("Undo: take back hand 2", timeout=WAIT)
    page.get_by_role("button", name="Undo: take back hand 2").tap()
    expect(page.get_by_role("status").filter(has_text="Hand 2 taken back.")).to_be_visible(timeout=WAIT)
    enter(page, 2, SECOND)
    # The scorekeeper's other phone (the same device key) saves hand 3 while this page offers Undo of hand 2.
    other = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    other.add_cookies(page.context.cookies())
    try:
        phone = other.new_page()
        phone.goto(game_url)
        enter(phone, 3, {"s0-count": "-20", "s1-mixed_canastas": "1", "s1-count": "70"})
        # Us: −20, total 950. Them: mixed 300 + 70 = 370, total 940.
    finally:
        other.close()
    page.get_by_role("button", name="Undo: take back hand 2").tap()
    expect(page.get_by_role("status").filter(has_text="The game has changed since")).to_be_visible(timeout=WAIT)
    expect(page.locator("#hand-3 .cumulative")).to_have_text(["950", "940"], timeout=WAIT)
    expect(page.locator("form.undo")).to_have_count(0, timeout=WAIT)
    assert hands_stored(page, game_url) == 3


def test_undo_is_not_offered_after_a_rematch(page: Page, live_server: str):
    page.goto(live_server + "/games/new")
    name_the_players(page)
    page.get_by_label("Points to win", exact=True).fill("1000")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("h1")).to_have_text("Us v Them", timeout=WAIT)
    game_url = page.url
    enter(page, 1, {"s0-natural_canastas": "2", "s0-count": "240", "s1-count": "-95"})
    # Us: 2 × 500 + 240 = 1,240, past 1,000; Them −95; margin 1,240 + 95 = 1,335.
    expect(page.locator(".winner")).to_have_text("Us won by 1,335 points.", timeout=WAIT)
    expect(page.get_by_role("button", name="Undo: take back hand 1")).to_be_visible(timeout=WAIT)
    # The rematch, started from the home page in another tab while this page still shows Undo.
    home = page.context.new_page()
    home.goto(live_server + "/")
    home.get_by_role("button", name=re.compile("Rematch")).first.tap()
    expect(home.locator(".flash")).to_have_text("Rematch started: Bea deals first.", timeout=WAIT)
    home.close()
    page.get_by_role("button", name="Undo: take back hand 1").tap()
    expect(page.get_by_role("status").filter(has_text="A rematch was started from this game since")).to_be_visible(
        timeout=WAIT
    )
    expect(page.locator(".winner")).to_have_text("Us won by 1,335 points.", timeout=WAIT)  # the winning hand stays
    expect(page.locator("form.undo")).to_have_count(0, timeout=WAIT)
    assert hands_stored(page, game_url) == 1


def test_redo_after_undo_puts_the_hand_back(page: Page, live_server: str):
    start_game(page, live_server)
    enter(page, 1, FIRST)
    enter(page, 2, SECOND)
    expect(page.locator("#hand-2 .cumulative")).to_have_text(["970", "570"], timeout=WAIT)
    page.get_by_role("button", name="Undo: take back hand 2").tap()
    expect(page.get_by_role("status").filter(has_text="Hand 2 taken back.")).to_be_visible(timeout=WAIT)
    expect(page.locator("#hand-2")).to_have_count(0, timeout=WAIT)
    expect(page.locator(".total-figure")).to_have_text(["620", f"{MINUS}30"], timeout=WAIT)
    page.get_by_role("button", name="Redo: put hand 2 back").tap()
    expect(page.get_by_role("status").filter(has_text="Hand 2 is back.")).to_be_visible(timeout=WAIT)
    expect(page.locator("#hand-2 .cumulative")).to_have_text(["970", "570"], timeout=WAIT)
    expect(page.locator(".total-figure")).to_have_text(["970", "570"], timeout=WAIT)
    expect(page.locator("form.undo button")).to_have_text("Undo: take back hand 2", timeout=WAIT)


def test_save_works_while_the_live_preview_waits_for_its_answer(page: Page, live_server: str):
    start_game(page, live_server)
    page.get_by_role("link", name="Enter hand 1").tap()
    # The form's live preview listens once htmx has processed it: typing before then (a loaded machine) sends none.
    page.wait_for_function(
        "() => { const el = document.querySelector('[hx-post$=\"/hands/preview\"]');"
        " return !!(el && el['htmx-internal-data'] && el['htmx-internal-data'].initHash); }",
        timeout=WAIT,
    )
    held = []  # the live preview's requests, never answered: a slow Wi-Fi's
    page.route(re.compile(r"/hands/preview$"), lambda route: held.append(route))
    fill(page, FIRST)
    until(page, lambda: held, "a live preview sent")
    save = page.get_by_role("button", name="Save hand 1").bounding_box()
    assert save is not None
    page.touchscreen.tap(save["x"] + save["width"] / 2, save["y"] + save["height"] / 2)
    expect(page.locator("#hand-1")).to_be_visible(timeout=WAIT)
    expect(page.locator(".total-figure")).to_have_text(["620", f"{MINUS}30"], timeout=WAIT)
    page.unroute(re.compile(r"/hands/preview$"))
