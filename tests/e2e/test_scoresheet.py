"""The scoresheet in a phone's browser, used as a scorekeeper uses it at the table.

Every expected figure is worked out by hand from docs/rules.md (modern preset);
the comment beside it shows the sum. None was copied from the page.

The table throughout: Us = Ann & Cleo, Them = Bea & Dot, Ann deals first. Seats go
clockwise one player from each side in turn: Ann, Bea, Cleo, Dot. The player on the
dealer's right (the seat before the dealer) cuts, so:
  hand 1  Ann deals, Dot cuts (Them)     hand 2  Bea deals, Ann cuts (Us)
  hand 3  Cleo deals, Bea cuts (Them)    hand 4  Dot deals, Cleo cuts (Us)
Modern 3s: 1 → 100, 2 → 300, 3 → 500, 4 → 1,000 per colour; negative with no canasta,
zero with exactly one, added with two or more. Natural canasta 500, mixed 300, going out 100,
perfect cut 100. Minimum Count: below 3,000 → 125; 3,000 to 4,995 → 155; 5,000 up → 180.
"""

from __future__ import annotations

import re
from collections import Counter
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from conftest import PHONE, no_horizontal_scroll, settled

MINUS = "\u2212"
WIDTHS = (360, 430, PHONE["width"])  # the narrowest and widest phones, then back to the usual one
TAP = 44  # px: the smallest tap target a finger hits reliably
BODY_TEXT = 16  # px


# --- Helpers --------------------------------------------------------------------------


def points(value: int) -> str:
    """A figure as a card player writes it on the sheet: 1,585 and −2,060 (a real minus sign)."""
    return f"{MINUS}{abs(value):,}" if value < 0 else f"{value:,}"


def assert_fits_the_phone(page: Page) -> None:
    """Nothing to scroll sideways at 390, 360 and 430 px wide; the page is left at 390 px."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": PHONE["height"]})
        assert no_horizontal_scroll(page), f"{page.url} scrolls sideways at {width} px"


def side_panel(page: Page, side: int) -> Locator:
    """One side's panel of the hand form (a fieldset, role group)."""
    return page.locator(f'fieldset[data-side="{side}"]')


def pick_row(panel: Locator, label: str) -> Locator:
    """A count's row of choices (0-4), where the form offers one (once the hand form is there)."""
    panel.locator(".pick").first.wait_for()
    return panel.get_by_role("radiogroup", name=re.compile(f"^{re.escape(label)}: 0 to"))


def tap_more(panel: Locator, label: str, times: int = 1) -> None:
    """`times` more of a count: one tap on its row of choices (issue 17), else a stepper's + button each time."""
    row = pick_row(panel, label)
    if row.count():
        now = int(row.locator("input:checked").get_attribute("value") or 0)
        row.get_by_role("radio", name=str(now + times), exact=True).tap()
        return
    for _ in range(times):
        panel.get_by_role("button", name=f"One more: {label}", exact=True).tap()


def tap_fewer(panel: Locator, label: str, times: int = 1) -> None:
    """`times` fewer of a count: one tap on its row of choices, else a stepper's − button each time."""
    row = pick_row(panel, label)
    if row.count():
        now = int(row.locator("input:checked").get_attribute("value") or 0)
        row.get_by_role("radio", name=str(now - times), exact=True).tap()
        return
    for _ in range(times):
        panel.get_by_role("button", name=f"One fewer: {label}", exact=True).tap()


def expect_chosen(panel: Locator, label: str, value: str) -> None:
    """A count chosen in its row of choices."""
    expect(pick_row(panel, label).get_by_role("radio", name=value, exact=True)).to_be_checked()


def switch(scope: Locator | Page, label: str) -> Locator:
    """A switch (checkbox role=switch) by the start of its label; the label also carries a hint like (+100)."""
    return scope.get_by_role("switch", name=re.compile("^" + re.escape(label)))


def turn_on(scope: Locator | Page, label: str) -> None:
    """Tap a switch's row, as a finger does (the checkbox itself is drawn invisible), and see it on."""
    page = scope if isinstance(scope, Page) else scope.page
    scope.locator(".switch label").filter(has=switch(page, label)).tap()
    expect(switch(scope, label)).to_be_checked()


def count_field(panel: Locator) -> Locator:
    """A side's Count, typed as one number (its label also says how a side with no canasta counts)."""
    return panel.get_by_role("textbox", name=re.compile("^Count"))


def type_count(panel: Locator, sign: str, number: str) -> None:
    """Count as one number: choose + or − on the sign control, then type the figure."""
    radio = panel.get_by_role("radio", name="plus" if sign == "+" else "minus", exact=True)
    radio.tap()
    expect(radio).to_be_checked()
    count_field(panel).fill(number)


