"""axe-core finds no fault on any page, in the phone's light theme and in its dark one.

axe-core is vendored for these tests only (package.json's "vendor" script copies it to tests/e2e/vendor/);
the app never serves it. Each page is checked as the scorekeeper sees it: after a few hands, with the hand
form open (new, edited, refused), a finished game settled up, and three sides at the table.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from conftest import name_the_players, no_horizontal_scroll, start_game, start_three_partnerships

AXE_VERSION = "4.14.1"  # as pinned in package.json
AXE = Path(__file__).parent / "vendor" / f"axe-core-{AXE_VERSION}.min.js"
# WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]
SCHEMES = ("light", "dark")

# Every visible input, button and select of the hand form that has no name a screen reader can say:
# no <label> (wrapping it or naming it with for=), no aria-label, no aria-labelledby.
UNNAMED_CONTROLS_JS = """(form) => {
  const controls = form.querySelectorAll('input:not([type="hidden"]), button, select, textarea');
  const unnamed = [];
  for (const control of controls) {
    const drawn = control.checkVisibility({visibilityProperty: true}) || control.closest('label')?.checkVisibility();
    if (!drawn) continue;
    const named = (control.labels && control.labels.length > 0 && [...control.labels].some(l => l.textContent.trim()))
      || (control.getAttribute('aria-label') || '').trim()
      || (control.getAttribute('aria-labelledby') || '').split(/\\s+/)
           .some(id => document.getElementById(id)?.textContent.trim())
      || (control.tagName === 'BUTTON' && control.textContent.trim());
    if (!named) unnamed.push(`${control.tagName.toLowerCase()}#${control.id || '?'}[name=${control.name || '?'}]`);
  }
  return unnamed;
}"""


# --- Helpers --------------------------------------------------------------------------


@pytest.fixture(params=SCHEMES)
def scheme(request, page: Page) -> str:
    """Each test runs twice: with the phone set to its light theme, then to its dark one."""
    page.emulate_media(color_scheme=request.param)
    return request.param


def axe_violations(page: Page, scheme: str) -> list[str]:
    """axe-core's findings on the page as it is now, one line per element at fault."""
    assert AXE.exists(), f"{AXE} is missing: run `npm ci && npm run vendor`"
    expect(page.locator("body")).to_be_visible()
    assert page.evaluate("(s) => matchMedia(`(prefers-color-scheme: ${s})`).matches", scheme)
    # Evaluated by the test, not added as an inline <script>: the pages' Content-Security-Policy forbids those.
    page.evaluate(AXE.read_text())
    results = page.evaluate(
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})", AXE_TAGS
    )
    where = page.url.split("/", 3)[-1]
    found = []
    for violation in results["violations"]:
        for node in violation["nodes"]:
            summary = " ".join(node.get("failureSummary", "").split())
            found.append(
                f"/{where} [{scheme}] {violation['id']} ({violation['impact']}) at {node['target']}: "
                f"{violation['help']}. {summary}"
            )
    return found


def check(page: Page, scheme: str, problems: list[str]) -> None:
    """Add axe's findings on the page as it is now to `problems`."""
    problems += axe_violations(page, scheme)


def assert_none(problems: list[str]) -> None:
    """No finding on any page checked; the failure lists every one."""
    assert not problems, f"axe-core found {len(problems)} fault(s):\n" + "\n".join(problems)


def expect_the_theme(page: Page, scheme: str) -> None:
    """The page follows the phone's setting: light ink on dark paper in the dark theme, the reverse in light."""
    lightness = page.evaluate("""() => {
      const luminance = (colour) => {
        const [r, g, b] = colour.match(/[\\d.]+/g).map(Number);
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const style = getComputedStyle(document.body);
      return {paper: luminance(style.backgroundColor), ink: luminance(style.color)};
    }""")
    if scheme == "dark":
        assert lightness["paper"] < lightness["ink"], f"{page.url}: the dark theme is not applied ({lightness})"
    else:
        assert lightness["paper"] > lightness["ink"], f"{page.url}: the light theme is not applied ({lightness})"


