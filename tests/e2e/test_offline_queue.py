"""Hands entered with no connection wait on the phone and reach the server once (assets/js/sync.js,
scorepad/sync.py).

The phone reaches the server through `wifi` (conftest), a relay the test cuts for real. The server is
asked directly (not through the relay) what it stored. Figures are worked out by hand from
docs/rules.md, modern preset: Us = Ann & Cleo, Them = Bea & Dot; seats Ann, Bea, Cleo, Dot; Ann deals
hand 1. Minimum Count: 125 below 3,000, 155 from 3,000 to 4,995, 180 from 5,000.
"""

from __future__ import annotations

import json
import re
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import Page, expect

from conftest import start_game, until, wait_until_kept

MINUS = "\u2212"


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """These tests need the service worker that the other browser tests block."""
    return {**browser_context_args, "service_workers": "allow"}


def keep_on_the_phone(page: Page) -> None:
    """Reload once the service worker runs: the scoresheet, its hand form and rules page are kept on the phone."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    assert page.evaluate("!!navigator.serviceWorker.controller")
    expect(page.locator("#sync-status")).to_have_attribute("data-state", "online")
    # The scoresheet asks the worker to keep the game's hand form and rules page, and htmx (a scorekeeper's page).
    game = page.evaluate("location.pathname")
    wait_until_kept(page, [game + "/hands/new", game + "/rules", "/static/js/htmx-2.0.11.min.js"])


def game_id(page: Page) -> str:
    return re.search(r"/games/([^/#?]+)", page.url).group(1)


def server_game(live_server: str, gid: str) -> dict:
    """The game as the server stores it (asked directly, not through the phone's Wi-Fi)."""
    with urlopen(f"{live_server}/api/games/{gid}") as answer:
        return json.load(answer)


def entered(game: dict) -> list[list[dict]]:
    """Each stored hand's entries, without the figures the server adds."""
    return [[{k: v for k, v in side.items() if k != "result"} for side in hand["sides"]] for hand in game["hands"]]


def enter(page: Page, us: dict, them: dict, save: str) -> None:
    """Fill the open hand form (numbers by label, "Went out" switched on when True), then Save."""
    for side, values in (("0", us), ("1", them)):
        panel = page.locator(f'fieldset[data-side="{side}"]')
        for label, value in values.items():
            if label == "Went out":
                panel.get_by_label("Went out").check(force=True)
            elif label == "Count":
                panel.get_by_role("textbox", name=re.compile("^Count")).fill(value)
            elif label in ("Red 3s", "Black 3s"):  # two decks: all there can be is in the row of 0 to 4, one tap
                panel.get_by_role("radiogroup", name=f"{label}: 0 to 4").get_by_role("radio", name=value).tap()
            else:
                panel.get_by_label(label, exact=True).fill(value)
    page.get_by_role("button", name=save).click()


def figures(page: Page, number: int) -> list[list[str]]:
    """Hand `number`'s Base, Count, hand total and total for each side, as the scoresheet shows them."""
    row = page.locator(f"#hand-{number}")
    return [
        [row.locator(f'td[data-side="{s}"] .{f}').inner_text() for f in ("base", "count", "hand-total", "cumulative")]
        for s in (0, 1)
    ]


# The three hands of the offline test, and hand 2 as corrected while it waits.
HAND_1 = ({"Natural canastas": "2", "Went out": True, "Count": "150"}, {"Mixed canastas": "1", "Count": "60"})
HAND_2 = (
    {"Natural canastas": "1", "Count": "50"},
    {"Natural canastas": "2", "Red 3s": "1", "Went out": True, "Count": "200"},
)
HAND_3 = ({"Natural canastas": "3", "Went out": True, "Count": "300"}, {"Mixed canastas": "1", "Count": "40"})


def expect_the_three_hands(page: Page) -> None:
    # Hand 1. Us: 2 naturals 1,000 + out 100 = 1,100, Count 150: 1,250. Them: 1 mixed 300, Count 60: 360.
    assert figures(page, 1) == [["1,100", "150", "1,250", "1,250"], ["300", "60", "360", "360"]]
    # Hand 2 (Us' Count corrected to 100). Us: 1 natural 500, Count 100: 600, total 1,850.
    # Them: 2 naturals 1,000 + 1 red 3 100 (added: two canastas) + out 100 = 1,200, Count 200: 1,400, total 1,760.
    assert figures(page, 2) == [["500", "100", "600", "1,850"], ["1,200", "200", "1,400", "1,760"]]
    # Hand 3. Us: 3 naturals 1,500 + out 100 = 1,600, Count 300: 1,900, total 3,750.
    # Them: 1 mixed 300, Count 40: 340, total 2,100.
    assert figures(page, 3) == [["1,600", "300", "1,900", "3,750"], ["300", "40", "340", "2,100"]]
    expect(page.locator(".total-figure")).to_have_text(["3,750", "2,100"])
    # Us at 3,750 need 155; Them at 2,100 need 125. Hand 4 is dealt by seat 3, Dot.
    expect(page.locator(".min-count-figure")).to_have_text(["155", "125"])
    expect(page.locator(".next-deal")).to_have_text(re.compile(r"^Hand 4: Dot deals"))


@pytest.mark.both_databases
def test_hands_entered_offline_wait_on_the_phone_and_reach_the_server_once(page, wifi, live_server):
    start_game(page, wifi.url)
    gid = game_id(page)
    keep_on_the_phone(page)
    wifi.cut()

    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("h1")).to_have_text("Hand 1")
    enter(page, *HAND_1, save="Save hand 1")
    expect(page.locator("#hand-1 .not-synced")).to_have_text("not sent yet")
    expect(page.locator("#sync-status")).to_have_text("No connection: 1 hand saved on this phone, not sent yet.")

    page.get_by_role("link", name="Enter hand 2").click()
    expect(page.locator("h1")).to_have_text("Hand 2 (not sent yet)")
    # Hand 2 is dealt by Bea; Us at 1,250 and Them at 360 both need 125.
    expect(page.locator(".hand-info")).to_have_text("Bea deals · Minimum Count Us 125, Them 125 (not sent yet)")
    enter(page, *HAND_2, save="Save hand 2")
    expect(page.locator("#hand-2 .not-synced")).to_be_visible()
    page.get_by_role("link", name="Enter hand 3").click()
    expect(page.locator("h1")).to_have_text("Hand 3 (not sent yet)")
    enter(page, *HAND_3, save="Save hand 3")
    expect(page.locator("#hand-3 .not-synced")).to_be_visible()

    # Hand 2 corrected while it waits: Us' Count was 100, not 50.
    page.locator("#hand-2").get_by_role("link", name="Edit hand 2").click()
    expect(page.locator("h1")).to_have_text("Edit hand 2 (not sent yet)")
    us_count = page.locator('fieldset[data-side="0"]').get_by_role("textbox", name=re.compile("^Count"))
    expect(us_count).to_have_value("50")
    us_count.fill("100")
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator("#hand-2 .count").first).to_have_text("100")

    page.reload()  # still no connection: everything is still here, from the phone
    expect(page.locator("html")).to_have_attribute("data-served", "copy")
    expect(page.locator(".waiting-hand .not-synced")).to_have_count(3)
    expect(page.locator("#sync-status")).to_have_text("No connection: 3 hands saved on this phone, not sent yet.")
    expect(page.locator(".provisional-note")).to_be_visible()
    expect_the_three_hands(page)
    assert entered(server_game(live_server, gid)) == []  # nothing reached the server

    wifi.restore()
    page.reload()  # the queue is sent on page load; then the sheet is the server's
    expect(page.locator("#sync-status")).to_have_text("Online: every hand is saved.")
    expect(page.locator(".not-synced")).to_have_count(0)
    expect(page.locator(".provisional-note")).to_have_count(0)
    expect_the_three_hands(page)
    stored = server_game(live_server, gid)
    assert entered(stored) == [
        [{"natural_canastas": 2, "went_out": True, "count": 150}, {"mixed_canastas": 1, "count": 60}],
        [
            {"natural_canastas": 1, "count": 100},
            {"red_threes": 1, "natural_canastas": 2, "went_out": True, "count": 200},
        ],
        [{"natural_canastas": 3, "went_out": True, "count": 300}, {"mixed_canastas": 1, "count": 40}],
    ]
    assert stored["totals"] == [3750, 2100]
    expect(page.locator("#hand-4")).to_have_count(0)


