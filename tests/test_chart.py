"""The game in a chart, and the statistics' bars (scorepad/chart.py, templates/_chart.html).

Every coordinate is worked out by hand from the chart's viewBox: lines drawn from x 60 to 220 and from y 16 (the
highest value) to 176 (the lowest); the values run from a multiple of a round step below the lowest figure (0 at
least) to one above the highest (the target at least), in about four steps. Hands' figures come from docs/rules.md.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from scorepad import chart
from scorepad.web import points

from .conftest import game_document

CSS = Path(__file__).resolve().parent.parent / "static" / "css" / "scorepad.css"


# --- The pure module: figures in, geometry out -------------------------------------------------------------------

# Us and Them to 5,000: a varied game with a negative hand for each side. Running totals:
# hand 1: Us 1,585, Them −515 (no canasta: Base −400, Count −115);
# hand 2: Us −400 (1,185), Them +1,800 (1,285);
# hand 3: Us +3,300 (4,485), Them +600 (1,885);
# hand 4: Us +750 (5,235), Them +20 (1,905): Us reach 5,000 and win.
VARIED = [[1585, -515], [1185, 1285], [4485, 1885], [5235, 1905]]


def test_nice_steps_are_round():
    for rough, step in [(0, 1), (0.5, 1), (1, 1), (1.2, 2), (3, 5), (7, 10), (11, 20), (21, 25), (26, 50)]:
        assert chart.nice_step(rough) == step
    assert chart.nice_step(1437.5) == 2000 and chart.nice_step(2001) == 2500 and chart.nice_step(2125) == 2500


def test_each_sides_line_goes_through_its_running_totals_a_negative_one_below_the_zero_line():
    drawn = chart.game_chart(["Us", "Them"], VARIED, 5000, points, winners=(0,), finished=True)
    assert drawn is not None
    # Figures from −515 to 5,235 (the target 5,000 within): 5,750 / 4 = 1,437.5, so steps of 2,000, from −2,000
    # to 6,000. y = 16 + (6,000 − value) × 160 / 8,000 = 16 + (6,000 − value) × 0.02, to one decimal.
    # x: four hands over 160, 40 each: 60, 100, 140, 180, 220.
    by_side = {line.side: line for line in drawn.lines}
    # Us: 0 → 136; 1,585 → 16 + 88.3; 1,185 → 16 + 96.3; 4,485 → 16 + 30.3; 5,235 → 16 + 15.3.
    assert by_side[0].points == "60,136 100,104.3 140,112.3 180,46.3 220,31.3"
    # Them: −515 → 16 + 130.3 = 146.3, below the zero line at 136; 1,285 → 110.3; 1,885 → 98.3; 1,905 → 97.9.
    assert by_side[1].points == "60,136 100,146.3 140,110.3 180,98.3 220,97.9"
    assert drawn.zero_y == 136 and by_side[1].coordinates[1][1] > drawn.zero_y
    assert drawn.target_y == 36 and drawn.target_label == "5,000 to win"  # 16 + 1,000 × 0.02
    assert [(tick.at, tick.label) for tick in drawn.value_ticks] == [
        (176, "\u22122,000"),
        (136, "0"),
        (96, "2,000"),
        (56, "4,000"),
        (16, "6,000"),
    ]
    assert [(tick.at, tick.label) for tick in drawn.hand_ticks] == [(100, "1"), (140, "2"), (180, "3"), (220, "4")]
    # The winner is ahead: drawn last (on top), heavier, labelled with its name and total at the line's end.
    assert [line.side for line in drawn.lines] == [1, 0] and by_side[0].ahead and not by_side[1].ahead
    assert (by_side[0].name, by_side[0].total, by_side[0].label_y) == ("Us", "5,235", 31.3)
    assert (by_side[1].name, by_side[1].total, by_side[1].label_y) == ("Them", "1,905", 97.9)
    assert drawn.description == "Us won 5,235 to 1,905 after 4 hands."


def test_the_side_in_the_lead_while_the_game_goes_on():
    drawn = chart.game_chart(["Us", "Them"], VARIED[:3], 5000, points)
    assert drawn is not None
    assert [line.side for line in drawn.lines if line.ahead] == [0]
    assert drawn.description == "Us lead 4,485 to 1,885 after 3 hands."


def test_three_sides_close_together_have_their_labels_moved_apart():
    drawn = chart.game_chart(["Reds", "Blues", "Greens"], [[500, 400, 300]], 5000, points)
    assert drawn is not None
    # 0 to 5,000 in steps of 2,000 (5,000 / 4 = 1,250): 0 to 6,000. y = 16 + (6,000 − value) × 160 / 6,000.
    # One hand: x 60 then 220. 500 → 16 + 146.67, 400 → 16 + 149.33, 300 → 16 + 152.
    assert [line.points for line in sorted(drawn.lines, key=lambda line: line.side)] == [
        "60,176 220,162.7",
        "60,176 220,165.3",
        "60,176 220,168",
    ]
    # Labels 34 apart, the lowest no lower than the bottom (176): 176, then 142 and 108 above it.
    assert [line.label_y for line in sorted(drawn.lines, key=lambda line: line.side)] == [108, 142, 176]
    assert drawn.description == "Reds lead with 500, ahead of Blues on 400 and Greens on 300, after 1 hand."


def test_sides_level_at_the_top_have_no_leader_and_a_shared_win_has_two():
    level = chart.game_chart(["Us", "Them", "You"], [[500, 500, -100]], 5000, points)
    assert level is not None and not any(line.ahead for line in level.lines)
    assert level.description == "Us and Them are level on 500, ahead of You on \u2212100, after 1 hand."
    shared = chart.game_chart(["Us", "Them"], [[5000, 5000]], 5000, points, winners=(0, 1), finished=True)
    assert shared is not None and all(line.ahead for line in shared.lines)
    assert shared.description == "Us and Them share the win on 5,000 after 1 hand."


def test_a_long_game_numbers_every_fifth_hand_and_a_long_name_is_cut_short():
    hands = [[100 * n, 50 * n] for n in range(1, 21)]
    drawn = chart.game_chart(["The Wild Cards", "Them"], hands, 8500, points)
    assert drawn is not None
    # 20 hands over 160: 8 each. At most 6 numbers: every 5th (20 / 6 = 3.3, rounded up to 5).
    assert [(tick.at, tick.label) for tick in drawn.hand_ticks] == [(100, "5"), (140, "10"), (180, "15"), (220, "20")]
    assert drawn.lines[-1].name == "The Wild\u2026"  # ten letters at most, the last an ellipsis
    assert len(drawn.lines[0].coordinates) == 21


def test_no_hand_no_chart():
    assert chart.game_chart(["Us", "Them"], [], 8500, points) is None


def test_bars_start_at_the_zero_line_a_negative_one_to_its_left():
    # 600 and −200: from −200 to 600 over 160 (x 100 to 260): x = 100 + (value + 200) × 0.2.
    # Zero at 100 + 40 = 140; 600 ends at 260 (a bar 120 long); −200 starts at 100 (40 long, to the zero line).
    drawn = chart.bar_chart("Average hand", [("Ann", 600), ("Bea", -200), ("Cleo", None)], points, "-")
    assert drawn is not None
    assert drawn.zero_x == 140
    assert [(bar.x, bar.width, bar.value, bar.top) for bar in drawn.bars] == [
        (140, 120, "600", True),
        (100, 40, "\u2212200", False),
        (140, 0, "\u2013", False),  # no figure: a dash and no bar
    ]
    # Rows 28 high under a padding of 4; the bar 16 high in the middle of its row; the text's baseline 20 down.
    assert [(bar.y, bar.text_y) for bar in drawn.bars] == [(10, 24), (38, 52), (66, 80)]
    assert drawn.height == 92  # 4 + 3 × 28 + 4


def test_games_won_and_average_hands_say_who_leads():
    class Player:
        def __init__(self, name, won, average_hand):
            self.name, self.won, self.average_hand = name, won, average_hand

    players = [Player("Ann", 2, 1610), Player("Bea", 2, -150), Player("Cleo", 0, 3300)]
    won = chart.games_won_chart(players, points)
    assert won is not None and won.description == "Ann and Bea won the most games: 2 each."
    # 0 to 2 over 160: 80 a game.
    assert [(bar.width, bar.top) for bar in won.bars] == [(160, True), (160, True), (0, False)]
    average = chart.average_hand_chart(players, points)
    assert average is not None and average.description == "Cleo has the highest average hand: 3,300 points."
    nobody = chart.games_won_chart([Player("Ann", 0, 10), Player("Bea", 0, -10)], points)
    assert nobody is not None and nobody.description == "No player has won a finished game yet."
    assert not any(bar.top for bar in nobody.bars)  # every figure the same: none stands out
    assert chart.games_won_chart([], points) is None


# --- On the pages -------------------------------------------------------------------------------------------------

# Modern, to 8,500. Hand 1 (docs/rules.md's example): Us 2 red 3s 300 + natural 500 + mixed 300 + out 100 = 1,200,
# Count 385: 1,585; Them a mixed canasta 300 + Count 140: 440. Hand 2: Us one red 3 and no canasta, −100, Count
# −80: −180 (1,405); Them two naturals 1,000 + out 100 + Count 200: 1,300 (1,740). Hand 3: Us seven pairs 2,500
# (3,905); Them a mixed canasta 300 + Count 100: 400 (2,140).
THREE_HANDS = [
    {
        "sides": [
            {"red_threes": 2, "natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 385},
            {"mixed_canastas": 1, "count": 140},
        ]
    },
    {"sides": [{"red_threes": 1, "count": -80}, {"natural_canastas": 2, "went_out": True, "count": 200}]},
    {"sides": [{"special_hand": "pairs"}, {"mixed_canastas": 1, "count": 100}]},
]
# 0 to 8,500: 8,500 / 4 = 2,125, steps of 2,500, 0 to 10,000: y = 16 + (10,000 − value) × 0.016. x: 160 / 3 =
# 53.33 a hand. Us: 1,585 → 16 + 134.64; 1,405 → 16 + 137.52; 3,905 → 16 + 97.52. Them: 440 → 16 + 152.96;
# 1,740 → 16 + 132.16; 2,140 → 16 + 125.76.
US_LINE = "60,176 113.3,150.6 166.7,153.5 220,113.5"
THEM_LINE = "60,176 113.3,169 166.7,148.2 220,141.8"
DESCRIPTION = "Us lead 3,905 to 2,140 after 3 hands."
TITLE = "The game in a chart: each side's running total after every hand"


def svg(page: str, chart_id: str = "game-chart") -> str:
    """The chart's markup in a page (it must be there)."""
    found = re.search(rf'<svg class="chart[^"]*" id="{chart_id}".*?</svg>', page, re.S)
    assert found, f"no chart {chart_id} on the page"
    return found.group(0)