def entry(page: Page, side: int, name: str) -> Locator:
    """A field of the hand form by its name in the form (s0-count, s1-natural_canastas ...)."""
    return page.locator(f"#s{side}-{name}")


def enter_hand(page: Page, number: int, us_count: str = "385", them_count: str = "140") -> None:
    """Enter a hand: Us with a natural and a mixed canasta, going out; Them one mixed canasta."""
    page.get_by_role("link", name=f"Enter hand {number}").click()
    entry(page, 0, "natural_canastas").fill("1")
    entry(page, 0, "mixed_canastas").fill("1")
    page.locator('label[for="s0-went_out"]').click()
    expect(entry(page, 0, "went_out")).to_be_checked()
    entry(page, 0, "count").fill(us_count)
    entry(page, 1, "mixed_canastas").fill("1")
    entry(page, 1, "count").fill(them_count)
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.locator(f"#hand-{number}")).to_be_visible()


def refuse_a_save(page: Page) -> None:
    """Save a hand the rules refuse (a Count that is no multiple of 5): the form comes back with its message."""
    entry(page, 0, "natural_canastas").fill("1")
    entry(page, 0, "count").fill("123")
    page.locator("button.save-hand").click()
    expect(page.locator("#s0-count-error")).to_have_text("The Count must be a multiple of 5.")


def open_every_more(page: Page) -> None:
    """Open each side's folded entries ("More for ..."), so that their controls are checked too."""
    folded = page.locator("form.hand-form details:not([open])")
    for _ in range(folded.count()):
        folded.first.locator("> summary").click()
    expect(folded).to_have_count(0)


def open_the_counting_grid(page: Page, side: int) -> None:
    """Count a side's cards with the grid instead of one number."""
    page.locator(f'fieldset[data-side="{side}"] label:has(.count-mode[value="grid"])').click()
    expect(page.locator(f'fieldset[data-side="{side}"] .count-grid')).to_be_visible()


# --- Pages ------------------------------------------------------------------------------


def test_the_pages_before_any_game_have_no_axe_fault(page: Page, live_server: str, scheme: str):
    """Home with no game yet, the new-game form (each table, special hands open), the offline page, a 404."""
    problems: list[str] = []
    page.goto(live_server + "/")
    expect_the_theme(page, scheme)
    check(page, scheme, problems)

    page.goto(live_server + "/games/new")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.get_by_text("Special hands allowed, and their points").click()
    expect(page.get_by_role("switch", name="Seven pairs", exact=True)).to_be_visible()
    check(page, scheme, problems)
    page.get_by_role("radio", name=re.compile("^Classic")).check()
    page.get_by_role("radio", name=re.compile("^Three partnerships")).check()
    expect(page.get_by_label("Side 3 name", exact=True)).to_be_visible()
    check(page, scheme, problems)

    page.goto(live_server + "/offline")
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    check(page, scheme, problems)

    response = page.goto(live_server + "/games/no-such-game")
    assert response is not None and response.status == 404
    check(page, scheme, problems)
    assert_none(problems)


def test_a_game_in_progress_has_no_axe_fault(page: Page, live_server: str, scheme: str):
    """The scoresheet with a few hands, the delete confirmation, the scoreboard, the game's rules and home
    listing the game."""
    problems: list[str] = []
    start_game(page, live_server)
    for number in (1, 2, 3):
        enter_hand(page, number, us_count="50", them_count="-40" if number == 2 else "40")
    expect(page.get_by_role("status").filter(has_text="Hand 3 saved.")).to_be_visible()
    game_url = page.url.split("#")[0]
    expect_the_theme(page, scheme)
    page.get_by_text("Keep score on another phone").click()
    check(page, scheme, problems)

    page.locator("#hand-3").get_by_role("link", name="Delete hand 3").click()
    expect(page.get_by_role("heading", name="Delete hand 3?")).to_be_visible()
    check(page, scheme, problems)

    page.goto(game_url)
    page.goto(live_server + page.get_by_role("link", name="Scoreboard link").get_attribute("href"))
    expect(page.locator(".total-figure")).to_have_count(2)
    check(page, scheme, problems)

    page.get_by_role("link", name="Rules", exact=True).click()
    expect(page.get_by_role("heading", name="Rules: Us v Them")).to_be_visible()
    assert no_horizontal_scroll(page), "the rules page scrolls sideways"
    check(page, scheme, problems)

    page.goto(live_server + "/")
    expect(page.get_by_role("heading", name="Games in progress")).to_be_visible()
    check(page, scheme, problems)
    assert_none(problems)


