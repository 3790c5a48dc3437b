"""Write tests/vectors/rules.json: games and hands with what the Python rules make of them.

The browser's copy of the rules (assets/js/rules.js) must give the same figures and the same problems;
tests/e2e/test_rules_js.py holds it to every vector, and tests/test_rule_vectors.py fails when this file is
out of date. The inputs are written here by hand; every expected figure and problem comes from the Python
side: what the JSON API of a throw-away app (on a temporary SQLite file) answers, as a phone would get it.

Run after any change to the rules:  .venv/bin/python scripts/rule_vectors.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorepad import create_app, document, rules  # noqa: E402

OUTPUT = ROOT / "tests" / "vectors" / "rules.json"
COMMAND = ".venv/bin/python scripts/rule_vectors.py"

# The checks of the rules (scorepad/rules/checks.py), by list: every one must refuse at least one vector.
CHECK_LISTS = ("SIDE_CHECKS", "CONSISTENCY_CHECKS", "ENTRY_CHECKS", "COUNT_CHECKS", "HAND_CHECKS")

FOUR = [{"name": "Us", "players": ["Ann", "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}]
TWO = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]
SIX = [
    {"name": "North", "players": ["Ann", "Dot"]},
    {"name": "East", "players": ["Bea", "Eve"]},
    {"name": "West", "players": ["Cleo", "Fay"]},
]

HAND_PICKED = {  # each value of the modern presets moved, so a figure shows which one was read
    "natural_canasta": 550,
    "mixed_canasta": 350,
    "sevens_canasta": 2000,
    "aces_canasta": 2100,
    "wild_canasta_deuces": 3100,
    "wild_canasta_jokers": 2600,
    "wild_canasta_mixed": 1900,
    "going_out": 150,
    "going_out_concealed": 250,
    "perfect_cut": 125,
    "incomplete_sevens": 2200,
    "incomplete_aces": 2300,
    "incomplete_wild": 1800,
    "dirty_sevens": 1400,
    "dirty_aces": 1600,
    "three_in_hand": 50,
    "red_three_in_hand": 75,
    "failed_go_out_ask": 60,
    "failed_pile_take": 40,
}
# Every value of the rule catalogue: those not picked above moved too, each to its own figure.
EVERY_VALUE = {
    **{value.key: 5 * (7 + 2 * i) for i, value in enumerate(rules.CATALOGUE)},
    **HAND_PICKED,
}
# Classic plays none of the values only the modern presets show.
NOT_CLASSIC = {value.key: 0 for value in rules.CATALOGUE if value.family == "modern"}

# The tables below are laid out by hand, a hand to a line or two, to read as a scoresheet does.
# fmt: off

# The game's rules: a preset and the table's own values (make_rules fills in the rest).
RULE_SETS: dict[str, tuple[str, dict[str, Any]]] = {
    "modern": ("modern", {}),
    "cla": ("cla", {}),
    "wca": ("wca", {}),
    "classic": ("classic", {}),
    "modern_every_value": ("modern", {"values": EVERY_VALUE, "threes": [0, 150, 350, 600, 1200]}),
    "classic_every_value": (
        "classic",
        {
            "values": {**EVERY_VALUE, **NOT_CLASSIC},
            "red_threes": {"each": 150, "all_four": 900, "five": 1100, "six": 1500},
            "perfect_cut": True,
        },
    ),
    "modern_bands": (
        "modern",
        {"minimum_counts": [{"from": None, "minimum": 50}, {"from": 0, "minimum": 90}, {"from": 1000, "minimum": 120},
                            {"from": 2000, "minimum": 150}]},
    ),
    "classic_bands": ("classic", {"minimum_counts": [{"from": None, "minimum": 0}, {"from": 500, "minimum": 75}]}),
    "modern_grid_melded_minus_hand": ("modern", {"count_without_canasta": "melded_minus_hand"}),
    "classic_grid_negative": ("classic", {"count_without_canasta": "negative"}),
    "modern_short_play_on": ("modern", {"target": 1000, "tie": "play_on"}),
    "modern_short_shared": ("modern", {"target": 1000, "tie": "shared"}),
    "modern_short_went_out": ("modern", {"target": 1000, "tie": "went_out"}),
    "classic_short_shared": ("classic", {"target": 600, "tie": "shared"}),
    "modern_wipeout": ("modern", {"wipeout": True, "special_hands": {"pairs": 1500, "straight": 4000}}),
    "wca_no_wipeout": ("wca", {"wipeout": False, "all_eight_threes": 2500}),
    "modern_no_perfect_cut": ("modern", {"perfect_cut": False}),
    "modern_three_to_go_out": ("modern", {"canastas_to_go_out": 3}),
    "modern_to_5000": ("modern", {"target": 5000}),
    "modern_no_mixed_wild": ("modern", {"values": {"wild_canasta_mixed": 0}}),
    "modern_no_specials": (
        "modern",
        {"special_hands": {}, "values": {"sevens_canasta": 0, "aces_canasta": 0, "wild_canasta_deuces": 0,
                                         "wild_canasta_jokers": 0, "wild_canasta_mixed": 0}},
    ),
    "cla_short": ("cla", {"target": 3000}),
    "modern_three_hands": ("modern", {"hands_per_game": 3, "minimum_counts_by_hand": [125, 155, 180]}),
    "modern_three_hands_went_out": ("modern", {"hands_per_game": 3, "minimum_counts_by_hand": [125, 155, 180],
                                               "tie": "went_out"}),
    "modern_two_hands_bands": ("modern", {"hands_per_game": 2}),
    "classic_by_hand": ("classic", {"minimum_counts_by_hand": [15, 50]}),
    "classic_short": ("classic", {"target": 1500}),
}

# fmt: on


def side(**entry: Any) -> dict:
    """One side's entry for a hand."""
    return entry