def named_and_described(markup: str, chart_id: str) -> tuple[str, str]:
    """The chart's accessible name and description: an image, named by its title, described by its desc."""
    assert 'role="img"' in markup
    assert f'aria-labelledby="{chart_id}-title"' in markup and f'aria-describedby="{chart_id}-desc"' in markup
    title = re.search(rf'<title id="{chart_id}-title">(.*?)</title>', markup)
    desc = re.search(rf'<desc id="{chart_id}-desc">(.*?)</desc>', markup)
    assert title and desc
    return html.unescape(title.group(1)), html.unescape(desc.group(1))


def line_points(markup: str) -> dict[int, str]:
    """Each side's polyline points, by side."""
    return {
        int(side): found for side, found in re.findall(r'class="side-line line-(\d)[^"]*" points="([^"]+)"', markup)
    }


def played(client, doc: dict) -> dict:
    """A game made through the API with its hands: its document."""
    response = client.post("/api/games", json=doc)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_the_scoresheet_shows_the_chart_named_and_described(client):
    game = played(client, game_document(hands=THREE_HANDS))
    markup = svg(client.get(f"/games/{game['id']}").get_data(as_text=True))
    assert named_and_described(markup, "game-chart") == (TITLE, DESCRIPTION)
    assert line_points(markup) == {0: US_LINE, 1: THEM_LINE}
    assert 'class="target-line" x1="60" x2="220" y1="40.0"' in markup  # 16 + 1,500 × 0.016
    assert ">8,500 to win</text>" in markup
    assert 'class="side-line line-0 ahead"' in markup and 'class="side-line line-1"' in markup
    assert "style=" not in markup  # the Content-Security-Policy forbids inline style