def test_the_hand_form_has_no_axe_fault(page: Page, live_server: str, scheme: str):
    """The hand form as it opens, with its live figures, its counting grid, a refused save, and a hand to correct."""
    problems: list[str] = []
    start_game(page, live_server)
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.get_by_role("heading", name="Hand 1")).to_be_visible()
    expect_the_theme(page, scheme)
    check(page, scheme, problems)

    entry(page, 0, "natural_canastas").fill("1")
    entry(page, 0, "count").fill("50")
    expect(page.locator('#preview tr[data-side="0"]')).to_be_visible()
    open_every_more(page)
    open_the_counting_grid(page, 1)
    check(page, scheme, problems)

    refuse_a_save(page)
    check(page, scheme, problems)

    entry(page, 0, "count").fill("50")  # put right, then saved
    page.locator("button.save-hand").click()
    expect(page.locator("#hand-1")).to_be_visible()
    page.locator("#hand-1").get_by_role("link", name="Edit hand 1").click()
    expect(page.get_by_role("heading", name="Edit hand 1")).to_be_visible()
    check(page, scheme, problems)
    refuse_a_save(page)
    check(page, scheme, problems)
    assert_none(problems)


def test_a_finished_game_settled_up_has_no_axe_fault(page: Page, live_server: str, scheme: str):
    """A game played to 500: the winner, the settle-up form and what each pays, the scoreboard, home."""
    problems: list[str] = []
    page.goto(live_server + "/games/new")
    name_the_players(page)
    page.locator("#game_rules").get_by_label("Points to win", exact=True).fill("500")
    page.get_by_role("button", name="Start the game").click()
    enter_hand(page, 1)
    expect(page.locator(".winner")).to_contain_text("Us won")
    expect_the_theme(page, scheme)
    check(page, scheme, problems)

    page.get_by_label("Stake per 1,000 points", exact=True).fill("1")
    page.get_by_role("button", name="Work it out").click()
    expect(page.locator(".settlement li")).to_have_count(1)
    check(page, scheme, problems)
    page.get_by_label("Stake per 1,000 points", exact=True).fill("lots")
    page.get_by_role("button", name="Work it out").click()
    expect(page.locator("#settle .field-error")).to_be_visible()
    check(page, scheme, problems)

    game_url = page.url.split("#")[0]
    scoreboard_url = live_server + page.get_by_role("link", name="Scoreboard link").get_attribute("href")
    page.goto(scoreboard_url)
    expect(page.locator(".winner")).to_contain_text("Us won")
    check(page, scheme, problems)
    # Once the rematch has started, the finished game's scoreboard offers it.
    page.goto(game_url)
    page.get_by_role("button", name="Rematch").click()
    expect(page.locator(".flash")).to_contain_text("Rematch started")
    page.goto(scoreboard_url)
    expect(page.get_by_role("link", name="Follow the rematch")).to_be_visible()
    check(page, scheme, problems)
    page.goto(live_server + "/")
    expect(page.get_by_role("heading", name="Finished games")).to_be_visible()
    check(page, scheme, problems)
    assert_none(problems)


