"""The table's comforts (#20): the screen stays on while the scorekeeper's sheet or hand form is open, and Share
sends the scoreboard link and the room code from the scoresheet and the scoreboard.

The phone's APIs are stubbed before any script of the page runs (page.add_init_script): the Screen Wake Lock
counts each request and each release, the page's visibility is set by the test (as when the phone is locked or
another app comes to the front), and the share sheet and clipboard keep what they were given.
"""

from __future__ import annotations

import json

from playwright.sync_api import Browser, Page, expect

from conftest import start_game

WAIT = 15_000  # ms: generous, the test machine is loaded

# A wake lock that counts requests and releases; the page hidden or shown by window.setVisibility(state).
WAKE_LOCK = """(() => {
  const wake = window.wake = { requests: 0, releases: 0, held: 0, types: [] };
  Object.defineProperty(navigator, "wakeLock", { configurable: true, value: { request: async (type) => {
    wake.requests += 1; wake.held += 1; wake.types.push(type);
    const sentinel = new EventTarget();
    sentinel.released = false;
    sentinel.release = async () => {
      if (sentinel.released) return;
      sentinel.released = true; wake.releases += 1; wake.held -= 1;
      sentinel.dispatchEvent(new Event("release"));
    };
    return sentinel;
  } } });
  let state = "visible";
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => state !== "visible" });
  window.setVisibility = (next) => { state = next; document.dispatchEvent(new Event("visibilitychange")); };
})();"""

# A share sheet that keeps what it was asked to share.
SHARE_SHEET = """Object.defineProperty(navigator, "share", { configurable: true, value: async (data) => {
  window.shared = data;
} });"""


def no_share_sheet(refuse: str | None, clipboard_works: bool) -> str:
    """No share sheet (or one that refuses with the error `refuse`), and a clipboard that keeps what is copied (or
    refuses too)."""
    return f"""(([refuse, clipboardWorks]) => {{
  Object.defineProperty(navigator, "share", {{ configurable: true, value: refuse ?
    async () => {{ throw new DOMException("Refused", refuse); }} : undefined }});
  Object.defineProperty(navigator, "clipboard", {{ configurable: true, value: {{ writeText: async (text) => {{
    if (!clipboardWorks) throw new DOMException("No clipboard", "NotAllowedError");
    window.copied = text;
  }} }} }});
}})({json.dumps([refuse, clipboard_works])});"""


def wake(page: Page) -> dict:
    return page.evaluate("window.wake")


def expect_wake(page: Page, requests: int, releases: int) -> None:
    """Within the wait: this many requests and releases of the wake lock on this page, and then exactly these."""
    page.wait_for_function(
        "([requests, releases]) => wake.requests >= requests && wake.releases >= releases",
        arg=[requests, releases],
        timeout=WAIT,
    )
    got = wake(page)
    assert (got["requests"], got["releases"]) == (requests, releases), got
    assert set(got["types"]) <= {"screen"}, got


def scoreboard_link(page: Page) -> str:
    return page.get_by_role("link", name="Scoreboard link").evaluate("a => a.href")


def room_code(page: Page) -> str:
    return page.locator(".join-panel .room-code").inner_text().replace("Room code:", "").strip()


def test_the_screen_stays_on_on_the_sheet_and_the_hand_form_and_is_let_go_while_hidden(page: Page, live_server: str):
    page.add_init_script(WAKE_LOCK)
    start_game(page, live_server)
    expect_wake(page, requests=1, releases=0)  # the scoresheet, open

    page.evaluate("setVisibility('hidden')")  # the phone locked, or another app in front
    expect_wake(page, requests=1, releases=1)
    page.evaluate("setVisibility('visible')")  # back: taken again
    expect_wake(page, requests=2, releases=1)

    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("h1")).to_have_text("Hand 1", timeout=WAIT)
    expect_wake(page, requests=1, releases=0)  # a new page: its own lock
    page.evaluate("setVisibility('hidden')")
    expect_wake(page, requests=1, releases=1)
    page.evaluate("setVisibility('visible')")
    expect_wake(page, requests=2, releases=1)
    assert wake(page)["held"] == 1