def test_the_scoreboard_and_its_live_fragment_carry_the_chart(client):
    game = played(client, game_document(hands=THREE_HANDS[:1]))
    headers = {"Authorization": f"Bearer {game['edit_token']}"}
    page = client.get(f"/games/{game['id']}/scoreboard").get_data(as_text=True)
    # One hand: x 60 and 220. 1,585 and 440 on the same scale as above.
    assert line_points(svg(page)) == {0: "60,176 220,150.6", 1: "60,176 220,169"}
    assert named_and_described(svg(page), "game-chart")[1] == "Us lead 1,585 to 440 after 1 hand."
    for hand in THREE_HANDS[1:]:
        assert client.post(f"/api/games/{game['id']}/hands", json=hand, headers=headers).status_code == 201
    # The watcher's poll gets the new fragment (htmx swaps #scoresheet), the chart in it.
    fragment = client.get(
        f"/games/{game['id']}/scoreboard/live",
        headers={"If-None-Match": f'W/"{game["revision"]}"', "HX-Request": "true"},
    )
    assert fragment.status_code == 200
    body = fragment.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="scoresheet"') and "<html" not in body
    assert line_points(svg(body)) == {0: US_LINE, 1: THEM_LINE}
    assert named_and_described(svg(body), "game-chart")[1] == DESCRIPTION