def start_a_six_player_game(page: Page, live_server: str, counts: tuple[str, str, str] = ("50", "55", "60")) -> None:
    """Classic with three partnerships, and a first hand: each side one natural canasta and the Count given
    (a side given a negative Count has no canasta)."""
    start_three_partnerships(page, live_server)
    page.get_by_role("link", name="Enter hand 1").click()
    for side, count in enumerate(counts):
        if not count.startswith("-"):
            entry(page, side, "natural_canastas").fill("1")
        entry(page, side, "count").fill(count)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#hand-1")).to_be_visible()


def test_three_sides_have_no_axe_fault(page: Page, live_server: str, scheme: str):
    """Classic with six players: three totals side by side, the grid a row per figure, the scoreboard."""
    problems: list[str] = []
    start_a_six_player_game(page, live_server)
    expect_the_theme(page, scheme)
    check(page, scheme, problems)

    page.goto(live_server + page.get_by_role("link", name="Scoreboard link").get_attribute("href"))
    expect(page.locator(".total-figure")).to_have_count(3)
    check(page, scheme, problems)
    assert_none(problems)


# Each total and Minimum Count figure: its size, and whether it overflows its card.
FIGURES_JS = """() => [...document.querySelectorAll('.big-total, .min-count-figure')].map(figure => ({
  what: figure.classList.contains('big-total') ? 'total' : 'Minimum Count',
  text: figure.textContent.trim(),
  size: parseFloat(getComputedStyle(figure).fontSize),
  overflows: figure.scrollWidth > figure.clientWidth
    || figure.getBoundingClientRect().right > figure.closest('.total-card').getBoundingClientRect().right,
}))"""


def test_three_totals_side_by_side_are_readable_at_arms_length(page: Page, live_server: str):
    """Six players on the narrowest phone: three totals of 28 px or more and Minimum Counts of 22 px or more,
    side by side, each inside its card, with nothing to scroll sideways, on the scoresheet and the scoreboard."""
    start_a_six_player_game(page, live_server, counts=("-1500", "50", "55"))
    expect(page.locator(".total-figure").first).to_have_text(re.compile("^\u2212[0-9],[0-9]{3}$"))
    problems = []
    for where in ("scoresheet", "scoreboard"):
        if where == "scoreboard":
            page.goto(live_server + page.get_by_role("link", name="Scoreboard link").get_attribute("href"))
        for width in (360, 390, 430):
            page.set_viewport_size({"width": width, "height": 740})
            figures = page.evaluate(FIGURES_JS)
            assert len(figures) == 6
            for figure in figures:
                smallest = 28 if figure["what"] == "total" else 22
                if figure["size"] < smallest:
                    problems.append(f"{where} at {width} px: {figure['what']} {figure['text']} is {figure['size']} px")
                if figure["overflows"]:
                    problems.append(f"{where} at {width} px: {figure['what']} {figure['text']} overflows its card")
            if not no_horizontal_scroll(page):
                problems.append(f"{where} at {width} px scrolls sideways")
    assert not problems, "Hard to read at arm's length:\n" + "\n".join(problems)


def test_every_control_on_the_hand_form_has_a_name(page: Page, live_server: str):
    """Each visible input, button and select of the hand form has a label, an aria-label or an aria-labelledby
    (or, for a button, its own text)."""
    start_game(page, live_server)
    page.get_by_role("link", name="Enter hand 1").click()
    form = page.locator("form.hand-form")
    expect(form).to_be_visible()
    assert form.locator("input, button, select").count() > 40
    unnamed = form.evaluate(UNNAMED_CONTROLS_JS)
    open_every_more(page)  # the folded entries and the counting grid's cells too
    for side in (0, 1):
        open_the_counting_grid(page, side)
    unnamed += form.evaluate(UNNAMED_CONTROLS_JS)
    assert not unnamed, "Controls with no accessible name: " + ", ".join(sorted(set(unnamed)))


# --- The charts: the game in a picture, the statistics' bars ----------------------------------------------------

