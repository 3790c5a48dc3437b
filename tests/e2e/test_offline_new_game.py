"""A game started with no connection is played on the phone and reaches the server once when the
connection returns, then gets its scoreboard link (assets/js/newgame.js, localgame.js, sync.js; scorepad/sync.py).

The phone reaches the server through `wifi` (conftest), a relay the test cuts for real; the server is asked
directly what it stored. Figures are worked out by hand from docs/rules.md, modern preset: Us = Ann &
Cleo, Them = Bea & Dot; seats Ann, Bea, Cleo, Dot; Ann deals hand 1. Minimum Count: 125 below 3,000.
"""

from __future__ import annotations

import re

import pytest
import sqlalchemy
from playwright.sync_api import Page, expect
from test_offline_queue import HAND_1, enter, entered, figures, server_game

from conftest import name_the_players, until, wait_until_kept


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """These tests need the service worker that the other browser tests block."""
    return {**browser_context_args, "service_workers": "allow"}


def games_on_the_server(database_uri: str) -> list[str]:
    engine = sqlalchemy.create_engine(database_uri)
    try:
        with engine.connect() as connection:
            return list(connection.execute(sqlalchemy.text("SELECT id FROM games")).scalars())
    finally:
        engine.dispose()


def on_the_phone_from_the_start(page: Page, url: str) -> None:
    """Open Scorepad once online: the home page asks the worker to keep the new-game page, the offline scoresheet
    and htmx (base.html's data-keep), and the home page is kept once the worker runs (the page looks each time the
    cache changes, up to 10 s)."""
    page.goto(url + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    assert page.evaluate("!!navigator.serviceWorker.controller")
    wait_until_kept(page, ["/", "/games/new", "/offline/game", "/static/js/htmx-2.0.11.min.js"])


# Hand 2: Us 1 natural, Count 50; Them 2 naturals, 1 red 3, went out, Count 200.
HAND_2 = (
    {"Natural canastas": "1", "Count": "50"},
    {"Natural canastas": "2", "Red 3s": "1", "Went out": True, "Count": "200"},
)


def expect_the_two_hands(page: Page) -> None:
    # Hand 1. Us: 2 naturals 1,000 + out 100 = 1,100, Count 150: 1,250. Them: 1 mixed 300, Count 60: 360.
    assert figures(page, 1) == [["1,100", "150", "1,250", "1,250"], ["300", "60", "360", "360"]]
    # Hand 2. Us: 1 natural 500, Count 50: 550, total 1,800.
    # Them: 2 naturals 1,000 + 1 red 3 100 (two canastas: added) + out 100 = 1,200, Count 200: 1,400, total 1,760.
    assert figures(page, 2) == [["500", "50", "550", "1,800"], ["1,200", "200", "1,400", "1,760"]]
    expect(page.locator(".total-figure")).to_have_text(["1,800", "1,760"])
    # Both sides below 3,000 need 125. Hand 3 is dealt by seat 2, Cleo.
    expect(page.locator(".min-count-figure")).to_have_text(["125", "125"])


@pytest.mark.both_databases
def test_a_game_started_offline_is_played_on_the_phone_and_reaches_the_server_once(
    page, wifi, live_server, database_uri
):
    on_the_phone_from_the_start(page, wifi.url)
    wifi.cut()

    page.goto(wifi.url + "/games/new")  # from the phone: no connection
    expect(page.locator("html")).to_have_attribute("data-served", "copy")
    name_the_players(page)
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/offline/game#local-"))
    expect(page.locator("h1")).to_have_text("Us v Them")
    expect(page.locator(".next-deal")).to_have_text(re.compile(r"^Hand 1: Ann deals"))

    enter(page, *HAND_1, save="Save hand 1")
    expect(page.locator("#hand-1 .not-synced")).to_have_text("not sent yet")
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()
    enter(page, {**HAND_2[0], "Count": "40"}, HAND_2[1], save="Save hand 2")
    expect(page.locator("#hand-2 .not-synced")).to_be_visible()
    enter(page, *HAND_1, save="Save hand 3")  # entered by mistake: deleted while it waits
    expect(page.locator("#hand-3 .not-synced")).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#hand-3").get_by_role("button", name="Delete hand 3").click()
    expect(page.locator("#hand-3")).to_have_count(0)

    # Hand 2 corrected while it waits: Us' Count was 50, not 40.
    page.locator("#hand-2").get_by_role("button", name="Edit hand 2").click()
    expect(page.get_by_role("heading", name="Edit hand 2 (not sent yet)")).to_be_visible()
    us_count = page.locator('fieldset[data-side="0"]').get_by_role("textbox", name=re.compile("^Count"))
    expect(us_count).to_have_value("40")
    us_count.fill("50")
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator("#hand-2 .count").first).to_have_text("50")
    expect(page.get_by_role("button", name="Save hand 3")).to_be_visible()

    page.reload()  # still no connection: the game and its hands are still here, from the phone
    expect(page.locator("h1")).to_have_text("Us v Them")
    expect(page.locator(".waiting-hand .not-synced")).to_have_count(2)
    expect(page.locator("#sync-status")).to_have_text("No connection: 2 hands saved on this phone, not sent yet.")
    expect_the_two_hands(page)
    expect(page.locator(".next-deal")).to_have_text(re.compile(r"^Hand 3: Cleo deals"))
    assert games_on_the_server(database_uri) == []

    page.goto(wifi.url + "/")  # the home page, from the phone, finds it again
    page.locator("#started-offline").get_by_role("link", name="Us v Them").click()
    expect(page.locator(".waiting-hand")).to_have_count(2)

    # The connection comes back, but the answer to the game's creation is lost on its way to the phone.
    lost = wifi.lose_answers("POST /sync/games ")
    wifi.restore()
    page.evaluate("window.ScorepadOffline.syncNow()")
    until(page, lambda: lost, "a start whose answer was lost")
    expect(page.locator("#sync-status")).to_have_text("No connection: 2 hands saved on this phone, not sent yet.")
    # Every try's answer is lost (a timer's pass may try again meanwhile): still one game on the server.
    assert lost
    assert len(games_on_the_server(database_uri)) == 1

    wifi.deliver_answers()
    page.reload()  # sent again with the same Idempotency-Key: the same game, then its hands
    expect(page).to_have_url(re.compile(r"/games/[^/#]+$"))
    expect(page.locator("#sync-status")).to_have_text("Online: every hand is saved.")
    expect(page.locator(".not-synced")).to_have_count(0)
    expect_the_two_hands(page)
    expect(page.locator(".room-code")).to_be_visible()
    expect(page.get_by_role("link", name="Scoreboard link")).to_be_visible()

    games = games_on_the_server(database_uri)
    assert len(games) == 1
    assert page.url.endswith("/games/" + games[0])
    stored = server_game(live_server, games[0])
    assert stored["sides"] == [{"name": "Us", "players": ["Ann", "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}]
    assert entered(stored) == [
        [{"natural_canastas": 2, "went_out": True, "count": 150}, {"mixed_canastas": 1, "count": 60}],
        [
            {"natural_canastas": 1, "count": 50},
            {"red_threes": 1, "natural_canastas": 2, "went_out": True, "count": 200},
        ],
    ]
    assert stored["totals"] == [1800, 1760]


def test_a_two_player_game_started_offline_takes_the_names_shown_and_asks_for_a_missing_one(page, wifi):
    """The game document is read from the fields the page shows: at a table of two, one player a side (the second
    player's fields, hidden, are not read); a name left blank is said in words, and nothing typed is lost."""
    on_the_phone_from_the_start(page, wifi.url)
    wifi.cut()

    page.goto(wifi.url + "/games/new")
    expect(page.locator("html")).to_have_attribute("data-served", "copy")
    page.get_by_label("Player 1 of side 1", exact=True).fill("Ann")
    page.get_by_label("Player 2 of side 1", exact=True).fill("Cleo")  # typed before the table changed, then hidden
    page.get_by_text("Two players", exact=True).click()
    expect(page.get_by_label("Player 2 of side 1", exact=True)).to_be_hidden()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#new-game-offline-error")).to_have_text(
        "No connection, and the game can't start as it is: Give player 1 of side 2 a name. Your entries are still here."
    )
    expect(page).to_have_url(re.compile(r"/games/new$"))
    expect(page.get_by_label("Player 1 of side 1", exact=True)).to_have_value("Ann")

    page.get_by_label("Player 1 of side 2", exact=True).fill("Bea")
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/offline/game#local-"))
    expect(page.locator("h1")).to_have_text("Us v Them")
    expect(page.locator(".side-players")).to_have_text(["Ann", "Bea"])  # one player a side: Cleo is not in it
    # Two seats, Ann's and Bea's: Ann deals hand 1; Bea cuts (the cutter sits before the dealer).
    expect(page.locator(".next-deal")).to_have_text(re.compile(r"^Hand 1: Ann deals"))