def test_a_hand_the_rules_refuse_offline_gets_the_servers_message_beside_its_field(page, wifi):
    start_game(page, wifi.url)
    keep_on_the_phone(page)
    wifi.cut()
    page.get_by_role("link", name="Enter hand 1").click()
    # 3 red 3s and 2 more: two decks hold only 4.
    hand = ({"Red 3s": "3", "Natural canastas": "2", "Went out": True, "Count": "150"}, {"Red 3s": "2", "Count": "-60"})
    enter(page, *hand, save="Save hand 1")
    expect(page.locator("#s0-red_threes-error")).not_to_be_empty()  # refused on the phone: nothing waits
    offline_message = page.locator("#s0-red_threes-error").inner_text()
    expect(page.locator("#s0-red_threes")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("h1")).to_have_text("Hand 1")
    assert (
        page.evaluate("""() => new Promise((resolve) => {
        const open = indexedDB.open('scorepad-offline');
        open.onsuccess = () => {
            const all = open.result.transaction('queue').objectStore('queue').getAll();
            all.onsuccess = () => resolve(all.result.length);
        };
    })""")
        == 0
    )

    wifi.restore()
    page.get_by_role("button", name="Save hand 1").click()  # the server refuses it the same way
    expect(page.locator("#s0-red_threes-error")).to_have_text(offline_message)