def hand(*sides: dict) -> dict:
    """A hand body."""
    return {"sides": list(sides)}


def grid(melded: dict | None = None, in_hand: dict | None = None) -> dict:
    """A counting grid."""
    return {"melded": melded or {}, "in_hand": in_hand or {}}


OUT = side(natural_canastas=1, mixed_canastas=1, went_out=True, count=200)  # a plain modern side going out
LOSE = side(count=-40)

# fmt: off

# --- Games to score: (name, rule set, sides, first dealer, hands) --------------------------------

def priced_games() -> list[tuple[str, str, list, int, list]]:
    """For each value of the catalogue that prices an entry: a hand with one of that entry (and, for a value
    charged instead of another, one of the other's), every value moved, so the step that prices it shows."""
    games = []
    for value in rules.PRICED:
        names = [value.entry] + ([rules.BY_KEY[value.instead_of].entry] if value.instead_of else [])
        entry = {name: True if name in rules.BOOL_FIELDS else 1 for name in names if name}
        rule_set = "classic_every_value" if value.family == "classic" else "modern_every_value"
        games.append((f"priced: {value.key}", rule_set, FOUR, 0,
                      [hand(side(**entry, count=-40), side(natural_canastas=2, went_out=True, count=100))]))
    return games



GAMES: list[tuple[str, str, list, int, list]] = [
    ("modern: an everyday game", "modern", FOUR, 0, [
        hand(side(red_threes=2, black_threes=1, natural_canastas=1, mixed_canastas=1, went_out=True, count=385),
             side(red_threes=1, mixed_canastas=1, incomplete_sevens=True, count=140)),
        hand(side(red_threes=1, count=-90), side(black_threes=2, natural_canastas=2, went_out=True, count=260)),
        hand(side(sevens_canasta=True, natural_canastas=1, count=300), side(wild_canasta="deuces", mixed_canastas=1,
             went_out=True, perfect_cut=True, count=210)),
    ]),
    ("modern: the Minimum Count rises with the cumulative, two single players", "modern", TWO, 1, [
        hand(side(natural_canastas=4, mixed_canastas=2, went_out=True, count=600), side(count=-300)),
        hand(side(aces_canasta=True, wild_canasta="jokers", natural_canastas=1, went_out=True, count=400),
             side(dirty_sevens=1, incomplete_sevens=True, count=-100)),
    ]),
    ("modern: special hands and every special canasta", "modern", FOUR, 3, [
        hand(side(special_hand="straight", red_threes=2, count=100), side(natural_canastas=1, count=150)),
        hand(side(aces_canasta=True, wild_canasta="mixed", count=95), side(sevens_canasta=True, mixed_canastas=1,
             went_out=True, count=-60)),
        hand(side(natural_canastas=1, incomplete_wild=True, dirty_sevens=2, count=25), side(aces_canasta=True,
             wild_canasta="deuces", went_out=True, count=120)),
    ]),
    ("modern: 3s against a side with no canasta, nothing with one, for it with two", "modern", FOUR, 0, [
        hand(side(red_threes=3, black_threes=4, count=-50), side(red_threes=1, natural_canastas=1, count=120)),
        hand(side(red_threes=2, black_threes=2, natural_canastas=2, went_out=True, count=95), side(count=0)),
    ]),
    ("cla: its own special hands", "cla", FOUR, 2, [
        hand(side(special_hand="triples"), side(natural_canastas=2, count=300)),
        hand(side(special_hand="miami_pairs"), side(mixed_canastas=1, count=50)),
    ]),
    ("cla: played to 3,000, the game ends", "cla_short", FOUR, 0, [
        hand(side(natural_canastas=3, wild_canasta="deuces", went_out=True, count=400), side(count=-100)),
    ]),
    ("wca: bigger wild canastas, 200 for going out, 100 per 3 in hand, all eight 3s", "wca", FOUR, 1, [
        hand(side(red_threes=4, black_threes=4, natural_canastas=2, went_out=True, count=300),
             side(threes_in_hand=0, count=-20)),
        hand(side(mixed_canastas=1, natural_canastas=1, threes_in_hand=2, last_draw_three=True, count=150),
             side(wild_canasta="deuces", natural_canastas=1, went_out=True, count=200)),
        hand(side(wild_canasta="jokers", count=5), side(aces_canasta=True, count=-10)),
        hand(side(red_threes=4, count=-20), side(wild_canasta="mixed", natural_canastas=2, went_out=True, count=100)),
    ]),
    ("wca: wipeout leaves the other side 0 for a special hand", "wca", FOUR, 0, [
        hand(side(natural_canastas=2, red_threes=1, count=200), side(special_hand="deuce_pairs")),
    ]),
    ("wca without wipeout, all eight 3s at 2,500", "wca_no_wipeout", FOUR, 0, [
        hand(side(natural_canastas=2, count=200), side(special_hand="dream_545")),
        hand(side(red_threes=4, black_threes=4, natural_canastas=1, mixed_canastas=1, went_out=True, count=100),
             side(count=-30)),
    ]),
    ("classic: red 3s, concealed going out, the classic penalties", "classic", FOUR, 0, [
        hand(side(red_threes=1, natural_canastas=1, went_out=True, concealed=True, count=150),
             side(red_threes=2, count=-50)),
        hand(side(red_threes=4, count=20), side(mixed_canastas=1, went_out=True, red_threes_in_hand=0,
             failed_go_out_asks=2, failed_pile_takes=1, count=90)),
        hand(side(red_threes=1, has_melded=True, count=0), side(red_threes=2, has_melded=False, red_threes_in_hand=1,
             count=-30)),
    ]),
    ("classic: six players, three partnerships, five and six red 3s", "classic", SIX, 4, [
        hand(side(red_threes=5, natural_canastas=1, went_out=True, count=200), side(count=-40),
             side(red_threes=1, count=60)),
        hand(side(count=-100), side(red_threes=6, mixed_canastas=1, count=100), side(natural_canastas=2,
             went_out=True, count=250)),
        hand(side(red_threes=3, count=-10), side(count=30), side(natural_canastas=1, went_out=True, count=75)),
    ]),
    ("classic: played to 1,500, a game that ends", "classic_short", FOUR, 1, [
        hand(side(natural_canastas=1, mixed_canastas=1, went_out=True, count=100), side(count=10)),
        hand(side(natural_canastas=1, went_out=True, count=300), side(red_threes=1, count=-20)),
    ]),
    ("modern: every value moved, every entry used", "modern_every_value", FOUR, 0, [
        hand(side(red_threes=2, black_threes=1, natural_canastas=1, mixed_canastas=1, went_out=True, count=200),
             side(perfect_cut=True, sevens_canasta=True, incomplete_wild=True, dirty_aces=1, threes_in_hand=2,
                  last_draw_three=True, count=40)),
        hand(side(wild_canasta="deuces", incomplete_sevens=True, incomplete_aces=True, dirty_sevens=1, perfect_cut=True,
                  count=30),
             side(natural_canastas=2, went_out=True, concealed=True, red_threes_in_hand=1, failed_go_out_asks=1,
                  failed_pile_takes=2, count=120)),
        hand(side(wild_canasta="jokers", mixed_canastas=1, went_out=True, red_threes=4, black_threes=3, count=80),
             side(aces_canasta=True, black_threes=1, count=-60)),
        hand(side(count=-5), side(wild_canasta="mixed", natural_canastas=1, count=10)),
    ]),
    ("classic: every value moved, every entry used", "classic_every_value", FOUR, 1, [
        hand(side(red_threes=4, natural_canastas=1, went_out=True, concealed=True, count=160),
             side(red_threes_in_hand=0, mixed_canastas=1, failed_go_out_asks=1, failed_pile_takes=3, count=60)),
        hand(side(red_threes=2, natural_canastas=2, went_out=True, count=90),
             side(red_threes=1, red_threes_in_hand=1, perfect_cut=True, count=-20)),
    ]),
    ("classic: every value moved, three partnerships: five and six red 3s", "classic_every_value", SIX, 0, [
        hand(side(red_threes=5, natural_canastas=1, went_out=True, count=100), side(count=-20),
             side(red_threes=1, perfect_cut=True, count=10)),
        hand(side(perfect_cut=True, count=-5), side(red_threes=6, mixed_canastas=1, went_out=True, count=50),
             side(count=-40)),
    ]),
    ("modern: house Minimum Count bands, negative totals included", "modern_bands", FOUR, 0, [
        hand(side(red_threes=1, count=-150), side(natural_canastas=2, went_out=True, count=600)),
        hand(side(count=-100), side(natural_canastas=2, mixed_canastas=1, went_out=True, count=350)),
        hand(side(natural_canastas=1, mixed_canastas=1, went_out=True, count=400), side(count=-5)),
    ]),
    ("classic: house Minimum Count bands", "classic_bands", TWO, 0, [
        hand(side(natural_canastas=1, went_out=True, count=50), side(count=-30)),
        hand(side(count=-60), side(natural_canastas=1, went_out=True, count=30)),
    ]),
    ("counting grids: no canasta counts every card against the side", "modern", FOUR, 0, [
        hand(side(cards=grid({"jokers": 1, "aces": 3}, {"deuces": 1, "low": 2})),
             side(natural_canastas=2, went_out=True, cards=grid({"jokers": 2, "deuces": 2, "aces": 4, "high": 14,
                                                                   "low": 8}))),
        hand(side(natural_canastas=1, cards=grid({"high": 10}, {"jokers": 1, "low": 3})),
             side(mixed_canastas=2, went_out=True, cards=grid({"deuces": 2, "high": 8, "low": 6}))),
    ]),
    ("counting grids: melded minus in hand by the table's rule", "modern_grid_melded_minus_hand", FOUR, 0, [
        hand(side(cards=grid({"aces": 3, "high": 3}, {"low": 2})), side(natural_canastas=2, went_out=True, count=150)),
    ]),
    ("counting grids: classic black 3s, and no canasta counted against a side", "classic_grid_negative", FOUR, 0, [
        hand(side(natural_canastas=1, went_out=True, cards=grid({"black_threes": 3, "high": 7}, {})),
             side(red_threes=1, cards=grid({"aces": 3}, {"black_threes": 1, "jokers": 1}))),
    ]),
    ("a reported Base stands for the entries", "modern", FOUR, 0, [
        hand(side(reported_base=1285, count=160), side(reported_base=-300, cards=grid({"aces": 3}, {"low": 1}))),
        hand(side(reported_base=0), side(reported_base=800, count=-15)),
    ]),
    ("ties at the target: play on", "modern_short_play_on", FOUR, 0, [
        hand(side(natural_canastas=1, mixed_canastas=1, went_out=True, count=200), side(natural_canastas=2,
             count=100)),
        hand(side(count=0), side(count=0)),
        hand(side(natural_canastas=1, count=0), side(count=-5)),
    ]),
    ("ties at the target: shared", "modern_short_shared", FOUR, 0, [
        hand(side(natural_canastas=1, mixed_canastas=1, went_out=True, count=200), side(natural_canastas=2,
             count=100)),
    ]),
    ("ties at the target: the side that went out wins", "modern_short_went_out", FOUR, 0, [
        hand(side(natural_canastas=1, mixed_canastas=1, went_out=True, count=200), side(natural_canastas=2,
             count=100)),
    ]),
    ("ties at the target: went out, but nobody of the leaders did", "modern_short_went_out", FOUR, 0, [
        hand(side(natural_canastas=2, count=200), side(natural_canastas=2, count=200)),
        hand(side(count=-5), side(count=-5)),
    ]),
    ("ties at the target: three sides, two share the win", "classic_short_shared", SIX, 0, [
        hand(side(natural_canastas=1, went_out=True, count=0), side(natural_canastas=1, count=100),
             side(count=0)),
    ]),
    ("wipeout on a house table, and its special hands", "modern_wipeout", FOUR, 0, [
        hand(side(special_hand="pairs"), side(natural_canastas=2, red_threes=2, count=500)),
        hand(side(natural_canastas=3, count=200), side(special_hand="straight")),
    ]),
    ("three canastas to go out, the perfect cut on the cutter's side", "modern_three_to_go_out", FOUR, 2, [
        hand(side(natural_canastas=2, mixed_canastas=1, went_out=True, red_threes=1, count=120),
             side(black_threes=1, perfect_cut=True, count=-25)),
    ]),
    ("a game without the perfect cut", "modern_no_perfect_cut", FOUR, 0, [
        hand(side(natural_canastas=2, went_out=True, count=100), side(count=0)),
    ]),
    ("a game that has not started", "classic", SIX, 5, []),
    ("three hands, 125 / 155 / 180: no side reaches the target, the higher total wins", "modern_three_hands", FOUR,
     0, [
        hand(side(natural_canastas=1, mixed_canastas=1, went_out=True, count=200), side(natural_canastas=1, count=100)),
        hand(side(mixed_canastas=1, count=50), side(natural_canastas=2, went_out=True, count=150)),
        hand(side(natural_canastas=2, went_out=True, count=300), side(count=-100)),
    ]),
    ("three hands: two played, the game goes on at 180", "modern_three_hands", TWO, 1, [
        hand(side(natural_canastas=1, mixed_canastas=1, went_out=True, count=200), side(natural_canastas=1, count=100)),
        hand(side(mixed_canastas=1, count=50), side(natural_canastas=2, went_out=True, count=150)),
    ]),
    ("three hands: a side reaches the target in hand 2", "modern_three_hands", FOUR, 0, [
        hand(side(natural_canastas=4, mixed_canastas=2, went_out=True, count=600), side(count=-300)),
        hand(side(sevens_canasta=True, aces_canasta=True, natural_canastas=1, went_out=True, count=300),
             side(natural_canastas=1, count=100)),
    ]),
    ("three hands: tied after the last, nothing left to play on, shared", "modern_three_hands", FOUR, 0, [
        hand(side(natural_canastas=1, mixed_canastas=1, went_out=True, count=200), side(natural_canastas=2, count=100)),
        hand(side(count=0), side(count=0)),
        hand(side(mixed_canastas=1, count=50), side(mixed_canastas=1, count=50)),
    ]),
    ("three hands: tied after the last, the side that went out wins", "modern_three_hands_went_out", FOUR, 0, [
        hand(side(natural_canastas=1, mixed_canastas=1, went_out=True, count=200), side(natural_canastas=2, count=100)),
        hand(side(count=0), side(count=0)),
        hand(side(natural_canastas=1, mixed_canastas=1, went_out=True), side(natural_canastas=1, mixed_canastas=1,
             count=100)),
    ]),
    ("two hands by the bands: the game ends after the second", "modern_two_hands_bands", FOUR, 0, [
        hand(side(natural_canastas=4, mixed_canastas=2, went_out=True, count=600), side(count=-300)),
        hand(side(count=-50), side(natural_canastas=2, went_out=True, count=100)),
    ]),
    ("classic: Minimum Counts by hand, played to the target", "classic_by_hand", FOUR, 0, [
        hand(side(natural_canastas=1, went_out=True, count=50), side(count=-30)),
        hand(side(count=-60), side(natural_canastas=1, went_out=True, count=30)),
        hand(side(count=-5), side(natural_canastas=1, went_out=True, count=0)),
    ]),
]

