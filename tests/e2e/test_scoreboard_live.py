"""The table follows the score live: a player joins the scoreboard by its room code or its QR code, and sees
every save, correction and deletion within 3 seconds, without reloading, with nothing to change the game.

The 3 seconds are the viewer's phone's: its clock stands still and the test moves it on 3 s after each change,
so the scoreboard's asking (every 2 s) is what is measured, not how busy the test machine is. The server's
answer to that asking is timed by the benchmark (scripts/bench.sh: a changed scoreboard poll takes a few ms).

The table: Us = Ann & Cleo, Them = Bea & Dot, modern, 8,500 to win, Ann deals first; seats go Ann, Bea,
Cleo, Dot. Hands are typed into the form by the names it sends (s0- for Us, s1- for Them).
"""

from __future__ import annotations

import re
import time

import pytest
import segno
from playwright.sync_api import Browser, Page, expect

from conftest import start_game

LIVE = 3000  # ms of the viewer's clock: a change shows on the scoreboard within 3 seconds
ANSWER = 20_000  # ms of real time for the server's answer to reach the page, on a machine that may be busy
MINUS = "\u2212"


def type_hand(page: Page, us: dict[str, str], them_count: str, them: dict[str, str] | None = None) -> None:
    """Fill in the open hand form: Us's entries (went_out is a switch), Them's entries and a Count."""
    for name, value in us.items():
        field = page.locator(f'[name="s0-{name}"]')
        if name == "went_out":
            field.check(force=True)
        else:
            field.fill(value)
    for name, value in (them or {}).items():
        page.locator(f'[name="s1-{name}"]').fill(value)
    sign = "-" if them_count.startswith("-") else "+"
    page.locator(f'[name="s1-count_sign"][value="{sign}"]').check(force=True)
    page.locator('[name="s1-count"]').fill(them_count.lstrip("-"))


def three_seconds_later(viewer: Page) -> None:
    """The viewer's clock (stopped) moves on 3 s: every timer due in them fires, the scoreboard's asking too."""
    viewer.clock.run_for(LIVE)


def expect_scoreboard(viewer: Page, totals: list[str], hands: list[str], next_deal: str) -> None:
    """What the viewer sees 3 s after a change, once the answer has come: the totals, the hands latest first, who
    deals next; nothing to change."""
    three_seconds_later(viewer)
    expect(viewer.locator(".total-figure")).to_have_text(totals, timeout=ANSWER)
    expect(viewer.locator(".grid .hand-number")).to_have_text(hands, timeout=ANSWER)
    expect(viewer.locator(".next-deal")).to_contain_text(next_deal, timeout=ANSWER)
    # Nothing that changes the game (Share only sends its link: share.js).
    changes = "form, button:not(.share-game), input, select, textarea, [hx-post], [hx-put], [hx-delete]"
    expect(viewer.locator(changes)).to_have_count(0)
    expect(viewer.locator("a[href*='/hands'], a[href*='/edit'], a[href*='/delete']")).to_have_count(0)