def test_the_printed_sheet_keeps_the_chart_in_black_and_tells_the_sides_apart_by_their_dashes():
    css = CSS.read_text()
    printed = css[css.index("@media print") :]
    # In print every side is black (the lines are told apart by dash pattern) and the chart is not hidden.
    assert re.search(r"\.chart \{ --side-0: #000; --side-1: #000; --side-2: #000;", printed)
    hidden = re.search(r"\n  ([^{]*)\{ display: none !important; \}", printed)
    assert hidden and "chart" not in hidden.group(1)
    dashes = [chart_rule(css, f".chart .line-{side}").get("stroke-dasharray", "none") for side in range(3)]
    assert len(set(dashes)) == 3, dashes


def test_a_game_of_three_sides_draws_three_lines(client):
    # Classic, three partnerships, to 5,000; docs/rules.md's example J twice. Reds: 5 red 3s 1,000 + a natural
    # 500 + Count 100 = 1,600 a hand. Blues: a natural 500 + out 100 + Count 60 = 660. Greens: a red 3 and no meld,
    # −100, Count −40: −140. After two hands 3,200, 1,320 and −280.
    sides = [
        {"name": "Reds", "players": ["Ann", "Dot"]},
        {"name": "Blues", "players": ["Bea", "Eve"]},
        {"name": "Greens", "players": ["Cleo", "Fay"]},
    ]
    hand = {
        "sides": [
            {"red_threes": 5, "natural_canastas": 1, "count": 100},
            {"natural_canastas": 1, "went_out": True, "count": 60},
            {"red_threes": 1, "count": -40},
        ]
    }
    game = played(client, game_document("classic", sides=sides, hands=[hand, hand]))
    markup = svg(client.get(f"/games/{game['id']}").get_data(as_text=True))
    # −280 to 5,000: 5,280 / 4 = 1,320, steps of 2,000, −2,000 to 6,000: y = 16 + (6,000 − value) × 0.02.
    # x: 80 a hand. Reds 1,600 → 104, 3,200 → 72; Blues 660 → 122.8, 1,320 → 109.6; Greens −140 → 138.8,
    # −280 → 141.6 (below the zero line at 136).
    assert line_points(markup) == {
        0: "60,136 140,104 220,72",
        1: "60,136 140,122.8 220,109.6",
        2: "60,136 140,138.8 220,141.6",
    }
    assert named_and_described(markup, "game-chart")[1] == (
        "Reds lead with 3,200, ahead of Blues on 1,320 and Greens on \u2212280, after 2 hands."
    )