# Games moved in from paper: each side's total brought forward, by the game's name (docs/api.md).
BROUGHT_FORWARD: dict[str, list[int]] = {
    "modern: brought forward from paper, 3,000 and 1,500, ends at 5,600": [3000, 1500],
}
GAMES.append(
    ("modern: brought forward from paper, 3,000 and 1,500, ends at 5,600", "modern_to_5000", FOUR, 0, [
        hand(side(natural_canastas=2, went_out=True, count=400), side(mixed_canastas=1, count=100)),
        hand(side(natural_canastas=1, mixed_canastas=1, went_out=True, count=200), side(mixed_canastas=1, count=50)),
    ])
)

# --- Hands to check: (name, rule set, sides, hands already played, position, hand body) ----------------

CHECKS: list[tuple[str, str, list, list, int, Any]] = [
    # Accepted hands
    ("accepted: a plain modern hand", "modern", FOUR, [], 0, hand(OUT, LOSE)),
    ("accepted: a special hand keeps the side's other entries", "wca", FOUR, [], 0,
     hand(side(special_hand="pairs", red_threes=9, count=7), side(natural_canastas=1, count=50))),
    ("accepted: a replaced hand in the middle of a game", "modern", FOUR, [hand(OUT, LOSE), hand(LOSE, OUT)], 0,
     hand(LOSE, OUT)),
    # §5.15 shape
    ("shape: not a hand", "modern", FOUR, [], 0, [1, 2]),
    ("shape: sides is not a list", "modern", FOUR, [], 0, {"sides": {"0": {}}}),
    ("shape: one entry short", "modern", FOUR, [], 0, {"sides": [OUT], "dealer": 3, "remark": "x"}),
    ("shape: a side's entry is not an object", "modern", FOUR, [], 0, {"sides": [OUT, 5]}),
    ("shape: unknown fields and wrong types", "modern", FOUR, [], 0,
     hand(side(red_treys=1, natural_canastas=1.5, went_out="yes", wild_canasta=7, special_hand=True,
               has_melded=1, count=1_000_000, result={"base": 1}),
          side(**{"it's": 1, "back\\slash": 1}, reported_base="100", black_threes=None))),
    ("shape: counting grids", "modern", FOUR, [], 0,
     hand(side(cards=[1]), side(cards={"melded": {"jokers": "2", "kings": 1, "aces": 2.5}, "in_hand": 3,
                                          "hand": {}}))),
    # The game's state
    ("game over: no hand can follow", "cla_short", FOUR,
     [hand(side(natural_canastas=3, wild_canasta="deuces", went_out=True, count=400), LOSE)], 1, hand(OUT, LOSE)),
    ("game over: a finished game still takes a corrected hand", "cla_short", FOUR,
     [hand(side(natural_canastas=3, wild_canasta="deuces", went_out=True, count=400), LOSE)], 0, hand(LOSE, OUT)),
    ("game over: no hand follows the last of three", "modern_three_hands", FOUR,
     [hand(OUT, LOSE), hand(LOSE, OUT), hand(OUT, LOSE)], 3, hand(OUT, LOSE)),
    ("game over: the last of three still takes a correction", "modern_three_hands", FOUR,
     [hand(OUT, LOSE), hand(LOSE, OUT), hand(OUT, LOSE)], 2, hand(LOSE, OUT)),
    ("a game holds at most 200 hands", "modern", FOUR, [hand(side(), side())] * 200, 200, hand(OUT, LOSE)),
    ("hand number: there is no such hand", "modern", FOUR, [hand(OUT, LOSE)], 3, hand(OUT, LOSE)),
    ("hands in order: a correction that ends the game early", "cla_short", FOUR,
     [hand(OUT, LOSE), hand(LOSE, OUT), hand(OUT, LOSE)], 0,
     hand(side(natural_canastas=3, wild_canasta="deuces", went_out=True, count=400), LOSE)),
    ("hands in order: a correction that ends the game early, one hand after it", "cla_short", FOUR,
     [hand(OUT, LOSE), hand(LOSE, OUT)], 0,
     hand(side(natural_canastas=3, wild_canasta="deuces", went_out=True, count=400), LOSE)),
    # §5.10 only what the game has
    ("only what the game has: black 3s and specials in classic", "classic", FOUR, [], 0,
     hand(side(black_threes=1, sevens_canasta=True, wild_canasta="deuces", natural_canastas=1, went_out=True,
               count=100), side(special_hand="pairs", incomplete_aces=True, dirty_sevens=1, threes_in_hand=1,
                                last_draw_three=True))),
    ("only what the game has: classic penalties in modern", "modern", FOUR, [], 0,
     hand(side(has_melded=True, concealed=True, red_threes_in_hand=1, natural_canastas=2, went_out=True, count=100),
          side(failed_go_out_asks=1, failed_pile_takes=1, count=-20))),
    ("only what the game has: a table that plays no special canasta", "modern_no_specials", FOUR, [], 0,
     hand(side(aces_canasta=True, wild_canasta="jokers", natural_canastas=1, count=100),
          side(special_hand="pairs"))),
    # §5.1 numbers in range
    ("numbers in range: 3s, negatives, dirty players, asks", "classic", TWO, [], 0,
     hand(side(red_threes=5, natural_canastas=-1, mixed_canastas=1, went_out=True, failed_go_out_asks=51,
               count=100),
          side(red_threes=-1, red_threes_in_hand=5, failed_pile_takes=60, failed_go_out_asks=-2))),
    ("numbers in range: dirty players and black 3s", "modern", TWO, [], 0,
     hand(side(dirty_sevens=2, dirty_aces=-1, black_threes=5, count=-20), side(threes_in_hand=-1, count=0))),
    ("numbers in range: three decks", "classic", SIX, [], 0,
     hand(side(red_threes=7), side(count=0), side(red_threes_in_hand=7))),
    # §5.10 wild canastas and special hands
    ("wild canasta: an unknown kind", "modern", FOUR, [], 0, hand(side(wild_canasta="sevens", count=0), LOSE)),
    ("wild canasta: a kind this table does not play", "modern_no_mixed_wild", FOUR, [], 0,
     hand(side(wild_canasta="mixed", natural_canastas=1, count=50), LOSE)),
    ("special hand: not allowed in this game", "modern", FOUR, [], 0,
     hand(side(special_hand="miami_pairs"), LOSE)),
    ("special hand: not in the catalogue", "cla", FOUR, [], 0, hand(LOSE, side(special_hand="BIG_hand"))),
    # §5.1 last card, §5.5 closed and unfinished
    ("last card: a 3 left in hand", "wca", FOUR, [], 0,
     hand(side(last_draw_three=True, count=-20), side(natural_canastas=2, went_out=True, count=100))),
    ("closed and unfinished: every special meld", "modern", FOUR, [], 0,
     hand(side(sevens_canasta=True, incomplete_sevens=True, aces_canasta=True, incomplete_aces=True, count=100),
          side(wild_canasta="jokers", incomplete_wild=True, count=50))),
    # §5.12 reported Base
    ("reported Base: with other entries, not in fives", "modern", FOUR, [], 0,
     hand(side(reported_base=502, red_threes=1, went_out=True, count=100), side(reported_base=-5, count=0))),
    ("reported Base: beyond what the game allows", "modern", FOUR, [], 0,
     hand(side(reported_base=99_995, count=0), side(reported_base=-99_995, count=0))),
    ("reported Base: classic limits", "classic_every_value", SIX, [], 0,
     hand(side(reported_base=-50_000), side(reported_base=60_000), side(reported_base=-1285))),
    ("reported Base: every value's limits", "modern_every_value", TWO, [], 0,
     hand(side(reported_base=-60_000), side(reported_base=60_000))),
    # §5.4 going out
    ("going out: two canastas, nothing unfinished", "modern", FOUR, [], 0,
     hand(side(natural_canastas=1, went_out=True, incomplete_wild=True, count=50), LOSE)),
    ("going out: three canastas at this table", "modern_three_to_go_out", FOUR, [], 0,
     hand(side(natural_canastas=2, went_out=True, count=50), LOSE)),
    ("going out: classic needs a canasta", "classic", FOUR, [], 0, hand(side(went_out=True, count=50), LOSE)),
    # §4 melded, §5.10 concealed
    ("melded: a side with a canasta has melded", "classic", FOUR, [], 0,
     hand(side(has_melded=False, natural_canastas=1, went_out=True, count=50), side(concealed=True, count=-10))),
    # §5.9 perfect cut
    ("perfect cut: only the cutter's side", "modern", FOUR, [hand(OUT, LOSE)], 1,
     hand(side(count=-5), side(perfect_cut=True, natural_canastas=2, went_out=True, count=100))),
    ("perfect cut: the cutter's side takes it", "modern", FOUR, [], 0,
     hand(side(count=-5), side(perfect_cut=True, natural_canastas=2, went_out=True, count=100))),
    ("perfect cut: not played at this table", "modern_no_perfect_cut", FOUR, [], 0,
     hand(side(count=-5), side(perfect_cut=True, natural_canastas=2, went_out=True, count=100))),
    ("perfect cut: not played in classic", "classic", SIX, [], 0,
     hand(side(perfect_cut=True, count=-5), side(count=0), side(perfect_cut=True, natural_canastas=1, went_out=True,
                                                                  count=100))),
    # §5.8 counting grid
    ("counting grid: with a Count, black 3s in modern, negative, beyond the pack", "modern", FOUR, [], 0,
     hand(side(count=10, cards=grid({"black_threes": 1, "jokers": -1}, {"high": 49})),
          side(natural_canastas=2, cards=grid({"aces": 9, "low": 33, "jokers": 5})))),
    ("counting grid: three decks", "classic", SIX, [], 0,
     hand(side(cards=grid({"black_threes": 7, "jokers": 6})), side(cards=grid({"deuces": 13}, {"high": 73})),
          side(count=0))),
    # §5.7 the Count
    ("Count: in fives", "modern", FOUR, [], 0, hand(side(count=-12), side(natural_canastas=2, went_out=True,
                                                                         count=101))),
    ("Count: no more than the pack", "modern", FOUR, [], 0, hand(side(count=-1_165), side(natural_canastas=2,
                                                                                         count=1_165))),
    ("Count: classic pack and a counted grid", "classic", SIX, [], 0,
     hand(side(count=1_775), side(count=-1_775), side(count=1_770))),
    ("Count: above 0 without a canasta", "modern", FOUR, [], 0,
     hand(side(count=5), side(cards=grid({"aces": 3}), natural_canastas=0))),
    ("Count: a reported Base may have any Count", "modern", FOUR, [], 0,
     hand(side(reported_base=300, count=80), side(count=-20))),
    # §5.2 3s in the pack
    ("3s in the pack: red, black and all", "wca", FOUR, [], 0,
     hand(side(red_threes=3, black_threes=3, threes_in_hand=1, natural_canastas=2, count=50),
          side(red_threes=2, black_threes=2, count=0))),
    ("3s in the pack: classic red 3s in hand", "classic", FOUR, [], 0,
     hand(side(red_threes=3, natural_canastas=1, count=50), side(red_threes_in_hand=2, count=0))),
    # §5.3 one way to end
    ("one way to end: two sides out", "modern", FOUR, [], 0, hand(OUT, OUT)),
    ("one way to end: two special hands", "cla", FOUR, [], 0,
     hand(side(special_hand="pairs"), side(special_hand="quads"))),
    ("one way to end: a special hand and going out", "modern", FOUR, [], 0,
     hand(side(special_hand="pairs", went_out=True, natural_canastas=2), OUT)),
    ("one way to end: three sides out", "classic", SIX, [], 0,
     hand(*[side(natural_canastas=1, went_out=True, count=50)] * 3)),
    # §5.5, §5.9 one of a kind
    ("one of a kind: every special canasta and the last card twice", "wca", FOUR, [], 0,
     hand(side(sevens_canasta=True, aces_canasta=True, wild_canasta="deuces", threes_in_hand=1, last_draw_three=True,
               count=50),
          side(sevens_canasta=True, aces_canasta=True, wild_canasta="jokers", threes_in_hand=1, last_draw_three=True,
               count=50))),
    ("one of a kind: two perfect cuts", "modern", FOUR, [], 0,
     hand(side(perfect_cut=True, count=0), side(perfect_cut=True, natural_canastas=2, went_out=True, count=50))),
    # §5.6 canastas the pack can make
    ("canastas: modern two decks", "modern", FOUR, [], 0,
     hand(side(natural_canastas=8, mixed_canastas=2, count=100), side(natural_canastas=1, count=50))),
    ("canastas: modern with a pure aces canasta", "modern", FOUR, [], 0,
     hand(side(natural_canastas=9, aces_canasta=True, count=100), side(mixed_canastas=1, count=50))),
    ("canastas: modern just enough", "modern", FOUR, [], 0,
     hand(side(natural_canastas=5, count=100), side(natural_canastas=5, count=50))),
    ("canastas: classic two decks, too many natural", "classic", FOUR, [], 0,
     hand(side(natural_canastas=6, count=100), side(natural_canastas=6, count=50))),
    ("canastas: classic two decks, too many mixed for the wild cards", "classic", FOUR, [], 0,
     hand(side(mixed_canastas=8, count=100), side(mixed_canastas=5, count=50))),
    ("canastas: classic three decks, enough wild cards", "classic", SIX, [], 0,
     hand(side(natural_canastas=11, count=100), side(mixed_canastas=3, count=50), side(count=0))),
    ("canastas: classic three decks, too few wild cards for the mixed canastas", "classic", SIX, [], 0,
     hand(side(natural_canastas=11, count=100), side(mixed_canastas=11, count=50), side(count=0))),
    ("canastas: classic three decks, one too many", "classic", SIX, [], 0,
     hand(side(natural_canastas=11, count=100), side(mixed_canastas=12, count=50), side(mixed_canastas=1,
                                                                                     count=0))),
    ("canastas: classic, wild-card canastas use up the wild cards (no canasta entry to name)", "classic", FOUR, [],
     0, hand(side(wild_canasta="deuces", count=0), side(wild_canasta="jokers", count=0))),
    # §5.8 the cards of the pack
    ("cards: too many sevens, aces and wild cards", "modern", FOUR, [], 0,
     hand(side(sevens_canasta=True, dirty_aces=2, incomplete_wild=True, mixed_canastas=3, count=50),
          side(incomplete_sevens=True, aces_canasta=True, dirty_sevens=1, wild_canasta="deuces", count=50))),
    ("cards: three decks hold more", "classic", SIX, [], 0,
     hand(side(mixed_canastas=8, count=100), side(mixed_canastas=8, count=50), side(mixed_canastas=3, count=0))),
    ("cards: the counting grids together", "classic", FOUR, [], 0,
     hand(side(cards=grid({"jokers": 3, "aces": 4}, {"black_threes": 2})),
          side(cards=grid({"jokers": 2, "aces": 5, "low": 1}, {"black_threes": 3, "deuces": 0})))),
]