def open_more(panel: Locator) -> None:
    """Open a side's "More" section (the rare entries), if it is not open already."""
    more = panel.locator("details.more")
    if more.get_attribute("open") is None:
        more.locator("summary").tap()
    expect(more).to_have_attribute("open", "")


def expect_preview(page: Page, side: int, base: int, count: int, hand: int, total: int) -> None:
    """The live preview for a side: Base and Count in its panel; hand total and running total in the bar."""
    figures = page.locator(f"#side-figures-{side}")
    expect(figures.locator(".base")).to_have_text(points(base))
    expect(figures.locator(".count")).to_have_text(points(count))
    row = page.locator(f'#preview tr[data-side="{side}"]')
    expect(row.locator("td")).to_have_text([points(hand), points(total)])


def expect_hand_row(page: Page, number: int, side: int, base: int, count: int, hand: int, total: int) -> None:
    """A row of the scoresheet grid, one side's cell."""
    cell = page.locator(f'tr#hand-{number} td[data-side="{side}"]')
    expect(cell.locator(".base")).to_have_text(points(base))
    expect(cell.locator(".count")).to_have_text(points(count))
    expect(cell.locator(".hand-total")).to_have_text(points(hand))
    expect(cell.locator(".cumulative")).to_have_text(points(total))


def expect_standings(page: Page, totals: tuple[int, int], minimum_counts: tuple[int, int], next_deal: str) -> None:
    """The big totals, each side's Minimum Count for the next hand, and who deals next."""
    for side in (0, 1):
        card = page.locator(f'.total-card[data-side="{side}"]')
        expect(card.locator(".total-figure")).to_have_text(points(totals[side]))
        expect(card.locator(".min-count-figure")).to_have_text(str(minimum_counts[side]))
    expect(page.locator(".next-deal")).to_have_text(next_deal)


def start_game(page: Page, base_url: str) -> str:
    """From the home page, a modern game: Ann & Cleo = Us, Bea & Dot = Them, Ann deals first. Its address."""
    page.goto(base_url)
    assert_fits_the_phone(page)
    page.get_by_role("link", name="Start a new game").tap()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.get_by_role("radio", name=re.compile("^Modern American")).tap()
    expect(page.get_by_role("radio", name=re.compile("^Modern American"))).to_be_checked()
    page.get_by_role("radio", name="Two partnerships (4 players)").tap()
    page.get_by_label("Side 1 name", exact=True).fill("Us")
    page.get_by_label("Player 1 of side 1", exact=True).fill("Ann")
    page.get_by_label("Player 2 of side 1", exact=True).fill("Cleo")
    page.get_by_label("Side 2 name", exact=True).fill("Them")
    page.get_by_label("Player 1 of side 2", exact=True).fill("Bea")
    page.get_by_label("Player 2 of side 2", exact=True).fill("Dot")
    page.get_by_label("Player 2 of side 2", exact=True).blur()
    # The first-dealer list follows the names typed, in seat order round the table.
    dealer = page.get_by_label("First dealer", exact=True)
    expect(dealer.locator("option")).to_have_text(["Ann (Us)", "Bea (Them)", "Cleo (Us)", "Dot (Them)"])
    dealer.select_option(label="Ann (Us)")
    expect(page.locator("#game_rules").get_by_label("Points to win", exact=True)).to_have_value("8500")
    assert_fits_the_phone(page)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.get_by_role("heading", name="Us v Them")).to_be_visible()
    return page.url


def enter_the_example_hand(page: Page) -> None:
    """docs/rules.md's example as hand 1: Us 2 red 3s, a natural and a mixed canasta, went out, Count 385;
    Them one mixed canasta, Count 140."""
    page.get_by_role("link", name="Enter hand 1").tap()
    us, them = side_panel(page, 0), side_panel(page, 1)
    tap_more(us, "Red 3s", 2)
    tap_more(us, "Natural canastas")
    tap_more(us, "Mixed canastas")
    turn_on(us, "Went out")
    type_count(us, "+", "385")
    tap_more(them, "Mixed canastas")
    type_count(them, "+", "140")
    page.get_by_role("button", name="Save hand 1").tap()
    expect(page.locator("#hand-1")).to_be_visible()


def assert_error_beside(field: Locator, error: Locator, field_box: Locator) -> None:
    """The message is tied to its field (aria-describedby) and shown right under it, in the same row."""
    error_id = error.get_attribute("id")
    expect(field).to_have_attribute("aria-describedby", error_id)
    expect(error).to_be_visible()
    error.scroll_into_view_if_needed()
    above, message = field_box.bounding_box(), error.bounding_box()
    assert above is not None and message is not None
    gap = message["y"] - (above["y"] + above["height"])
    assert -1 <= gap <= 24, f"#{error_id} is {gap:.0f} px from its field"