def test_a_game_with_no_hand_has_no_chart_and_says_so(client):
    game = played(client, game_document())
    for address in (f"/games/{game['id']}", f"/games/{game['id']}/scoreboard"):
        page = client.get(address).get_data(as_text=True)
        assert '<svg class="chart' not in page and "No hands yet." in page


# Two games kept on this phone. "ann" and Eve, to 1,000: Eve a natural 500 + mixed 300 + out 100 + Count 100 =
# 1,000, wins; ann no canasta, Count −80. Then Us (Ann, Cleo) and Them (Bea, Dot), to 3,000: Us a sevens canasta
# 2,500 + a natural 500 + out 100 + Count 200 = 3,300, win; Them a red 3 with no canasta −100 + Count −50 = −150.
EVE_AND_ANN = game_document(
    target=1000,
    sides=[{"name": "Me", "players": ["Eve"]}, {"name": "You", "players": ["ann"]}],
    hands=[{"sides": [{"natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 100}, {"count": -80}]}],
)
US_WIN = game_document(
    target=3000,
    hands=[
        {
            "sides": [
                {"sevens_canasta": True, "natural_canastas": 1, "went_out": True, "count": 200},
                {"red_threes": 1, "count": -50},
            ]
        }
    ],
)


def keep(client, doc: dict) -> None:
    """A game made through the API and kept on this phone through its scoresheet link."""
    game = played(client, doc)
    assert client.post(f"/games/{game['id']}/claim", data={"key": game["links"]["scoresheet"]}).status_code == 303


def bars(markup: str) -> list[tuple[str, str, str, str]]:
    """Each bar: the player's name, the rectangle's x and width, the figure."""
    rows = re.findall(
        r'<text class="bar-name"[^>]*>([^<]*)</text>\s*<rect class="bar[^"]*" x="([^"]+)" y="[^"]+" width="([^"]+)"'
        r'[^>]*/>\s*<text class="bar-value[^"]*"[^>]*>([^<]*)</text>',
        markup,
    )
    return [(html.unescape(name), x, width, value) for name, x, width, value in rows]


def test_the_statistics_page_draws_games_won_and_average_hands(client):
    keep(client, EVE_AND_ANN)
    keep(client, US_WIN)
    page = client.get("/history/statistics").get_data(as_text=True)
    # The table's order: most games first (Ann, 2), then most won (Cleo, Eve), then the rest by name.
    # Ann: 2 games, won 1, (3,300 − 80) / 2 = 1,610; Cleo 3,300; Eve 1,000; Bea and Dot −150.
    won = svg(page, "games-won-chart")
    assert named_and_described(won, "games-won-chart") == (
        "Games won by each player",
        "Ann, Cleo and Eve won the most games: 1 each.",
    )
    # 0 to 1 game over 160 (x 100 to 260).
    assert bars(won) == [
        ("Ann", "100.0", "160.0", "1"),
        ("Cleo", "100.0", "160.0", "1"),
        ("Eve", "100.0", "160.0", "1"),
        ("Bea", "100.0", "0.0", "0"),
        ("Dot", "100.0", "0.0", "0"),
    ]
    average = svg(page, "average-hand-chart")
    assert named_and_described(average, "average-hand-chart") == (
        "Average hand of each player's side",
        "Cleo has the highest average hand: 3,300 points.",
    )
    # −150 to 3,300 over 160: 160 / 3,450 a point; the zero line at 100 + 150 × 160 / 3,450 = 106.96, drawn at 107.
    # Ann ends at 100 + 1,760 × 160 / 3,450 = 181.62, drawn at 181.6 (74.6 long); Cleo at 260 (153); Eve at
    # 100 + 1,150 × 160 / 3,450 = 153.33, drawn at 153.3 (46.3); Bea and Dot from 100 to the zero line (7).
    assert bars(average) == [
        ("Ann", "107.0", "74.6", "1,610"),
        ("Cleo", "107.0", "153.0", "3,300"),
        ("Eve", "107.0", "46.3", "1,000"),
        ("Bea", "100.0", "7.0", "\u2212150"),
        ("Dot", "100.0", "7.0", "\u2212150"),
    ]


def test_statistics_with_no_hand_draw_nothing(client):
    keep(client, game_document())
    assert "<svg" not in client.get("/history/statistics").get_data(as_text=True)


# --- Legible in either theme and on paper ---------------------------------------------------------------------


def chart_rule(css: str, selector: str) -> dict[str, str]:
    """The declarations of the first rule with exactly this selector (outside @media print)."""
    screen = css[: css.index("@media print")]
    found = re.search(rf"^{re.escape(selector)} \{{([^}}]*)\}}", screen, re.M)
    assert found, f"no rule {selector}"
    return {
        name.strip(): value.strip()
        for name, _, value in (part.partition(":") for part in found.group(1).split(";"))
        if name.strip()
    }


def theme(css: str, dark: bool) -> dict[str, str]:
    """The theme's colours: :root's, or those the dark theme puts over them."""
    light = dict(re.findall(r"(--[a-z-]+): (#[0-9a-f]{6});", css[: css.index("@media (prefers-color-scheme: dark)")]))
    if not dark:
        return light
    block = css[css.index("@media (prefers-color-scheme: dark)") :]
    block = block[: block.index("\n}\n")]
    return {**light, **dict(re.findall(r"(--[a-z-]+): (#[0-9a-f]{6});", block))}


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_colour_of_the_charts_comes_from_the_theme():
    css = CSS.read_text()
    screen = css[: css.index("@media print")]
    rules = re.findall(r"^\.chart[^{]*\{([^}]*)\}", screen, re.M)
    assert len(rules) > 10
    for body in rules:
        for name, value in re.findall(r"(fill|stroke|background|border|--side-\d|color): ([^;]+);", body):
            assert "#" not in value and "rgb" not in value, f"{name}: {value} is not one of the theme's colours"


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_each_sides_line_stands_out_from_the_card_in_either_theme(dark: bool):
    """WCAG 1.4.11: a graphic's parts 3:1 against what is behind them."""
    css = CSS.read_text()
    colours = theme(css, dark)
    sides = chart_rule(css, ".chart")
    assert chart_rule(css, ".chart")["background"] == "var(--card)"
    for side in range(3):
        variable = re.fullmatch(r"var\((--[a-z-]+)\)", sides[f"--side-{side}"])
        assert variable, sides[f"--side-{side}"]
        ratio = contrast(colours[variable.group(1)], colours["--card"])
        assert ratio >= 3, f"side {side} ({variable.group(1)}) is {ratio:.2f}:1 on the card"
    # The words on the chart are the page's ink and muted ink: 4.5:1.
    assert chart_rule(css, ".chart text")["fill"] == "var(--ink)"
    assert contrast(colours["--muted"], colours["--card"]) >= 4.5
    # The sides' colours differ from each other too (the dash patterns are there for when they cannot be told).
    assert len({colours[re.sub(r"var\((.*)\)", r"\1", sides[f"--side-{side}"])] for side in range(3)}) == 3
