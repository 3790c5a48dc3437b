"""The hand form with no connection (static/js/offline.js): the live preview worked out on the phone, and
the rare entries ("More") on the form of a game started offline.

The phone reaches the server through `wifi` (conftest), a relay the test cuts for real. Figures are worked
out by hand from docs/rules.md, modern preset: Us = Ann & Cleo, Them = Bea & Dot; seats Ann, Bea, Cleo,
Dot; Ann deals hand 1.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_offline_new_game import games_on_the_server, on_the_phone_from_the_start
from test_offline_queue import entered, figures, keep_on_the_phone, server_game

from scorepad import rules

from conftest import name_the_players, start_game


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """These tests need the service worker that the other browser tests block."""
    return {**browser_context_args, "service_workers": "allow"}


def side(page: Page, s: int):
    return page.locator(f'fieldset[data-side="{s}"]')


def test_offline_the_hand_form_works_out_each_sides_base_and_count_on_the_phone(page, wifi):
    start_game(page, wifi.url)
    keep_on_the_phone(page)
    wifi.cut()
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("h1")).to_have_text("Hand 1")

    us, them = side(page, 0), side(page, 1)
    # Them: 1 mixed canasta and went out: going out takes two canastas (docs/rules.md, Going out).
    them.get_by_label("Mixed canastas", exact=True).fill("1")
    them.get_by_label("Went out").check(force=True)
    expect(page.locator("#s1-went_out-error")).to_contain_text("canastas")
    expect(page.locator("#side-figures-1")).to_be_empty()
    expect(page.locator("#preview .preview-problem")).to_contain_text("canastas")

    them.get_by_label("Went out").uncheck(force=True)
    them.get_by_role("textbox", name=re.compile("^Count")).fill("60")
    us.get_by_label("Natural canastas", exact=True).fill("2")
    us.get_by_role("radiogroup", name="Red 3s: 0 to 4").get_by_role("radio", name="1").tap()  # all 3s there can be
    us.get_by_label("Went out").check(force=True)
    us.get_by_role("textbox", name=re.compile("^Count")).fill("150")
    # Us: 2 naturals 1,000 + 1 red 3 100 (two canastas: added) + out 100 = Base 1,200, Count 150: 1,350.
    expect(page.locator("#side-figures-0 .base")).to_have_text("1,200")
    expect(page.locator("#side-figures-0 .count")).to_have_text("150")
    # Them: 1 mixed 300 = Base 300, Count 60: 360.
    expect(page.locator("#side-figures-1 .base")).to_have_text("300")
    expect(page.locator("#side-figures-1 .count")).to_have_text("60")
    expect(page.locator("#s1-went_out-error")).to_be_empty()
    # The bar: each side's hand and (first hand) its total.
    expect(page.locator("#preview .hand-total")).to_have_text(["1,350", "360"])
    expect(page.locator("#preview .cumulative")).to_have_text(["1,350", "360"])
    expect(page.locator("#sync-status")).to_have_text("No connection.")  # the server's preview got no answer
    # The hand can still be kept on the phone with those figures.
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#hand-1 .not-synced")).to_have_text("not sent yet")
    assert figures(page, 1) == [["1,200", "150", "1,350", "1,350"], ["300", "60", "360", "360"]]


def test_a_game_started_offline_takes_the_rare_entries_under_more(page, wifi, live_server, database_uri):
    on_the_phone_from_the_start(page, wifi.url)
    wifi.cut()
    page.goto(wifi.url + "/games/new")  # from the phone: no connection
    name_the_players(page)
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/offline/game#local-"))

    us, them = side(page, 0), side(page, 1)
    # Two sides play two decks: 4 red 3s and 4 black 3s at most, all in their rows of 0 to 4 (no box for "5+").
    for name in ("red_threes", "black_threes"):
        expect(
            us.get_by_role("radiogroup", name=re.compile(f"^{name.split('_')[0].title()} 3s: 0 to 4$"))
        ).to_be_visible()
        expect(us.locator(f'[name="s0-{name}"]')).to_have_count(1)
        expect(us.locator(f'[name="s0-{name}"]')).to_be_hidden()
    expect(us.locator('[name="s0-natural_canastas"]')).to_be_visible()  # 5 and more canastas can be
    us.get_by_text("More for Us").click()
    more = us.locator("details.more")
    # Modern: the special canastas, unfinished melds and dirty players are worth something; a 3 left in
    # hand is a card of the Count (docs/rules.md, 3s left in hand), so there is no "3s left in hand".
    expect(us.get_by_label("Sevens canasta (+2,500)")).to_be_visible()  # an everyday switch, as on the form online
    expect(more.get_by_label("Sevens canasta (+2,500)")).to_have_count(0)
    expect(more.get_by_label("Players dirty with 7s (\u22121,500 each)")).to_be_visible()
    # The wild-card canastas and the special hands: one tap each, where they are shown (as on the form online), each
    # with what it is worth in this game (modern: seven 2s 3,000; Seven pairs 2,500; no Miami pairs).
    wild = us.get_by_role("radiogroup", name="Wild-card canasta")
    expect(wild).to_be_visible()
    expect(more.get_by_role("radiogroup")).to_have_count(0)
    expect(wild.get_by_role("radio")).to_have_count(len(rules.WILD_CANASTA_KINDS) + 1)  # None, and each kind
    expect(wild.locator(".chip").filter(has_text="seven 2s")).to_have_text("seven 2s (3,000)")
    hands = us.get_by_role("radiogroup", name="Special hand")
    expect(hands.locator(".chip").filter(has_text="Seven pairs")).to_have_text("Seven pairs (2,500)")
    expect(hands.locator(".chip").filter(has_text="Miami pairs")).to_have_count(0)
    expect(more.get_by_label(re.compile("^3s left in hand"))).to_have_count(0)
    expect(more.get_by_label(re.compile("^Melded this hand"))).to_have_count(0)  # classic only

    us.get_by_label("Natural canastas", exact=True).fill("1")
    us.get_by_label("Sevens canasta (+2,500)").check(force=True)
    us.get_by_label("Went out").check(force=True)
    us.get_by_role("textbox", name=re.compile("^Count")).fill("100")
    # Them: one mixed canasta; melded 80, in hand 20 and one 3 (a card: 5), Count 80 - 25 = 55.
    them.get_by_label("Mixed canastas", exact=True).fill("1")
    them.get_by_role("textbox", name=re.compile("^Count")).fill("55")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#hand-1 .not-synced")).to_have_text("not sent yet")

    # Us: 1 natural 500 + sevens 2,500 + out 100 = Base 3,100, Count 100: 3,200.
    # Them: 1 mixed 300, no 3s exposed = Base 300, Count 55: 355.
    assert figures(page, 1) == [["3,100", "100", "3,200", "3,200"], ["300", "55", "355", "355"]]
    # Us at 3,200 need 155 (3,000 to 4,995); Them at 355 need 125.
    expect(page.locator(".min-count-figure")).to_have_text(["155", "125"])
    expect(us.locator(".more-summary")).to_have_text("")  # the form is ready for hand 2

    wifi.restore()
    page.reload()  # the game, then its hand, reach the server; its own scoresheet opens
    expect(page).to_have_url(re.compile(r"/games/[^/#]+$"))
    expect(page.locator(".not-synced")).to_have_count(0)
    games = games_on_the_server(database_uri)
    assert len(games) == 1
    stored = server_game(live_server, games[0])
    assert entered(stored) == [
        [
            {"natural_canastas": 1, "sevens_canasta": True, "went_out": True, "count": 100},
            {"mixed_canastas": 1, "count": 55},
        ],
    ]
    assert stored["totals"] == [3200, 355]


def test_the_offline_hand_forms_labels_are_the_rules_own(page, live_server):
    """templates/offline_game.html draws every entry a game can have, with its label written in: rules.py's."""
    page.goto(live_server + "/offline/game")
    labels = page.evaluate("""() => {
        const fields = document.getElementById('offline-hand-fields').content;
        const inputs = fields.querySelectorAll('input[id^="s0-"], #perfect_cut');
        const rows = fields.querySelectorAll('.choice-row-label[id^="s0-"]');  // a row of named choices, one tap each
        return Object.fromEntries([...inputs].map((input) => {
            const label = fields.querySelector(`[for="${input.id}"]`);
            const words = (label.querySelector('.switch-label') || label).cloneNode(true);
            words.querySelectorAll('small').forEach((hint) => hint.remove());  // what it is worth, filled in
            return [input.id.replace(/^s0-/, ''), words.textContent.trim()];
        }).concat([...rows].map((row) => [row.id.replace(/^s0-|-label$/g, ''), row.textContent.trim()])));
    }""")
    offered = [name for name in rules.FIELD_LABELS if name not in ("reported_base", "cards")]
    assert labels == {name: rules.FIELD_LABELS[name] for name in offered}
