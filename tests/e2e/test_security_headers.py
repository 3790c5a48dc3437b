"""The security headers as a browser obeys them: no other site can frame Scorepad (the delete-confirm page framed
by another page once deleted a hand in one tap), and the Content-Security-Policy blocks nothing Scorepad's own
pages need: no inline script or style, htmx's injected style off, the "js" class set before the page is drawn."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import start_game

ANOTHER_SITE = "http://another-site.test/"
# Every Content-Security-Policy violation on the page, as the browser reports it (an init script runs before
# the page's own and is not subject to its policy).
WATCH_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${location.pathname}`));
"""


def enter_a_hand(page: Page) -> None:
    """Hand 1 through the hand form: Us a natural canasta and a Count of 120, Them a Count of −30."""
    page.get_by_role("link", name="Enter hand 1").tap()
    page.locator('fieldset[data-side="0"]').get_by_label("Natural canastas", exact=True).fill("1")
    page.locator('fieldset[data-side="0"]').get_by_role("textbox", name=re.compile("^Count")).fill("120")
    page.locator('fieldset[data-side="1"]').get_by_role("textbox", name=re.compile("^Count")).fill("-30")
    # The live preview is htmx at work: natural 500 + 120 = 620; Them −30.
    expect(page.locator('#preview tr[data-side="0"] td').first).to_have_text("620")
    page.get_by_role("button", name="Save hand 1").tap()
    expect(page.locator("#hand-1")).to_be_visible()


def test_a_page_of_another_site_that_frames_scorepad_shows_nothing_of_it(page: Page, live_server: str):
    start_game(page, live_server)
    enter_a_hand(page)
    delete_page = page.url + "/hands/1/delete"
    page.goto(delete_page)
    expect(page.get_by_role("button", name="Delete hand 1")).to_be_visible()  # what a frame must never show

    framing = (
        "<!doctype html><html lang='en'><title>Another site</title>"
        f"<iframe id='scorepad' src='{delete_page}' onload=\"document.title = 'framed'\"></iframe></html>"
    )
    page.route(ANOTHER_SITE, lambda route: route.fulfill(status=200, content_type="text/html", body=framing))
    page.goto(ANOTHER_SITE)
    expect(page).to_have_title("framed")  # the frame has finished: blocked, not still loading
    frame = page.frame_locator("#scorepad")
    expect(frame.locator("body")).not_to_contain_text("Delete hand 1")
    expect(frame.get_by_role("button", name="Delete hand 1")).to_have_count(0)
    child = next(f for f in page.frames if f is not page.main_frame)
    assert not child.url.startswith(live_server), child.url

    page.goto(live_server + "/")  # the hand is still there
    page.goto(delete_page.rsplit("/hands", 1)[0])
    expect(page.locator("#hand-1")).to_be_visible()


def test_scorepads_own_pages_break_no_rule_of_their_policy(page: Page, live_server: str):
    page.add_init_script(WATCH_VIOLATIONS)
    page.goto(live_server + "/")
    expect(page.locator("html")).to_have_class(re.compile(r"(^|\s)js(\s|$)"))  # static/js/early.js, in <head>
    assert page.evaluate("window.cspViolations") == []
    start_game(page, live_server)
    assert page.evaluate("window.cspViolations") == []
    enter_a_hand(page)  # htmx's live preview and its boosted save, under the policy
    assert page.evaluate("window.cspViolations") == []
    game = page.url
    for path in ("/scoreboard", "/rules", "/hands/1/edit"):
        page.goto(game + path)
        expect(page.locator("html")).to_have_class(re.compile(r"(^|\s)js(\s|$)"))
        assert page.evaluate("window.cspViolations") == [], path
    # No <style> was injected by htmx (its indicator rule is in scorepad.css).
    assert page.locator("head style").count() == 0


def test_starting_a_game_sends_nothing_the_server_refuses(page: Page, live_server: str):
    refused = []
    page.on("response", lambda response: refused.append(response.url) if response.status >= 400 else None)
    start_game(page, live_server)
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()
    assert refused == []