# Each chart's parts against the chart's own background, as the phone draws them: every line 3:1 or more (WCAG
# 1.4.11), every word 4.5:1 or more; and how each side's line is stroked.
CHART_COLOURS_JS = """(svg) => {
  const rgb = (colour) => colour.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = (colour) => {
    const linear = (c) => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    const [r, g, b] = rgb(colour).map((c) => linear(c / 255));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (one, other) => {
    const [high, low] = [luminance(one), luminance(other)].sort((a, b) => b - a);
    return (high + 0.05) / (low + 0.05);
  };
  const background = getComputedStyle(svg).backgroundColor;
  return {
    lines: [...svg.querySelectorAll('.side-line')].map((line) => {
      const style = getComputedStyle(line);
      return {stroke: style.stroke, dashes: style.strokeDasharray, contrast: ratio(style.stroke, background)};
    }),
    words: [...svg.querySelectorAll('text')].map((text) => ratio(getComputedStyle(text).fill, background)),
  };
}"""
GAME_CHART = "The game in a chart: each side's running total after every hand"


def test_the_charts_have_no_axe_fault_and_read_in_either_theme_and_on_paper(page: Page, live_server: str, scheme: str):
    """The game's chart on the scoresheet and the scoreboard, and the statistics' bars: images with a name and a
    sentence, their lines and words clear of their background in the phone's theme, black dashes on paper."""
    problems: list[str] = []
    start_game(page, live_server)
    # Us: a natural 500 + a mixed 300 + out 100 + Count 50 = 950 a hand. Them: a mixed 300 + Count 40 = 340,
    # then 300 − 40 = 260. After two hands: Us 1,900, Them 600.
    for number in (1, 2):
        enter_hand(page, number, us_count="50", them_count="-40" if number == 2 else "40")
    chart = page.get_by_role("img", name=GAME_CHART)
    expect(chart).to_be_visible()
    expect(chart).to_have_accessible_description("Us lead 1,900 to 600 after 2 hands.")
    expect_the_theme(page, scheme)
    colours = chart.evaluate(CHART_COLOURS_JS)
    assert len(colours["lines"]) == 2
    for line in colours["lines"]:
        assert line["contrast"] >= 3, f"[{scheme}] a side's line is {line['contrast']:.2f}:1 on the chart: {line}"
    assert min(colours["words"]) >= 4.5, f"[{scheme}] words on the chart at {min(colours['words']):.2f}:1"
    # Its words are 16 high in the viewBox: on the narrowest phone a unit is still a pixel or more.
    page.set_viewport_size({"width": 360, "height": 740})
    assert chart.evaluate("(svg) => svg.getScreenCTM().a") >= 1, "the chart's words are under 16 px at 360 px"
    assert no_horizontal_scroll(page), "the scoresheet scrolls sideways at 360 px"
    page.set_viewport_size({"width": 390, "height": 844})
    check(page, scheme, problems)

    page.emulate_media(media="print")
    expect(chart).to_be_visible()
    printed = chart.evaluate(CHART_COLOURS_JS)["lines"]
    assert {line["stroke"] for line in printed} == {"rgb(0, 0, 0)"}
    assert len({line["dashes"] for line in printed}) == 2, f"the sides' lines look alike on paper: {printed}"
    page.emulate_media(media="screen")

    page.goto(live_server + page.get_by_role("link", name="Scoreboard link").get_attribute("href"))
    expect(page.get_by_role("img", name=GAME_CHART)).to_have_accessible_description(
        "Us lead 1,900 to 600 after 2 hands."
    )
    check(page, scheme, problems)

    page.goto(live_server + "/history/statistics")
    won = page.get_by_role("img", name="Games won by each player")
    expect(won).to_have_accessible_description("No player has won a finished game yet.")
    average = page.get_by_role("img", name="Average hand of each player's side")
    # Ann and Cleo: 1,900 over 2 hands; Bea and Dot 600 over 2.
    expect(average).to_have_accessible_description("Ann and Cleo have the highest average hand: 950 points.")
    assert min(average.evaluate(CHART_COLOURS_JS)["words"]) >= 4.5
    assert no_horizontal_scroll(page), "the statistics scroll sideways"
    check(page, scheme, problems)
    assert_none(problems)