@contextmanager
def fresh_context(browser: Browser, browser_context_args: dict, **overrides):
    """A new browser profile (no cookies: not the scorekeeper's phone) at the same phone size."""
    context = browser.new_context(**{**browser_context_args, **overrides})
    try:
        yield context.new_page()
    finally:
        context.close()


# --- The scorekeeper's evening ---------------------------------------------------------------


@pytest.mark.both_databases
def test_a_scorekeeper_enters_corrects_and_deletes_hands(page: Page, live_server: str):
    """New game, three hands (typed Count, counting grid, a refused entry put right), an edit, a delete."""
    game_url = start_game(page, live_server)
    expect(page.get_by_text("No hands yet.")).to_be_visible()
    expect_standings(page, (0, 0), (125, 125), "Hand 1: Ann deals · playing to 8,500")
    assert_fits_the_phone(page)

    # --- Hand 1: Count typed as one number, steppers for 3s and canastas, a negative Count with the sign control.
    page.get_by_role("link", name="Enter hand 1").tap()
    expect(page.get_by_role("heading", name="Hand 1")).to_be_visible()
    expect(page.locator(".hand-info")).to_have_text("Ann deals, Dot cuts · Minimum Count Us 125, Them 125")
    assert_fits_the_phone(page)
    us, them = side_panel(page, 0), side_panel(page, 1)
    tap_more(us, "Red 3s", 2)
    expect_chosen(us, "Red 3s", "2")
    tap_more(us, "Natural canastas")
    tap_more(us, "Mixed canastas", 2)
    tap_fewer(us, "Mixed canastas")  # one tap too many, taken back
    expect_chosen(us, "Mixed canastas", "1")
    turn_on(us, "Went out")
    type_count(us, "+", "385")
    tap_more(them, "Red 3s")
    type_count(them, "-", "60")
    # Us:   Base = 2 red 3s 300 (two canastas: added) + natural 500 + mixed 300 + going out 100 = 1,200;
    #       Count 385; hand 1,200 + 385 = 1,585; total 0 + 1,585 = 1,585.
    # Them: Base = 1 red 3 100, no canasta so subtracted = −100; Count −60; hand −160; total −160.
    expect_preview(page, 0, base=1_200, count=385, hand=1_585, total=1_585)
    expect_preview(page, 1, base=-100, count=-60, hand=-160, total=-160)
    page.get_by_role("button", name="Save hand 1").tap()

    expect(page.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible()
    expect(page.locator("#hand-1 .dealer")).to_have_text("Ann dealt")
    expect_hand_row(page, 1, 0, base=1_200, count=385, hand=1_585, total=1_585)
    expect_hand_row(page, 1, 1, base=-100, count=-60, hand=-160, total=-160)
    expect_standings(page, (1_585, -160), (125, 125), "Hand 2: Bea deals · playing to 8,500")
    assert_fits_the_phone(page)

    # --- Hand 2: Us count through the counting grid; Us cut (Ann), and the cut was perfect.
    page.get_by_role("link", name="Enter hand 2").tap()
    expect(page.get_by_role("heading", name="Hand 2")).to_be_visible()
    expect(page.locator(".hand-info")).to_have_text("Bea deals, Ann cuts · Minimum Count Us 125, Them 125")
    us, them = side_panel(page, 0), side_panel(page, 1)
    # Ann cut, so the perfect-cut switch is with Us, under "More" (it is rare).
    expect(them.get_by_role("switch", name=re.compile("^Perfect cut"))).to_have_count(0)
    open_more(us)
    expect(us.locator("details.more")).to_contain_text("+100, exactly 52 cards: Ann cut")
    turn_on(us, "Perfect cut")
    expect(us.locator(".more-summary")).to_have_text("Perfect cut")
    tap_more(us, "Black 3s", 2)
    tap_more(us, "Natural canastas", 2)
    tap_more(us, "Mixed canastas")
    us.locator(".grid-toggle").tap()
    expect(us.get_by_role("checkbox", name="Count with the grid")).to_be_checked()
    expect(count_field(us)).to_be_hidden()
    for label, number in (
        ("Jokers melded", "2"),
        ("2s melded", "3"),
        ("Aces melded", "5"),
        ("8 to K melded", "20"),
        ("4 to 7 melded", "8"),
        ("2s in hand", "1"),
        ("8 to K in hand", "2"),
        ("4 to 7 in hand", "1"),
    ):
        us.get_by_label(label, exact=True).fill(number)
    assert_fits_the_phone(page)
    tap_more(them, "Red 3s")
    tap_more(them, "Natural canastas")
    tap_more(them, "Mixed canastas", 2)
    turn_on(them, "Went out")
    type_count(them, "+", "250")
    # Us:   melded 2 jokers 100 + 3 twos 60 + 5 aces 100 + twenty 8–K 200 + eight 4–7 40 = 500;
    #       in hand one 2 20 + two 8–K 20 + one 4–7 5 = 45; Count 500 − 45 = 455.
    #       Base = 2 black 3s 300 (three canastas: added) + 2 natural 1,000 + mixed 300 + perfect cut 100 = 1,700;
    #       hand 1,700 + 455 = 2,155; total 1,585 + 2,155 = 3,740.
    # Them: Base = 1 red 3 100 (three canastas: added) + natural 500 + 2 mixed 600 + going out 100 = 1,300;
    #       Count 250; hand 1,550; total −160 + 1,550 = 1,390.
    expect_preview(page, 0, base=1_700, count=455, hand=2_155, total=3_740)
    expect_preview(page, 1, base=1_300, count=250, hand=1_550, total=1_390)
    page.get_by_role("button", name="Save hand 2").tap()

    expect(page.locator("#hand-2 .dealer")).to_have_text("Bea dealt")
    expect_hand_row(page, 2, 0, base=1_700, count=455, hand=2_155, total=3_740)
    expect_hand_row(page, 2, 1, base=1_300, count=250, hand=1_550, total=1_390)
    # Us 3,740 is in 3,000–4,995 → 155; Them 1,390 is below 3,000 → 125.
    expect_standings(page, (3_740, 1_390), (155, 125), "Hand 3: Cleo deals · playing to 8,500")
    assert_fits_the_phone(page)

    # --- Hand 3: first entered wrong (Us went out with one canasta; Them's Count not a multiple of 5).
    page.get_by_role("link", name="Enter hand 3").tap()
    expect(page.locator(".hand-info")).to_have_text("Cleo deals, Bea cuts · Minimum Count Us 155, Them 125")
    us, them = side_panel(page, 0), side_panel(page, 1)
    tap_more(us, "Red 3s")
    tap_more(us, "Natural canastas")
    turn_on(us, "Went out")
    type_count(us, "+", "150")
    tap_more(them, "Black 3s", 2)
    tap_more(them, "Natural canastas")
    type_count(them, "+", "123")

    going_out_error = page.locator("#s0-went_out-error")
    count_error = page.locator("#s1-count-error")
    # The live preview flags each problem beside its field, and shows no figures.
    expect(going_out_error).to_have_text("Going out needs two closed canastas.")
    expect(count_error).to_have_text("The Count must be a multiple of 5.")
    # Beside Save, the first problem and how many more are marked above.
    expect(page.locator("#preview")).to_contain_text("Going out needs two closed canastas. (and 1 more, marked above)")
    expect(page.locator("#preview table")).to_have_count(0)
    assert_error_beside(
        switch(us, "Went out"), going_out_error, us.locator(".switch label").filter(has=switch(page, "Went out"))
    )
    assert_error_beside(count_field(them), count_error, them.locator(".count-number"))

    # Save anyway: the form comes back (422) with the messages, and with everything that was typed.
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/hands")) as saved:
        page.get_by_role("button", name="Save hand 3").tap()
    assert saved.value.status == 422
    expect(page.get_by_role("heading", name="Hand 3")).to_be_visible()
    us, them = side_panel(page, 0), side_panel(page, 1)
    expect(going_out_error).to_have_text("Going out needs two closed canastas.")
    expect(count_error).to_have_text("The Count must be a multiple of 5.")
    expect(switch(us, "Went out")).to_have_attribute("aria-invalid", "true")
    expect(count_field(them)).to_have_attribute("aria-invalid", "true")
    expect_chosen(us, "Red 3s", "1")
    expect_chosen(us, "Natural canastas", "1")
    expect(switch(us, "Went out")).to_be_checked()
    expect(us.get_by_role("radio", name="plus", exact=True)).to_be_checked()
    expect(count_field(us)).to_have_value("150")
    expect_chosen(them, "Black 3s", "2")
    expect_chosen(them, "Natural canastas", "1")
    expect(count_field(them)).to_have_value("123")
    assert_fits_the_phone(page)

    # Put it right: Us had a mixed canasta too; Them's Count was 125.
    tap_more(us, "Mixed canastas")
    count_field(them).fill("125")
    expect(going_out_error).to_be_empty()
    expect(count_error).to_be_empty()
    # Us:   Base = 1 red 3 100 (two canastas: added) + natural 500 + mixed 300 + going out 100 = 1,000;
    #       Count 150; hand 1,150; total 3,740 + 1,150 = 4,890.
    # Them: Base = 2 black 3s with exactly one canasta count 0 + natural 500 = 500 (no perfect cut);
    #       Count 125; hand 625; total 1,390 + 625 = 2,015.
    expect_preview(page, 0, base=1_000, count=150, hand=1_150, total=4_890)
    expect_preview(page, 1, base=500, count=125, hand=625, total=2_015)
    page.get_by_role("button", name="Save hand 3").tap()

    expect(page.locator("#hand-3 .dealer")).to_have_text("Cleo dealt")
    expect_hand_row(page, 3, 0, base=1_000, count=150, hand=1_150, total=4_890)
    expect_hand_row(page, 3, 1, base=500, count=125, hand=625, total=2_015)
    # Us 4,890 → 155 (below 5,000); Them 2,015 → 125.
    expect_standings(page, (4_890, 2_015), (155, 125), "Hand 4: Dot deals · playing to 8,500")

    # --- Edit hand 1: Us had one red 3, not two.
    page.locator("#hand-1").get_by_role("link", name="Edit hand 1").tap()
    expect(page.get_by_role("heading", name="Edit hand 1")).to_be_visible()
    assert_fits_the_phone(page)
    us, them = side_panel(page, 0), side_panel(page, 1)
    # The form holds hand 1 as it was saved.
    expect_chosen(us, "Red 3s", "2")
    expect_chosen(us, "Natural canastas", "1")
    expect_chosen(us, "Mixed canastas", "1")
    expect(switch(us, "Went out")).to_be_checked()
    expect(count_field(us)).to_have_value("385")
    expect_chosen(them, "Red 3s", "1")
    expect(them.get_by_role("radio", name="minus", exact=True)).to_be_checked()
    expect(count_field(them)).to_have_value("60")
    tap_fewer(us, "Red 3s")
    # Us: Base = 1 red 3 100 + natural 500 + mixed 300 + going out 100 = 1,000; Count 385; hand 1,385; total 1,385.
    expect_preview(page, 0, base=1_000, count=385, hand=1_385, total=1_385)
    expect_preview(page, 1, base=-100, count=-60, hand=-160, total=-160)
    page.get_by_role("button", name="Save changes").tap()

    expect(page.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible()
    expect_hand_row(page, 1, 0, base=1_000, count=385, hand=1_385, total=1_385)
    expect_hand_row(page, 1, 1, base=-100, count=-60, hand=-160, total=-160)
    # The later running totals follow: Us 1,385 + 2,155 = 3,540, then 3,540 + 1,150 = 4,690; Them unchanged.
    expect_hand_row(page, 2, 0, base=1_700, count=455, hand=2_155, total=3_540)
    expect_hand_row(page, 2, 1, base=1_300, count=250, hand=1_550, total=1_390)
    expect_hand_row(page, 3, 0, base=1_000, count=150, hand=1_150, total=4_690)
    expect_hand_row(page, 3, 1, base=500, count=125, hand=625, total=2_015)
    # Us 4,690 → 155; Them 2,015 → 125.
    expect_standings(page, (4_690, 2_015), (155, 125), "Hand 4: Dot deals · playing to 8,500")
    assert_fits_the_phone(page)

    # --- Delete hand 3, after the confirmation page.
    page.locator("#hand-3").get_by_role("link", name="Delete hand 3").tap()
    expect(page.get_by_role("heading", name="Delete hand 3?")).to_be_visible()
    # Hand 3 scored Us 1,150 (Base 1,000, Count 150) and Them 625 (Base 500, Count 125), worked out above.
    expect(page.locator(".deleted-figures li")).to_have_text(
        ["Us 1,150 (Base 1,000, Count 150)", "Them 625 (Base 500, Count 125)"]
    )
    expect(page.get_by_role("link", name="Keep it")).to_be_visible()
    assert_fits_the_phone(page)
    page.get_by_role("button", name="Delete hand 3").tap()

    expect(page.get_by_role("status").filter(has_text="Hand 3 deleted.")).to_be_visible()
    expect(page.locator("#hand-3")).to_have_count(0)
    expect_hand_row(page, 2, 0, base=1_700, count=455, hand=2_155, total=3_540)
    expect_hand_row(page, 2, 1, base=1_300, count=250, hand=1_550, total=1_390)
    # Back to the totals after hand 2: Us 3,540 → 155, Them 1,390 → 125; Cleo deals hand 3 again.
    expect_standings(page, (3_540, 1_390), (155, 125), "Hand 3: Cleo deals · playing to 8,500")
    expect(page.locator("#hand-2").get_by_role("link", name="Delete hand 2")).to_be_visible()
    expect(page.get_by_role("link", name="Enter hand 3")).to_be_visible()
    assert page.url.split("#")[0] == game_url
    assert_fits_the_phone(page)


# --- Sharing ---------------------------------------------------------------------------


def test_the_scoreboard_link_is_read_only_with_the_same_figures(
    page: Page, live_server: str, browser: Browser, browser_context_args: dict
):
    """Another player opens the scoreboard link on her own phone: the same figures, nothing to change."""
    start_game(page, live_server)
    enter_the_example_hand(page)
    scoreboard_url = live_server + page.get_by_role("link", name="Scoreboard link").get_attribute("href")
    game_url = page.url.split("#")[0]

    with fresh_context(browser, browser_context_args) as other_phone:
        other_phone.goto(scoreboard_url)
        expect(other_phone.get_by_role("heading", name="Us v Them")).to_be_visible()
        # docs/rules.md's example. Us: Base 2 red 3s 300 + natural 500 + mixed 300 + going out 100 = 1,200;
        # Count 385; total 1,585. Them: Base 300 (one canasta: 3s count zero, none here); Count 140; total 440.
        expect_hand_row(other_phone, 1, 0, base=1_200, count=385, hand=1_585, total=1_585)
        expect_hand_row(other_phone, 1, 1, base=300, count=140, hand=440, total=440)
        expect_standings(other_phone, (1_585, 440), (125, 125), "Hand 2: Bea deals · playing to 8,500")
        expect(other_phone.get_by_role("link", name=re.compile(r"^(Edit|Delete)"))).to_have_count(0)
        expect(other_phone.get_by_role("link", name=re.compile("^Enter hand"))).to_have_count(0)
        assert_fits_the_phone(other_phone)

        # The scorekeeper's own address, opened on another phone, is read-only too, and says so.
        other_phone.goto(game_url)
        expect(other_phone.get_by_text("Read-only: only the scorekeeper's phone can change this game.")).to_be_visible()
        expect(other_phone.get_by_role("link", name=re.compile(r"^(Edit|Delete|Enter hand)"))).to_have_count(0)
        expect(other_phone.locator(".total-figure")).to_have_text([points(1_585), points(440)])
        response = other_phone.goto(game_url + "/hands/new")
        assert response is not None and response.status == 403
        expect(other_phone.locator("main")).to_contain_text("Only the scorekeeper's phone can change this game.")


# --- Without JavaScript ------------------------------------------------------------------------


def test_a_hand_is_saved_with_javascript_off(live_server: str, browser: Browser, browser_context_args: dict):
    """With JavaScript off, the forms post normally: a game starts, a wrong hand comes back, a right one saves."""
    with fresh_context(browser, browser_context_args, java_script_enabled=False) as page:
        page.goto(live_server + "/games/new")
        page.get_by_label("Player 1 of side 1", exact=True).fill("Ann")
        page.get_by_label("Player 2 of side 1", exact=True).fill("Cleo")
        page.get_by_label("Player 1 of side 2", exact=True).fill("Bea")
        page.get_by_label("Player 2 of side 2", exact=True).fill("Dot")
        # Without the script the dealer list cannot follow the names typed: Ann is player 1 of side 1.
        page.get_by_label("First dealer", exact=True).select_option(label="Player 1 of side 1 (Us)")
        page.get_by_role("button", name="Start the game").tap()
        expect(page.get_by_role("heading", name="Us v Them")).to_be_visible()
        expect(page.locator(".next-deal")).to_have_text("Hand 1: Ann deals · playing to 8,500")

        page.get_by_role("link", name="Enter hand 1").tap()
        us, them = side_panel(page, 0), side_panel(page, 1)
        # No script, so the steppers' buttons do nothing: the numbers are typed, or chosen in their row (the 3s: all
        # two decks hold is in the row).
        us.get_by_role("radiogroup", name="Red 3s: 0 to 4").get_by_role("radio", name="2").tap()
        us.get_by_label("Natural canastas", exact=True).fill("1")
        turn_on(us, "Went out")
        type_count(us, "+", "385")
        them.get_by_label("Mixed canastas", exact=True).fill("1")
        type_count(them, "+", "140")

        # Saved with one canasta: the page comes back with the message beside the switch and the entries kept.
        with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/hands")) as saved:
            page.get_by_role("button", name="Save hand 1").tap()
        assert saved.value.status == 422
        us, them = side_panel(page, 0), side_panel(page, 1)
        expect(page.locator("#s0-went_out-error")).to_have_text("Going out needs two closed canastas.")
        expect_chosen(us, "Red 3s", "2")
        expect(count_field(us)).to_have_value("385")
        expect(count_field(them)).to_have_value("140")
        expect(switch(us, "Went out")).to_be_checked()

        us.get_by_label("Mixed canastas", exact=True).fill("1")
        # "Check the figures" (shown only without a script) posts the form for the preview.
        page.get_by_role("button", name="Check the figures").tap()
        # docs/rules.md's example: Us Base 300 + 500 + 300 + 100 = 1,200, Count 385, total 1,585;
        # Them Base 300 (one canasta: 3s zero, none anyway), Count 140, total 440.
        expect_preview(page, 0, base=1_200, count=385, hand=1_585, total=1_585)
        expect_preview(page, 1, base=300, count=140, hand=440, total=440)
        page.get_by_role("button", name="Save hand 1").tap()

        expect(page.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible()
        expect_hand_row(page, 1, 0, base=1_200, count=385, hand=1_585, total=1_585)
        expect_hand_row(page, 1, 1, base=300, count=140, hand=440, total=440)
        expect_standings(page, (1_585, 440), (125, 125), "Hand 2: Bea deals · playing to 8,500")


# --- Fingers and eyes ------------------------------------------------------------------------------

# Text that is not at least BODY_TEXT px: every visible text node outside <small> (small print by
# definition) and visually hidden labels, with its element and size.
SMALL_TEXT_JS = """(minimum) => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim();
    const element = walker.currentNode.parentElement;
    if (!text || element.closest('small, .visually-hidden, noscript, option')) continue;
    if (!element.checkVisibility({visibilityProperty: true})) continue;
    const box = element.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;
    const size = parseFloat(getComputedStyle(element).fontSize);
    if (size < minimum) {
      const where = `${element.tagName.toLowerCase()}.${element.className}`;
      found.push(`"${text.slice(0, 30)}" (${where}) ${size} px`);
    }
  }
  return found;
}"""


def too_small(page: Page, locator: Locator, what: str) -> list[str]:
    """The tap targets among `locator` that are less than TAP px tall, described for the failure message."""
    found = []
    for i in range(locator.count()):
        target = locator.nth(i)
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        assert box is not None, f"{what} {i} is not on screen"
        if box["height"] < TAP:
            name = (target.get_attribute("aria-label") or target.inner_text()).strip()
            found.append(f"/{page.url.split('/', 3)[-1]}: {what} {name!r} is {box['height']:.1f} px tall")
    return found


def listed(problems: list[str]) -> str:
    """Problems one a line, repeats counted."""
    return "\n".join(f"{problem} (×{n})" if n > 1 else problem for problem, n in Counter(problems).items())


def test_tap_targets_are_big_enough_for_a_finger(page: Page, live_server: str):
    """Steppers, switches, the +/− and number/grid choices and the main buttons are at least 44 px tall."""
    start_game(page, live_server)
    problems = too_small(page, page.get_by_role("link", name="Enter hand 1"), "button")
    enter_the_example_hand(page)
    problems += too_small(page, page.locator("#hand-1 .row-action"), "row link")
    page.get_by_role("link", name="Enter hand 2").tap()
    expect(page.get_by_role("heading", name="Hand 2")).to_be_visible()
    for side in (0, 1):
        open_more(side_panel(page, side))  # the rare entries too
    steppers = page.locator("button.step")
    # − and + for the two dirty-player counts under More on each side's panel (the 3s and canastas are rows of
    # choices; modern counts a 3 left in hand in the Count, so it has no stepper).
    assert steppers.count() == 2 * 2 * 2
    problems += too_small(page, steppers, "stepper")
    for step in (steppers.first, steppers.last):
        box = step.bounding_box()
        assert box is not None and box["width"] >= TAP, f"stepper {step.get_attribute('aria-label')} is too narrow"
    problems += too_small(page, page.locator(".switch label"), "switch")
    problems += too_small(page, page.locator(".segmented label"), "+/− or number/grid choice")
    problems += too_small(page, page.locator(".save-hand, .cancel-hand, .grid-toggle, details.more summary"), "button")
    page.get_by_role("link", name="Cancel").tap()
    page.locator("#hand-1").get_by_role("link", name="Delete hand 1").tap()
    expect(page.get_by_role("heading", name="Delete hand 1?")).to_be_visible()
    problems += too_small(page, page.locator("form.actions .button"), "button")
    page.goto(live_server + "/games/new")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.get_by_text("Special hands allowed, and their points").tap()
    expect(page.get_by_role("switch", name="Seven pairs", exact=True)).to_be_visible()
    problems += too_small(page, page.locator(".new-game .switch label"), "switch")
    problems += too_small(page, page.get_by_role("button", name="Start the game"), "button")
    assert not problems, "Too small to tap:\n" + listed(problems)


def test_body_text_is_at_least_16px(page: Page, live_server: str):
    """Every page's running text is 16 px or more (small print in <small> aside)."""
    start_game(page, live_server)
    enter_the_example_hand(page)
    settled(page)  # before leaving the sheet: a slow Save's reload must not abort the next page's load
    game_url = page.url.split("#")[0]
    expect(page.locator("body")).to_have_css("font-size", "16px")
    problems = []
    for path in ("/", "/games/new"):
        page.goto(live_server + path)
        if path == "/games/new":  # the special hands and their points, as the scorekeeper opens them
            page.get_by_text("Special hands allowed, and their points").tap()
            expect(page.get_by_role("switch", name="Seven pairs", exact=True)).to_be_visible()
        problems += [f"{path}: {p}" for p in page.evaluate(SMALL_TEXT_JS, BODY_TEXT)]
    for path in ("", "/hands/new", "/hands/1/edit", "/hands/1/delete", "/scoreboard"):
        page.goto(game_url + path)
        problems += [f"/games/<id>{path}: {p}" for p in page.evaluate(SMALL_TEXT_JS, BODY_TEXT)]
    assert not problems, "Text under 16 px:\n" + listed(problems)


# --- What a scorekeeper sees after an entry --------------------------------------------------------


def test_the_live_check_marks_the_field_at_fault_in_red(page: Page, live_server: str):
    """The live check marks the field at fault (aria-invalid, red border) as a refused Save does, and says it
    beside Save."""
    start_game(page, live_server)
    page.get_by_role("link", name="Enter hand 1").tap()
    them = side_panel(page, 1)
    tap_more(them, "Natural canastas")
    type_count(them, "+", "123")
    expect(page.locator("#s1-count-error")).to_have_text("The Count must be a multiple of 5.")
    expect(page.locator("#preview")).to_have_text("The Count must be a multiple of 5.")
    expect(count_field(them)).to_have_attribute("aria-invalid", "true")


def test_a_field_put_right_after_a_refused_save_loses_its_red_mark(page: Page, live_server: str):
    """After a refused Save the field is marked; once the live check accepts the new entry, the mark goes."""
    start_game(page, live_server)
    page.get_by_role("link", name="Enter hand 1").tap()
    them = side_panel(page, 1)
    tap_more(them, "Natural canastas")
    type_count(them, "+", "123")
    page.get_by_role("button", name="Save hand 1").tap()
    # The phone says so as the Count is typed; the server's answer to Save (the form again) is waited for.
    expect(page.locator("form.hand-form")).not_to_have_attribute("data-saving", "true")
    expect(page.locator("#s1-count-error")).to_have_text("The Count must be a multiple of 5.")
    them = side_panel(page, 1)
    count = count_field(them)
    expect(count).to_have_attribute("aria-invalid", "true")
    count.fill("125")
    # Them: Base natural 500 (no 3s); Count 125; hand 625; total 625.
    expect_preview(page, 1, base=500, count=125, hand=625, total=625)
    expect(page.locator("#s1-count-error")).to_be_empty()
    expect(count).not_to_have_attribute("aria-invalid", "true")
    untouched = them.get_by_label("Black 3s", exact=True).evaluate("el => getComputedStyle(el).borderColor")
    expect(count).to_have_css("border-color", untouched)  # the grey of a field with no fault, not red


def test_after_saving_a_hand_the_confirmation_and_next_minimum_counts_are_in_sight(page: Page, live_server: str):
    """Save lands where the scorekeeper reads "Hand N saved." and announces the Minimum Counts and the next dealer."""
    start_game(page, live_server)
    enter_the_example_hand(page)
    for number in (2, 3):
        page.get_by_role("link", name=f"Enter hand {number}").tap()
        type_count(side_panel(page, 1), "-", "50")
        page.get_by_role("button", name=f"Save hand {number}").tap()
        expect(page.locator(f"#hand-{number}")).to_be_attached()  # saved: the sheet opens at its top, below
    # Them: hand 1 440 (docs/rules.md's example), then a Count of −50 twice: 440 − 50 − 50 = 340.
    expect(page.locator(".total-figure")).to_have_text([points(1_585), points(340)])
    out_of_sight = []
    for what, locator in (
        ("the 'Hand 3 saved.' message", page.get_by_role("status").filter(has_text="Hand 3 saved.")),
        ("the totals", page.locator(".total-figure").first),
        ("the Minimum Counts", page.locator(".min-count").first),
        ("who deals next", page.locator(".next-deal")),
    ):
        box = locator.bounding_box()
        assert box is not None
        if box["y"] < 0 or box["y"] + box["height"] > PHONE["height"]:
            out_of_sight.append(f"{what} (top at {box['y']:.0f} px)")
    assert not out_of_sight, "Off screen after Save: " + ", ".join(out_of_sight)
