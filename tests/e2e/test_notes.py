"""A hand's note ("misdeal") typed on the hand form travels with the hand: kept on the phone when Save gets no
answer, sent with it by the phone's queue (assets/js/handform.js, sync.js), stored and shown on the sheet's row.

The note is typed in the hand form's own box, under its "Add a note" disclosure (templates/games/_hand_form.html).
Figures worked out by hand in tests/e2e/test_offline_queue.py (HAND_1): Us 1,250, Them 360.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from test_offline_queue import HAND_1, enter, figures, game_id, server_game

from conftest import start_game

NOTE = "misdeal: dealt again"
SENDS = re.compile(r"/(games|sync/games)/[^/]+/hands$")  # Save of the next hand, and the queue's sends

QUEUED_NOTES = """() => new Promise((resolve, reject) => {
  const request = indexedDB.open("scorepad-offline");
  request.onerror = () => reject(request.error);
  request.onsuccess = () => {
    const read = request.result.transaction("queue").objectStore("queue").getAll();
    read.onsuccess = () => resolve(read.result.map((item) => item.hand.note ?? null));
  };
})"""

# The same, or [] when nothing was ever kept on this phone (no store yet).
QUEUED_NOTES_IF_ANY = """() => new Promise((resolve, reject) => {
  const request = indexedDB.open("scorepad-offline");
  request.onerror = () => reject(request.error);
  request.onsuccess = () => {
    const db = request.result;
    if (!db.objectStoreNames.contains("queue")) return resolve([]);
    const read = db.transaction("queue").objectStore("queue").getAll();
    read.onsuccess = () => resolve(read.result.map((item) => item.hand.note ?? null));
  };
})"""


def test_a_hand_kept_on_the_phone_with_its_note_reaches_the_server_with_it(page: Page, live_server: str):
    start_game(page, live_server)
    gid = game_id(page)
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("h1")).to_have_text("Hand 1")
    page.locator("details.hand-note-entry summary").filter(has_text="Add a note").click()  # out of the way until wanted
    page.get_by_label("Note on this hand").fill(f"  {NOTE}  ")

    def no_answer(route) -> None:
        route.abort("connectionreset")

    page.context.route(SENDS, no_answer)  # the hand's posts get no answer; the pages still load
    enter(page, *HAND_1, save="Save hand 1")
    expect(page.locator("#hand-1 .not-synced")).to_have_text("not sent yet")
    assert page.evaluate(QUEUED_NOTES) == [NOTE]  # kept on the phone with its note, trimmed
    assert server_game(live_server, gid)["hands"] == []

    page.context.unroute(SENDS, no_answer)
    page.evaluate("window.ScorepadOffline.syncNow()")
    expect(page.locator("#sync-status")).to_have_text("Online: every hand is saved.")
    expect(page.locator(".not-synced")).to_have_count(0)
    assert [hand.get("note") for hand in server_game(live_server, gid)["hands"]] == [NOTE]
    note = page.locator("#hand-1 .hand-note")
    expect(note).to_have_text(NOTE)
    expect(note).to_have_css("font-size", "12.8px")  # small print under the dealer (0.8 of the page's 16 px)
    # Us: 2 naturals 1,000 + out 100 = 1,100, Count 150: 1,250. Them: 1 mixed 300, Count 60: 360. Never scored.
    assert figures(page, 1) == [["1,100", "150", "1,250", "1,250"], ["300", "60", "360", "360"]]


def test_each_disclosure_shows_one_triangle(page: Page, live_server: str):
    """Found by the new-user tester: "Add a note" showed two disclosure triangles, the browser's and ours. Every
    summary on the sheet and the hand form shows ours alone (its ::before), never the browser's marker too."""
    start_game(page, live_server)
    sheet = page.url
    page.get_by_role("link", name="Enter hand 1").tap()
    expect(page.get_by_role("heading", name="Hand 1")).to_be_visible()
    for address in (None, sheet):
        if address:
            page.goto(address)
            expect(page.locator("h1")).to_have_text("Us v Them")
        markers = page.eval_on_selector_all(
            "summary",
            """summaries => summaries.map((s) => [s.textContent.trim(),
                getComputedStyle(s).display === 'list-item' && getComputedStyle(s).listStyleType !== 'none',
                getComputedStyle(s, '::before').content])""",
        )
        assert markers, address
        for text, native, ours in markers:
            assert not native and ours in ('"▸"', '"\\u25b8"'), (text, native, ours)


def test_a_note_too_long_is_refused_before_its_hand_is_kept_on_the_phone_in_the_servers_words(
    page: Page, live_server: str
):
    """The server takes a note of at most 500 characters (document.LONGEST_NOTE). The note's box stops typing there,
    but not a note put back in it (a draft restored, a hand opened again): such a hand, kept on the phone with no
    answer to Save, would be refused by the server only later. The phone checks it first, in the server's words, and
    keeps nothing; what was typed stays."""
    start_game(page, live_server)
    gid = game_id(page)
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("h1")).to_have_text("Hand 1")
    page.locator("details.hand-note-entry summary").filter(has_text="Add a note").click()
    box = page.get_by_label("Note on this hand")
    too_long = "misdeal " + "x" * 493  # 501 characters
    box.evaluate(
        "(box, note) => { box.value = note; box.dispatchEvent(new Event('input', {bubbles: true})); }", too_long
    )
    page.locator("details.hand-note-entry summary").click()  # closed again: the message opens it

    def no_answer(route) -> None:
        route.abort("connectionreset")

    page.context.route(SENDS, no_answer)
    enter(page, *HAND_1, save="Save hand 1")
    words = "The hand's note is 501 characters long: a note has at most 500. Shorten it."
    expect(page.locator("#hand-note-error")).to_have_text(words)
    expect(page.locator("#hand-note-error")).to_be_visible()
    expect(box).to_have_value(too_long)
    expect(page.locator("h1")).to_have_text("Hand 1")  # not kept: the form stays
    assert page.evaluate(QUEUED_NOTES_IF_ANY) == []
    # The server, reached, says the same.
    page.context.unroute(SENDS, no_answer)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_text(words).first).to_be_visible()
    assert server_game(live_server, gid)["hands"] == []
