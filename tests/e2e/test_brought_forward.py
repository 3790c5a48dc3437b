"""A game moved in from paper: totals brought forward typed on the new-game page at a phone's size, seen on the
sheet as the line before hand 1 and in the totals.

By hand (docs/rules.md): Us bring 3,000 forward, Them 1,500; before hand 1 the totals are those, and the
Minimum Counts are 155 (3,000 is in the 3,000-4,995 band) and 125 (below 3,000)."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from test_offline_new_game import games_on_the_server
from test_offline_queue import HAND_1, enter, server_game

from conftest import PHONE, name_the_players, no_horizontal_scroll


def test_totals_brought_forward_on_the_new_game_page_start_the_sheet(page, live_server):
    assert page.viewport_size == PHONE
    page.goto(live_server + "/games/new")
    name_the_players(page)
    page.get_by_text("Moving a game from paper").click()  # the rare options, folded away
    page.get_by_label("Us brought forward").fill("3002")
    page.get_by_role("button", name="Start the game").click()
    # A bad value: said in words beside its field, and the names typed are still there.
    expect(page.locator("#brought_forward0-error")).to_contain_text(
        "Us's total brought forward is 3,002: canasta scores go in 5s, like 3,000.", timeout=15_000
    )
    expect(page.get_by_label("Player 1 of side 1", exact=True)).to_have_value("Ann")
    page.get_by_label("Us brought forward").fill("3000")
    page.get_by_label("Them brought forward").fill("1500")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("h1")).to_have_text("Us v Them", timeout=15_000)
    line = page.locator("tr.brought-forward")
    expect(line).to_contain_text("Brought forward")
    expect(line.locator("dd.cumulative")).to_have_text(["3,000", "1,500"])
    expect(page.locator(".total-figure")).to_have_text(["3,000", "1,500"])
    expect(page.locator(".min-count-figure")).to_have_text(["155", "125"])
    assert no_horizontal_scroll(page)


def test_a_game_started_offline_from_paper_keeps_its_totals_brought_forward(page, live_server, database_uri):
    """Start gets no answer (every post to the server fails: context.route, the pages still load), so the game starts
    on the phone with its totals brought forward, one of them behind (−1,500 typed with a phone's minus sign); once
    the server answers again it reaches it with them.

    By hand (docs/rules.md, modern): Us bring 3,000, Them −1,500. Hand 1 (Ann deals): Us 2 naturals 1,000 + out
    100 = 1,100, Count 150: 1,250, total 4,250; Them 1 mixed 300, Count 60: 360, total −1,140. Minimum Counts:
    4,250 is in the 3,000-4,995 band (155); −1,140 is below 3,000 (125)."""
    posts_fail = lambda route: route.abort("connectionreset") if route.request.method == "POST" else route.fallback()  # noqa: E731
    page.context.route("**/*", posts_fail)
    page.goto(live_server + "/games/new")
    name_the_players(page)
    page.get_by_text("Moving a game from paper").click()
    page.get_by_label("Us brought forward").fill("3002")
    page.get_by_label("Them brought forward").fill("\u22121,500")
    page.get_by_role("button", name="Start the game").click()
    # Not a total a game can start from: said in words, on the phone, and nothing typed is lost.
    expect(page.locator("#new-game-offline-error")).to_have_text(
        "No connection, and the game can't start as it is: Us's total brought forward is 3,002: canasta scores go "
        "in 5s, like 3,000. Your entries are still here."
    )
    expect(page.get_by_label("Them brought forward")).to_have_value("\u22121,500")
    page.get_by_label("Us brought forward").fill("3,000")
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/offline/game#local-"))
    expect(page.locator(".total-figure")).to_have_text(["3,000", "\u22121,500"])
    expect(page.locator(".min-count-figure")).to_have_text(["155", "125"])
    enter(page, *HAND_1, save="Save hand 1")
    expect(page.locator("#hand-1 .not-synced")).to_have_text("not sent yet")
    expect(page.locator(".total-figure")).to_have_text(["4,250", "\u22121,140"])
    assert games_on_the_server(database_uri) == []

    page.context.unroute("**/*", posts_fail)  # the server answers again
    page.evaluate("window.ScorepadOffline.syncNow()")  # the game, then its hand; the page then goes to the game
    expect(page).to_have_url(re.compile(r"/games/[^/#]+$"))
    expect(page.locator(".not-synced")).to_have_count(0)
    [game] = games_on_the_server(database_uri)
    stored = server_game(live_server, game)
    assert stored["brought_forward"] == [3000, -1500] and stored["totals"] == [4250, -1140]
    assert stored["min_count"] == [155, 125]
    line = page.locator("tr.brought-forward")
    expect(line.locator("dd.cumulative")).to_have_text(["3,000", "\u22121,500"])
    expect(page.locator(".total-figure")).to_have_text(["4,250", "\u22121,140"])
    expect(page.locator(".min-count-figure")).to_have_text(["155", "125"])