@pytest.mark.both_databases
def test_the_scoreboard_follows_every_save_edit_and_delete_live(
    page: Page, live_server: str, browser: Browser, browser_context_args: dict
):
    start_game(page, live_server)
    game_url = page.url.split("#")[0]
    code = page.locator(".join-panel .room-code").inner_text().replace("Room code:", "").strip()
    assert re.fullmatch(r"[A-Z0-9]{3} [A-Z0-9]{3}", code), code

    viewer_context = browser.new_context(**browser_context_args)
    try:
        viewer = viewer_context.new_page()
        installed = time.time()
        viewer.clock.install(time=installed)
        # Another player joins from the home page with the code as read aloud, in lower case.
        viewer.goto(live_server + "/")
        viewer.get_by_role("link", name="Join a game").click()
        viewer.get_by_label("Room code").fill(code.lower())
        viewer.get_by_role("button", name="Show the scoreboard").click()
        expect(viewer).to_have_url(game_url + "/scoreboard")
        expect(viewer.get_by_role("heading", name="Us v Them")).to_be_visible()
        expect(viewer.locator(".total-figure")).to_have_text(["0", "0"])
        viewer.evaluate("window.sameScoreboard = true")  # gone if the page were ever reloaded
        # From now on the viewer's time moves only as the test says: stopped 10 minutes on from its start (a time
        # still ahead of its clock however slow the steps before were; any timer due meanwhile fires once).
        viewer.clock.pause_at(installed + 600)
        # While nothing changes, each poll is answered 304 and leaves the scoreboard as it is.
        with viewer.expect_response(lambda r: r.url.endswith("/scoreboard/live") and r.status == 304, timeout=ANSWER):
            three_seconds_later(viewer)
        expect(viewer.locator(".total-figure")).to_have_text(["0", "0"])

        # Saved. Us: two naturals 1,000 + going out 100 + Count 240 = 1,340. Them: no canasta, Count −95.
        page.get_by_role("link", name="Enter hand 1").click()
        type_hand(page, {"natural_canastas": "2", "went_out": "on", "count": "240"}, "-95")
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator(".total-figure")).to_have_text(["1,340", f"{MINUS}95"])
        expect_scoreboard(viewer, ["1,340", f"{MINUS}95"], ["1"], "Hand 2: Bea deals")

        # Corrected: Us's Count was 300, so 1,000 + 100 + 300 = 1,400.
        page.locator("#hand-1").get_by_role("link", name="Edit hand 1").click()
        page.locator('[name="s0-count"]').fill("300")
        page.get_by_role("button", name="Save changes").click()
        expect(page.locator(".total-figure")).to_have_text(["1,400", f"{MINUS}95"])
        expect_scoreboard(viewer, ["1,400", f"{MINUS}95"], ["1"], "Hand 2: Bea deals")

        # Hand 2, dealt by Bea. Us: two naturals 1,000 + going out 100 + Count 100 = 1,200, total 2,600.
        # Them: a natural 500 + Count 100 = 600, total −95 + 600 = 505. The latest hand comes first.
        page.get_by_role("link", name="Enter hand 2").click()
        type_hand(page, {"natural_canastas": "2", "went_out": "on", "count": "100"}, "100", {"natural_canastas": "1"})
        page.get_by_role("button", name="Save hand 2").click()
        expect(page.locator(".total-figure")).to_have_text(["2,600", "505"])
        expect_scoreboard(viewer, ["2,600", "505"], ["2", "1"], "Hand 3: Cleo deals")
        expect(viewer.locator("#hand-2 .dealer")).to_have_text("Bea dealt")

        # Hand 1 deleted: hand 2 moves up, and its figures alone remain: Us 1,200, Them 600; Bea deals next.
        page.locator("#hand-1").get_by_role("link", name="Delete hand 1").click()
        page.get_by_role("button", name="Delete hand 1").click()
        expect(page.locator(".total-figure")).to_have_text(["1,200", "600"])
        expect_scoreboard(viewer, ["1,200", "600"], ["1"], "Hand 2: Bea deals")

        assert viewer.evaluate("window.sameScoreboard === true"), "the scoreboard was reloaded"
    finally:
        viewer_context.close()


def test_the_qr_code_is_the_scoreboard_link(page: Page, live_server: str, browser: Browser, browser_context_args: dict):
    start_game(page, live_server)
    scoreboard_url = page.url.split("#")[0] + "/scoreboard"
    shown = page.locator(".join-panel svg.qr-code path.qrline").get_attribute("d")
    made = segno.make(scoreboard_url, error="m").svg_inline(omitsize=True)
    assert shown == re.search(r'class="qrline"[^>]* d="([^"]+)"', made).group(1)

    viewer_context = browser.new_context(**browser_context_args)
    try:
        viewer = viewer_context.new_page()
        viewer.goto(scoreboard_url)  # where a phone's camera takes the player
        expect(viewer.get_by_role("heading", name="Us v Them")).to_be_visible()
        expect(viewer.locator(".rules-line")).to_contain_text("Scoreboard")
        expect(viewer.locator("form, button:not(.share-game)")).to_have_count(0)  # Share only sends the link
    finally:
        viewer_context.close()


def test_a_scoreboard_whose_game_is_deleted_says_so_and_keeps_the_last_figures(
    page: Page, live_server: str, browser: Browser, browser_context_args: dict
):
    start_game(page, live_server)
    game_url = page.url.split("#")[0]
    viewer_context = browser.new_context(**browser_context_args)
    try:
        viewer = viewer_context.new_page()
        errors: list[str] = []
        viewer.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        viewer.goto(game_url + "/scoreboard")
        expect(viewer.locator(".total-figure")).to_have_text(["0", "0"])
        with viewer.expect_response(lambda r: r.url.endswith("/scoreboard/live") and r.status == 304, timeout=LIVE):
            pass

        page.goto(game_url + "/delete")
        with viewer.expect_response(lambda r: r.url.endswith("/scoreboard/live") and r.status == 286, timeout=LIVE):
            page.get_by_role("button", name="Delete the game").click()
            expect(page.locator(".flash")).to_have_text("Game deleted: Us v Them.")
        expect(viewer.locator(".flash-error")).to_have_text(
            "The scorekeeper deleted this game: the scores below are the last this phone received, and they will "
            "not change. Join another game"
        )
        # The last figures stay under it, and htmx took the answer without an error.
        expect(viewer.locator(".total-figure")).to_have_text(["0", "0"])
        expect(viewer.locator(".flash-error")).to_have_count(1)
        assert errors == []
    finally:
        viewer_context.close()
