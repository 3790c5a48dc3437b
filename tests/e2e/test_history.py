"""The scorekeeper's link in a real browser: its key after "#" is handed over by POST and never travels in an
address; replacing the link leaves the phone that used it read-only; the history and the printed scoresheet.

The game: Us = Ann & Cleo against Them = Bea & Dot, modern, made through the API as a script would.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

GAME = {
    "format": "scorepad-game",
    "version": 1,
    "rules": {"preset": "modern"},
    "sides": [{"name": "Us", "players": ["Ann", "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}],
    "hands": [],
}


@pytest.fixture
def requests_seen():
    """Every request the browser sends, as it leaves: method and address without the part after "#" (which a
    browser never sends; Playwright may still show it on a page's own address)."""
    return []


def watch(page: Page, seen: list[str]) -> None:
    page.on("request", lambda request: seen.append(urlsplit(request.url)._replace(fragment="").geturl()))


def new_game(page: Page, live_server: str, sides: list | None = None) -> dict:
    """A game made through the API: its document with its links."""
    response = page.request.post(live_server + "/api/games", data={**GAME, "sides": sides or GAME["sides"]})
    assert response.status == 201
    return response.json()


def take_over(page: Page, link: str) -> None:
    """Open a scorekeeper's link and wait until its key has been handed over and the page reloaded."""
    page.goto(link)
    expect(page.locator(".flash")).to_have_text("This phone keeps score of this game now.")


def test_the_key_after_the_hash_gives_rights_and_never_travels_in_an_address(
    page: Page, browser: Browser, browser_context_args: dict, live_server: str, requests_seen, caplog
):
    caplog.set_level(logging.INFO, logger="werkzeug")  # the live server's access log: every address it was sent
    watch(page, requests_seen)
    body = new_game(page, live_server)
    api_token = body["edit_token"]
    take_over(page, body["links"]["scoresheet"])
    expect(page).to_have_url(live_server + f"/games/{body['id']}")  # the key is out of the address bar
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()

    page.get_by_text("Keep score on another phone").click()
    page.get_by_role("link", name="The link, and who has it").click()
    link = page.get_by_label("The scorekeeper's link").input_value()
    handover_key = urlsplit(link).fragment.removeprefix("key=")
    assert len(handover_key) == 48

    other = browser.new_context(**browser_context_args)
    viewer = other.new_page()
    watch(viewer, requests_seen)
    viewer.goto(live_server + f"/games/{body['id']}")
    expect(viewer.get_by_text("Read-only: only the scorekeeper's phone can change this game.")).to_be_visible()
    take_over(viewer, link)
    expect(viewer).to_have_url(live_server + f"/games/{body['id']}")
    assert "key" not in viewer.evaluate("location.href")
    expect(viewer.get_by_role("link", name="Enter hand 1")).to_be_visible()
    expect(viewer.get_by_text("This phone keeps score through the scorekeeper's link.")).to_be_visible()

    page.reload()
    expect(page.locator(".holder-list li")).to_have_count(1)
    other.close()

    addresses_sent = "\n".join(requests_seen)
    access_log = "\n".join(r.getMessage() for r in caplog.records if r.name == "werkzeug")
    assert f"/games/{body['id']}/claim" in addresses_sent and "/claim" in access_log
    for key in (api_token, handover_key):
        assert key not in addresses_sent, "a key travelled in an address"
        assert key not in access_log, "a key reached the server's access log"


def test_replacing_the_link_leaves_the_phone_that_used_it_read_only(
    page: Page, browser: Browser, browser_context_args: dict, live_server: str
):
    body = new_game(page, live_server)
    take_over(page, body["links"]["scoresheet"])
    page.goto(live_server + f"/games/{body['id']}/handover")
    old_link = page.get_by_label("The scorekeeper's link").input_value()

    other = browser.new_context(**browser_context_args)
    viewer = other.new_page()
    take_over(viewer, old_link)
    expect(viewer.get_by_role("link", name="Enter hand 1")).to_be_visible()

    page.reload()
    expect(page.locator(".holder-list li")).to_have_count(1)
    page.get_by_role("button", name="Replace the link").click()
    expect(page.locator(".flash")).to_contain_text("The 1 phone that used it can't change the game any more.")
    new_link = page.get_by_label("The scorekeeper's link").input_value()
    assert new_link != old_link

    viewer.reload()
    expect(viewer.get_by_text("Read-only: only the scorekeeper's phone can change this game.")).to_be_visible()
    expect(viewer.get_by_role("link", name="Enter hand 1")).to_have_count(0)
    viewer.goto(old_link.replace(f"/games/{body['id']}", f"/games/{body['id']}/rules"))  # another page first
    viewer.goto(old_link)  # the old link again: refused, in words
    expect(viewer.locator(".flash")).to_contain_text("That link's key doesn't match this game")
    expect(viewer.get_by_role("link", name="Enter hand 1")).to_have_count(0)
    take_over(viewer, new_link)
    expect(viewer.get_by_role("link", name="Enter hand 1")).to_be_visible()
    other.close()

    page.goto(live_server + f"/games/{body['id']}")
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()  # the scorekeeper keeps its rights


def test_the_history_lists_and_finds_the_games_and_the_scoresheet_prints_as_a_plain_grid(page: Page, live_server: str):
    take_over(page, new_game(page, live_server)["links"]["scoresheet"])
    mine = [{"name": "Mine", "players": ["Eve", "Fay"]}, GAME["sides"][1]]
    take_over(page, new_game(page, live_server, mine)["links"]["scoresheet"])
    page.goto(live_server + "/")
    page.get_by_role("link", name="History: every game on this phone (2)").click()
    expect(page.locator(".game-entry")).to_have_count(2)
    page.get_by_label("Find a player").fill("eve")
    page.get_by_role("button", name="Search").click()
    expect(page.locator(".game-entry")).to_have_count(1)
    expect(page.locator(".game-entry")).to_contain_text("Eve & Fay v Bea & Dot")

    page.locator(".game-entry .game-link").click()
    expect(page.locator("h1")).to_have_text("Mine v Them")
    page.emulate_media(media="print")
    expect(page.locator(".standings")).to_be_visible()
    for hidden in (".topbar", ".share", "a.button", "form"):
        for element in page.locator(hidden).all():
            expect(element).to_be_hidden()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    assert page.evaluate("getComputedStyle(document.body).color") == "rgb(0, 0, 0)"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_history_pages_have_no_axe_fault(
    page: Page, browser: Browser, browser_context_args: dict, live_server: str, scheme: str
):
    """The history, a search, the statistics, the handover page with a phone on it, and deleting a game."""
    from test_accessibility import assert_none, axe_violations  # the one axe helper, shared

    page.emulate_media(color_scheme=scheme)
    body = new_game(page, live_server)
    take_over(page, body["links"]["scoresheet"])
    page.goto(live_server + f"/games/{body['id']}/handover")
    other = browser.new_context(**browser_context_args)
    take_over(other.new_page(), page.get_by_label("The scorekeeper's link").input_value())
    other.close()
    problems: list[str] = []
    for address in (
        f"/games/{body['id']}/handover",
        "/history",
        "/history?q=Ann",
        "/history/statistics",
        f"/games/{body['id']}/delete",
        "/",
    ):
        page.goto(live_server + address)
        problems += axe_violations(page, scheme)
    assert_none(problems)