def create_game_by_api(live_server: str) -> dict:
    body = {
        "format": "scorepad-game",
        "version": 1,
        "rules": {"preset": "modern"},
        "sides": [{"name": "Us", "players": ["Ann", "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}],
        "first_dealer": 0,
        "hands": [],
    }
    request = Request(f"{live_server}/api/games", json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urlopen(request) as answer:
        return json.load(answer)


def add_hand_by_api(live_server: str, created: dict, sides: list[dict]) -> None:
    request = Request(
        f"{live_server}/api/games/{created['id']}/hands",
        json.dumps({"sides": sides}).encode(),
        {"Content-Type": "application/json", "Authorization": f"Bearer {created['edit_token']}"},
    )
    with urlopen(request) as answer:
        assert answer.status == 201


@pytest.mark.both_databases
def test_a_lost_answer_leaves_no_duplicate(page, wifi, live_server):
    start_game(page, wifi.url)
    gid = game_id(page)
    keep_on_the_phone(page)
    wifi.cut()
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("h1")).to_have_text("Hand 1")
    enter(page, *HAND_1, save="Save hand 1")
    expect(page.locator("#hand-1 .not-synced")).to_be_visible()

    # The connection comes back, but the answer to the first send is lost on its way to the phone.
    lost = wifi.lose_answers("POST /sync/games/")
    wifi.restore()
    page.evaluate("window.ScorepadOffline.syncNow()")
    until(page, lambda: lost, "a send whose answer was lost")
    expect(page.locator("#hand-1 .not-synced")).to_be_visible()  # the phone could not know it was stored
    assert lost  # each send (the page may try again on its timer) reached the server and lost its answer
    assert len(entered(server_game(live_server, gid))) == 1

    wifi.deliver_answers()
    page.reload()  # sent again with the same Idempotency-Key: stored once
    expect(page.locator("#sync-status")).to_have_text("Online: every hand is saved.")
    expect(page.locator(".not-synced")).to_have_count(0)
    expect(page.locator(".total-figure")).to_have_text(["1,250", "360"])
    assert len(entered(server_game(live_server, gid))) == 1


def a_hand_entered_twice(page, wifi, live_server) -> dict:
    """Hand 1 saved on this phone with no connection while another phone enters its own hand 1 on the server
    (Us 1 mixed, Count 30: 330; Them 2 naturals, out, Count 100: 1,200); then the connection is back."""
    created = create_game_by_api(live_server)
    page.goto(created["links"]["scoresheet"].replace(live_server, wifi.url))  # this phone keeps score
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()
    keep_on_the_phone(page)
    wifi.cut()
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("h1")).to_have_text("Hand 1")
    enter(page, *HAND_1, save="Save hand 1")
    expect(page.locator("#hand-1 .not-synced")).to_be_visible()
    add_hand_by_api(
        live_server,
        created,
        [{"mixed_canastas": 1, "count": 30}, {"natural_canastas": 2, "went_out": True, "count": 100}],
    )
    wifi.restore()
    page.reload()
    return created


@pytest.mark.both_databases
def test_a_hand_the_game_no_longer_takes_is_shown_as_a_conflict(page, wifi, live_server):
    created = a_hand_entered_twice(page, wifi, live_server)
    conflict = page.locator(".not-saved")
    expect(conflict).to_be_visible()
    expect(conflict.locator(".conflict-reason")).to_have_text(re.compile("The game changed while this hand waited"))
    expect(page.locator("#sync-status")).to_have_text("1 hand could not be saved: see below.")
    expect(page.locator(".total-figure")).to_have_text(["330", "1,200"])  # the server's game, as it is now
    assert len(entered(server_game(live_server, created["id"]))) == 1  # nothing dropped, nothing forced

    # Re-applied on the game as it is now: it becomes hand 2.
    conflict.get_by_role("button", name="Re-apply on the game as it is now").click()
    expect(page.locator(".not-saved")).to_have_count(0)
    expect(page.locator("#sync-status")).to_have_text("Online: every hand is saved.")
    # Us 330 + 1,250 = 1,580; Them 1,200 + 360 = 1,560.
    expect(page.locator(".total-figure")).to_have_text(["1,580", "1,560"])
    stored = entered(server_game(live_server, created["id"]))
    assert stored[1] == [{"natural_canastas": 2, "went_out": True, "count": 150}, {"mixed_canastas": 1, "count": 60}]
    assert len(stored) == 2


def test_a_conflicting_hand_can_be_discarded(page, wifi, live_server):
    created = a_hand_entered_twice(page, wifi, live_server)
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".not-saved").get_by_role("button", name="Discard it").click()
    expect(page.locator(".not-saved")).to_have_count(0)
    expect(page.locator("#sync-status")).to_have_text("Online: every hand is saved.")
    expect(page.locator(".total-figure")).to_have_text(["330", "1,200"])
    assert len(entered(server_game(live_server, created["id"]))) == 1


def test_the_rules_page_is_kept_for_reading_offline(page, wifi):
    start_game(page, wifi.url)
    keep_on_the_phone(page)
    wifi.cut()
    page.get_by_role("link", name="Rules").click()
    expect(page.locator("html")).to_have_attribute("data-served", "copy")
    expect(page.locator("h1")).not_to_have_text("No connection")


def test_scorepad_is_installable(browser_type, browser_type_launch_args, live_server, tmp_path):
    """Chromium's own installability check (DevTools protocol), in a persistent context as an installed
    app would have: the manifest, its icons and the service worker leave no error."""
    context = browser_type.launch_persistent_context(
        str(tmp_path / "profile"), **browser_type_launch_args, viewport={"width": 390, "height": 844}
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(live_server + "/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()
        assert page.evaluate("!!navigator.serviceWorker.controller")
        session = context.new_cdp_session(page)
        assert session.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()


def test_a_hand_counted_by_the_grid_or_reported_as_a_base_waits_as_the_server_reads_it(page, wifi, live_server):
    """The hand kept on the phone is read from the form as the server reads it: the counting grid's cells, a Base
    reported instead of the entries with its sign; a waiting hand opened to edit shows them again."""
    start_game(page, wifi.url)
    gid = game_id(page)
    keep_on_the_phone(page)
    wifi.cut()

    page.get_by_role("link", name="Enter hand 1").click()
    us, them = page.locator('fieldset[data-side="0"]'), page.locator('fieldset[data-side="1"]')
    us.get_by_label("Natural canastas", exact=True).fill("2")
    us.locator(".grid-toggle").click()
    us.get_by_label("Jokers melded", exact=True).fill("1")
    us.get_by_label("Aces melded", exact=True).fill("2")
    us.get_by_label("8 to K in hand", exact=True).fill("1")
    them.get_by_role("textbox", name=re.compile("^Count")).fill("60")
    them.get_by_text("More for Them").click()
    them.get_by_role("textbox", name=re.compile("^Base as reported")).fill("300")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#hand-1 .not-synced")).to_have_text("not sent yet")
    # Us: 2 naturals 1,000; Count by the grid: a joker 50 and two aces 40 melded, less a king in hand 10 = 80: 1,080.
    # Them: the Base reported, 300, and Count 60: 360.
    assert figures(page, 1) == [["1,000", "80", "1,080", "1,080"], ["300", "60", "360", "360"]]

    page.locator("#hand-1").get_by_role("link", name="Edit hand 1").click()
    expect(page.locator("h1")).to_have_text("Edit hand 1 (not sent yet)")
    expect(us.locator(".grid-toggle input")).to_be_checked()
    expect(us.get_by_label("Jokers melded", exact=True)).to_have_value("1")
    expect(us.get_by_label("8 to K in hand", exact=True)).to_have_value("1")
    # What is set under Them's "More" is said beside it, as the server says it: nothing set is out of sight.
    expect(them.locator(".more-summary")).to_have_text("Base as reported: 300")
    them.get_by_text("More for Them").click()
    reported = them.get_by_role("textbox", name=re.compile("^Base as reported"))
    expect(reported).to_have_value("300")
    them.get_by_label("Base as reported minus").check(force=True)  # it was a Base of −300
    page.get_by_role("button", name="Save changes").click()
    # Them: −300 and Count 60: −240.
    expect(page.locator("#hand-1 .hand-total").nth(1)).to_have_text(MINUS + "240")

    wifi.restore()
    page.reload()  # the queue is sent on page load
    expect(page.locator("#sync-status")).to_have_text("Online: every hand is saved.")
    assert entered(server_game(live_server, gid)) == [
        [
            {"natural_canastas": 2, "cards": {"melded": {"jokers": 1, "aces": 2}, "in_hand": {"high": 1}}},
            {"reported_base": -300, "count": 60},
        ]
    ]