# fmt: on


def rule_sets() -> dict[str, dict]:
    """Each named rule set complete, as a stored game keeps it."""
    return {name: rules.rules_json(rules.make_rules(preset, **house)) for name, (preset, house) in RULE_SETS.items()}


def game_of(name: str, rule_set: dict, sides: list, first_dealer: int, hands: list) -> dict:
    """A game document (every played hand must be one the rules accept: checked when the API stores it)."""
    return {
        "format": document.FORMAT,
        "version": document.VERSION,
        "rules": rule_set,
        "sides": sides,
        "first_dealer": first_dealer,
        **({"brought_forward": BROUGHT_FORWARD[name]} if name in BROUGHT_FORWARD else {}),
        "hands": hands,
    }


class Api:
    """The JSON API of a throw-away app (on a temporary SQLite file): the answers a phone would get."""

    def __init__(self, folder: str) -> None:
        database = f"sqlite:///{folder}/games.sqlite"
        app = create_app({"SECRET_KEY": "vectors", "SQLALCHEMY_DATABASE_URI": database, "RATELIMIT_ENABLED": False})
        app.logger.disabled = True  # a refused hand is logged: not what this script is for
        self.client = app.test_client()

    def create(self, name: str, game: dict) -> tuple[str, dict, dict]:
        """Store a game: its id, the Authorization header for it, and its document as GET returns it."""
        created = self.client.post("/api/games", json=game)
        if created.status_code != 201:
            raise SystemExit(f"Vector {name!r} plays a hand the API refuses: {created.get_json()}")
        game_id = created.get_json()["id"]
        auth = {"Authorization": f"Bearer {created.get_json()['edit_token']}"}
        return game_id, auth, self.client.get(f"/api/games/{game_id}").get_json()

    def problems(self, name: str, game: dict, position: int, body: Any, language: str = "en") -> list[dict]:
        """The API's errors for this hand body POSTed as the next hand, or PUT in place of hand `position`, in
        `language` (Accept-Language)."""
        game_id, auth, _ = self.create(name, game)
        auth = {**auth, "Accept-Language": language}
        if position == len(game["hands"]):
            answer = self.client.post(f"/api/games/{game_id}/hands", json=body, headers=auth)
        else:
            answer = self.client.put(f"/api/games/{game_id}/hands/{position}", json=body, headers=auth)
        return [] if answer.status_code in (200, 201) else answer.get_json()["errors"]