def test_turned_off_the_screen_sleeps_on_this_phone_after_a_reload_too(page: Page, live_server: str):
    page.add_init_script(WAKE_LOCK)
    start_game(page, live_server)
    expect_wake(page, requests=1, releases=0)
    setting = page.get_by_label("Keep the screen on")
    expect(setting).to_be_checked(timeout=WAIT)
    setting.uncheck(force=True)  # drawn as a switch: the box itself is see-through
    expect_wake(page, requests=1, releases=1)

    page.reload()
    expect(page.get_by_label("Keep the screen on")).not_to_be_checked(timeout=WAIT)
    page.evaluate("setVisibility('hidden'); setVisibility('visible')")
    assert wake(page)["requests"] == 0
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("h1")).to_have_text("Hand 1", timeout=WAIT)
    page.wait_for_load_state("load")  # its scripts have run
    assert wake(page)["requests"] == 0

    page.go_back()
    setting = page.get_by_label("Keep the screen on")
    expect(setting).not_to_be_checked(timeout=WAIT)
    setting.check(force=True)  # on again: at once
    expect_wake(page, requests=1, releases=0)


def test_the_scoreboard_leaves_the_screen_alone(
    page: Page, live_server: str, browser: Browser, browser_context_args: dict
):
    start_game(page, live_server)
    link = scoreboard_link(page)
    context = browser.new_context(**browser_context_args)  # another player's phone
    try:
        viewer = context.new_page()
        viewer.add_init_script(WAKE_LOCK)
        viewer.goto(link)
        expect(viewer.locator(".total-figure")).to_have_count(2, timeout=WAIT)
        viewer.wait_for_load_state("load")
        viewer.evaluate("setVisibility('hidden'); setVisibility('visible')")
        assert wake(viewer)["requests"] == 0
        expect(viewer.get_by_label("Keep the screen on")).to_have_count(0)
    finally:
        context.close()


def test_share_opens_the_share_sheet_with_the_scoreboard_link_and_room_code(page: Page, live_server: str):
    page.add_init_script(SHARE_SHEET)
    start_game(page, live_server)
    link, code = scoreboard_link(page), room_code(page)
    assert link.startswith(live_server + "/") and link.endswith("/scoreboard"), link

    page.get_by_role("button", name="Share the scoreboard").click()
    page.wait_for_function("window.shared", timeout=WAIT)
    shared = page.evaluate("window.shared")
    assert shared["url"] == link
    assert code in shared["text"], shared
    assert shared["title"] == "Scoreboard: Us v Them"
    expect(page.locator(".share-note")).to_have_text("")  # the share sheet said it all

    page.goto(link)  # the scoreboard shares the same
    page.get_by_role("button", name="Share the scoreboard").click()
    page.wait_for_function("window.shared", timeout=WAIT)
    shared = page.evaluate("window.shared")
    assert shared["url"] == link
    assert code in shared["text"], shared


def test_with_no_share_sheet_the_link_is_copied_and_the_page_says_so(page: Page, live_server: str):
    page.add_init_script(no_share_sheet(None, clipboard_works=True))
    start_game(page, live_server)
    link = scoreboard_link(page)
    page.get_by_role("button", name="Share the scoreboard").click()
    expect(page.get_by_role("status").filter(has_text="Link copied")).to_have_text(
        "Link copied: paste it in a message.", timeout=WAIT
    )
    assert page.evaluate("window.copied") == link


def test_a_share_sheet_that_refuses_falls_back_to_the_clipboard(page: Page, live_server: str):
    page.add_init_script(no_share_sheet("NotAllowedError", clipboard_works=True))
    start_game(page, live_server)
    link = scoreboard_link(page)
    page.goto(link)
    page.get_by_role("button", name="Share the scoreboard").click()
    expect(page.locator(".share-note")).to_have_text("Link copied: paste it in a message.", timeout=WAIT)
    assert page.evaluate("window.copied") == link


def test_with_neither_the_link_is_shown_selected_to_copy_by_hand(page: Page, live_server: str):
    page.add_init_script(no_share_sheet(None, clipboard_works=False))
    start_game(page, live_server)
    link = scoreboard_link(page)
    page.get_by_role("button", name="Share the scoreboard").click()
    shown = page.get_by_role("textbox", name="Scoreboard link")
    expect(shown).to_have_value(link, timeout=WAIT)
    expect(page.locator(".share-note")).to_contain_text("Copy this link")
    selected = shown.evaluate("input => [input.selectionStart, input.selectionEnd, document.activeElement === input]")
    assert selected == [0, len(link), True]
    assert page.evaluate("window.copied") is None


def test_without_javascript_there_is_no_share_button_but_the_link_stays(
    page: Page, live_server: str, browser: Browser, browser_context_args: dict
):
    start_game(page, live_server)
    link = scoreboard_link(page)
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    try:
        plain = context.new_page()
        plain.goto(link)
        expect(plain.locator(".total-figure")).to_have_count(2, timeout=WAIT)
        expect(plain.get_by_role("button", name="Share the scoreboard")).to_be_hidden()
    finally:
        context.close()
