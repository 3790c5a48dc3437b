"""The scoresheet's hand rows on a phone and a tablet: what each side did beside its figures, ten hands in about
two screens at 390 x 844, and the paper grid once the screen is wide enough.

The table: Us = Ann & Cleo, Them = Bea & Dot, modern, Ann deals first.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from playwright.sync_api import Page, expect
from test_accessibility import assert_none, check

from conftest import PHONE, no_horizontal_scroll

# A busy hand for the side that went out and a costly one for the other: five and three marks a side, the most a
# real row carries. Going out: 1 red 3 + 1 black 3 = 200 (two canastas), natural 500, mixed 300, out 100: Base
# 1,100, Count 100, hand 1,200. The other: mixed 300, a player caught with three aces -1,500: Base -1,200,
# Count -50, hand -1,250. The sides take turns, so no one comes near 8,500 in ten hands.
WENT_OUT = {
    "red_threes": 1,
    "black_threes": 1,
    "natural_canastas": 1,
    "mixed_canastas": 1,
    "went_out": True,
    "count": 100,
}
CAUGHT = {"mixed_canastas": 1, "dirty_aces": 1, "count": -50}
HANDS = [{"sides": [WENT_OUT, CAUGHT] if n % 2 == 0 else [CAUGHT, WENT_OUT]} for n in range(10)]
GAME = {
    "format": "scorepad-game",
    "version": 1,
    "rules": {"preset": "modern"},
    "sides": [{"name": "Us", "players": ["Ann", "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}],
    "first_dealer": 0,
    "hands": HANDS,
}


def open_as_scorekeeper(page: Page, live_server: str) -> str:
    """Make the game through the API and take it over on this phone (its rows then carry Edit and Delete)."""
    response = page.request.post(live_server + "/api/games", data=GAME)
    assert response.status == 201, response.text()
    body = response.json()
    page.goto(body["links"]["scoresheet"])
    expect(page.locator(".flash")).to_have_text("This phone keeps score of this game now.")
    return body["id"]


def shown_marks(cell) -> list[str]:
    """The words a side's marks show on the screen (a shortened one's full words are for screen readers)."""
    return cell.locator(".mark").evaluate_all(
        "(marks) => marks.map((m) => (m.querySelector('[aria-hidden]') || m).textContent)"
    )


def test_each_row_says_what_each_side_did_and_ten_rows_fit_in_about_two_screens(page: Page, live_server: str):
    open_as_scorekeeper(page, live_server)
    first = page.locator("#hand-1")
    expect(first.get_by_role("link", name="Edit hand 1")).to_be_visible()
    us, them = first.locator('td[data-side="0"]'), first.locator('td[data-side="1"]')
    assert shown_marks(us) == ["went out", "1 natural", "1 mixed", "1 red 3", "1 black 3"]
    assert shown_marks(them) == ["1 mixed", "dirty aces"]
    # Shortened words are read in full.
    expect(them.locator(".mark-penalty .visually-hidden")).to_have_text("1 player caught with three aces")
    expect(us.locator(".base")).to_have_text("1,100")
    expect(them.locator(".hand-total")).to_have_text("\u22121,250")

    heights = [page.locator(f"#hand-{number}").bounding_box()["height"] for number in range(1, 11)]
    assert sum(heights) <= 2 * PHONE["height"], f"ten rows take {sum(heights):.0f} px: {heights}"
    # The totals on top stay large: 28 px at least.
    for size in page.locator(".big-total").evaluate_all("(totals) => totals.map((t) => getComputedStyle(t).fontSize)"):
        assert float(size.removesuffix("px")) >= 28, size
    for width in (360, 430):
        page.set_viewport_size({"width": width, "height": PHONE["height"]})
        assert no_horizontal_scroll(page), f"the sheet scrolls sideways at {width} px"


def test_a_wide_screen_shows_the_paper_grid_each_sides_figures_side_by_side(page: Page, live_server: str):
    open_as_scorekeeper(page, live_server)
    page.set_viewport_size({"width": 844, "height": 390})  # the phone turned on its side
    cell = page.locator('#hand-1 td[data-side="0"]')
    tops = [cell.locator(f".{figure}").bounding_box()["y"] for figure in ("base", "count", "hand-total", "cumulative")]
    assert max(tops) - min(tops) < 8, f"Base, Count, Hand and Total are not on one line: {tops}"
    lefts = [cell.locator(f".{figure}").bounding_box()["x"] for figure in ("base", "count", "hand-total", "cumulative")]
    assert lefts == sorted(lefts), lefts
    assert no_horizontal_scroll(page)
    # On a phone held upright they stack again, one figure a line.
    page.set_viewport_size(PHONE)
    tops = [cell.locator(f".{figure}").bounding_box()["y"] for figure in ("base", "count")]
    assert tops[1] > tops[0]


def test_the_printed_sheet_is_dated_and_names_the_rules_with_no_link_left(page: Page, live_server: str):
    open_as_scorekeeper(page, live_server)
    page.emulate_media(media="print")
    line = page.locator(".rules-line")
    expect(line).to_contain_text("Modern American rules")
    expect(line).to_contain_text(datetime.now(UTC).strftime("%-d %b %Y"))  # the day the game was made
    expect(line.get_by_role("link", name="Rules")).to_be_hidden()
    expect(page.get_by_role("link", name="Join a game")).to_have_count(0)  # not in the scorekeeper's own header


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_rows_with_special_and_penalty_marks_have_no_axe_fault(page: Page, live_server: str, scheme: str):
    """The marks' colours (special in green, penalties in red) and their hidden full words, checked by axe-core,
    on the phone and on a tablet's paper grid."""
    page.emulate_media(color_scheme=scheme)
    hands = [
        {"sides": [{"special_hand": "pairs"}, {"natural_canastas": 1, "count": 100}]},
        {"sides": [{"sevens_canasta": True, "natural_canastas": 1, "went_out": True, "count": 50}, CAUGHT]},
    ]
    response = page.request.post(live_server + "/api/games", data={**GAME, "hands": hands})
    assert response.status == 201, response.text()
    page.goto(response.json()["links"]["scoresheet"])
    # The link's key is taken by this phone and the page reloads with its rights (shell.js): axe reads that page,
    # not the first one, which the reload would pull from under it.
    expect(page.locator(".flash")).to_have_text("This phone keeps score of this game now.")
    expect(page.locator("#hand-1 .mark-special")).to_have_count(1)
    problems: list[str] = []
    check(page, scheme, problems)
    page.set_viewport_size({"width": 1024, "height": 768})
    check(page, scheme, problems)
    assert_none(problems)