def scores(document_read: dict) -> dict:
    """The figures of a game document as GET gives them, in the shape rules.js returns them."""
    return {
        "hands": [{"dealer": h["dealer"], "sides": [s["result"] for s in h["sides"]]} for h in document_read["hands"]],
        **{key: document_read[key] for key in ("totals", "min_count", "next_dealer", "status", "winner", "winners")},
    }


def with_involves(errors: list[dict], game: dict, position: int, body: Any) -> list[dict]:
    """The API's errors, a whole-hand problem also naming each side's field involved (as rules.Problem does)."""
    parsed = document.parse_document(game)
    try:
        document.check_hand(parsed.rules, parsed.table, body, position)
        problems: tuple[rules.Problem, ...] = ()
    except rules.RuleError as error:
        problems = error.problems
    out = []
    for i, error_json in enumerate(errors):
        problem = problems[i] if i < len(problems) else None
        if problem is not None and problem.involves and problem.message == error_json["message"]:
            error_json = {**error_json, "involves": [document.field_name(path) for path in problem.involves]}
        out.append(error_json)
    return out


def checks_refusing(game_data: dict, position: int, body: Any) -> list[str]:
    """The names of the checks of the rules that refuse this hand body (coverage: every check refuses one)."""
    game = document.parse_document(game_data)
    hand, shape = document.parse_hand(body, len(game.table.sides))
    if shape or not 0 <= position <= len(game.hands):
        return []
    game_rules, table = game.rules, game.table
    names = []
    for i, entry in enumerate(hand.sides):
        side = rules._Side(game_rules, table, i, entry, position)
        checks = rules.SIDE_CHECKS
        if entry.special_hand is None or not game_rules.modern:  # as rules._side_problems chooses
            checks += rules.CONSISTENCY_CHECKS + (() if entry.reported_base is not None else rules.ENTRY_CHECKS)
            checks += rules.COUNT_CHECKS
        names += [check.__name__ for check in checks if any(True for _ in check(side))]
    counted = rules.Hand(tuple(rules.counted(entry) for entry in hand.sides))
    names += [
        check.__name__ for check in rules.HAND_CHECKS if any(True for _ in check(game_rules, table, counted, position))
    ]
    return sorted(set(names))


def vectors() -> dict:
    """Every vector with what the Python side makes of it."""
    sets = rule_sets()
    # In memory where the system offers it: SQLite's syncs to a disk would cost seconds for a throw-away file.
    with tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None) as folder:
        api = Api(folder)
        games = [game_vector(api, sets, *vector) for vector in GAMES + priced_games()]
        checks = [check_vector(api, sets, *vector) for vector in CHECKS]
    return {
        "about": f"Made by scripts/rule_vectors.py from the Python rules: do not edit; run {COMMAND}.",
        "rule_sets": sets,
        "games": games,
        "checks": checks,
    }


def game_vector(api: Api, sets: dict, name: str, rule_set: str, sides: list, first_dealer: int, hands: list) -> dict:
    """A game to score, with the figures GET gives it."""
    _, _, read = api.create(name, game_of(name, sets[rule_set], sides, first_dealer, hands))
    return {
        "name": name,
        "rules": rule_set,
        "sides": sides,
        "first_dealer": first_dealer,
        **({"brought_forward": BROUGHT_FORWARD[name]} if name in BROUGHT_FORWARD else {}),
        "hands": hands,
        "expected": scores(read),
    }


def check_vector(api: Api, sets: dict, name: str, rule_set: str, sides: list, played: list, position: int, body: Any):
    """A hand to check, with the API's answer (errors) and the checks of the rules that refuse it."""
    game = game_of(name, sets[rule_set], sides, 0, played)
    return {
        "name": name,
        "rules": rule_set,
        "sides": sides,
        "first_dealer": 0,
        "hands": played,
        "position": position,
        "hand": body,
        "expected": with_involves(api.problems(name, game, position, body), game, position, body),
        "checks": checks_refusing(game, position, body),
        # The same messages as a Spanish phone gets them (the phone says them with the same templates, in Spanish).
        "expected_es": [problem["message"] for problem in api.problems(name, game, position, body, "es")],
    }


def text() -> str:
    """The file's text, as committed."""
    return json.dumps(vectors(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text(), encoding="utf-8")
    print(f"Wrote {OUTPUT.relative_to(ROOT)}")
