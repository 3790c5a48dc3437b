"""The scoring rules (docs/rules.md), checked against figures worked out by hand.

Every expected figure below was derived from docs/rules.md with pencil
arithmetic (the comment beside each case shows the sum), never from the code.

Tables used throughout:
  FOUR  two partnerships; seats clockwise Ann(s0) Bea(s1) Cleo(s0) Dot(s1)
  TWO   two single players; seats Ann(s0) Bea(s1)
  SIX   classic three sides of two; seats a1 b1 c1 a2 b2 c2 (seat % 3 = side)
With first_dealer 0, hand 0 is dealt by seat 0 and cut by the previous seat
(counter-clockwise, the dealer's right): seat 3 on FOUR = side 1.  Hand 1 is dealt by
seat 1 and cut by seat 0 = side 0.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorepad.rules import (
    CardCounts,
    Cards,
    Hand,
    Problem,
    RuleError,
    Side,
    SideEntry,
    Table,
    check_hand,
    check_table,
    make_rules,
    minimum_count,
    rules_from_json,
    rules_json,
    score_game,
    score_hand,
    settle_up,
)

E = SideEntry
FOUR = Table(sides=(Side("Us", ("Ann", "Cleo")), Side("Them", ("Bea", "Dot"))))
TWO = Table(sides=(Side("Ann", ("Ann",)), Side("Bea", ("Bea",))))
SIX = Table(sides=(Side("A", ("a1", "a2")), Side("B", ("b1", "b2")), Side("C", ("c1", "c2"))))
MODERN_PRESETS = ("modern", "cla", "wca")
ALL_PRESETS = ("modern", "cla", "wca", "classic")


def hand(*entries: SideEntry) -> Hand:
    return Hand(sides=tuple(entries))


def grid(melded: dict | None = None, in_hand: dict | None = None) -> Cards:
    return Cards(melded=CardCounts(**(melded or {})), in_hand=CardCounts(**(in_hand or {})))


def problem_paths(error: RuleError) -> set[tuple]:
    return {tuple(p.path) for p in error.problems}


def refusal_paths(rules, table, h, hand_index=0) -> set[tuple]:
    with pytest.raises(RuleError) as caught:
        check_hand(rules, table, h, hand_index)
    assert caught.value.problems, "a RuleError must carry its problems"
    for problem in caught.value.problems:
        assert isinstance(problem, Problem)
        assert isinstance(problem.message, str) and problem.message.strip()
    return problem_paths(caught.value)


def score_one(preset, entry, *, side=0, table=FOUR, hand_index=0, **overrides):
    """Score `entry` for `side`, every other side reporting nothing."""
    rules = make_rules(preset, **overrides)
    entries = [E()] * len(table.sides)
    entries[side] = entry
    return score_hand(rules, table, hand(*entries), hand_index).sides[side]


# ---------------------------------------------------------------------------
# Presets and their settings
# ---------------------------------------------------------------------------

SPECIAL_HANDS = {
    "modern": {"straight": 3000, "pairs": 2500, "wild_pairs": 2000, "pungs_kongs": 2000, "zip_code": 2500},
    "cla": {
        "pairs": 2500,
        "wild_pairs": 2000,
        "miami_pairs": 2500,
        "pungs_kongs": 3000,
        "zip_code": 2500,
        "blast_off": 3000,
        "triples": 3500,
        "quads": 3500,
        "dream_4": 8500,
        "dream_5": 8500,
    },
    "wca": {
        "straight": 3000,
        "pairs": 3000,
        "wild_pairs": 3000,
        "miami_pairs": 3000,
        "pungs_kongs": 3000,
        "zip_code": 3000,
        "blast_off": 3000,
        "triples": 3000,
        "quads": 3000,
        "dream_545": 3000,
        "deuce_pairs": 3000,
    },
    "classic": {},
}
CATALOGUE = (
    "straight",
    "pairs",
    "wild_pairs",
    "miami_pairs",
    "pungs_kongs",
    "zip_code",
    "blast_off",
    "triples",
    "quads",
    "dream_4",
    "dream_5",
    "dream_545",
    "deuce_pairs",
)


@pytest.mark.parametrize(
    "preset, target, wipeout, perfect_cut",
    [
        ("modern", 8500, False, True),  # §1 target 8,500; wipeout optional; cut on in modern presets
        ("cla", 8500, False, True),
        ("wca", 8500, True, True),  # wipeout "on in wca"
        ("classic", 5000, False, False),  # §4 target 5,000; no perfect cut in classic's Base
    ],
)
def test_each_preset_has_its_default_settings(preset, target, wipeout, perfect_cut):
    rules = make_rules(preset)
    assert rules.preset == preset
    assert rules.target == target
    assert rules.wipeout is wipeout
    assert rules.perfect_cut is perfect_cut


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_each_preset_lists_exactly_the_special_hands_of_its_column(preset):
    rules = make_rules(preset)
    assert dict(rules.special_hands) == SPECIAL_HANDS[preset]
    for key in CATALOGUE:
        assert rules.special_hand_value(key) == SPECIAL_HANDS[preset].get(key)


def test_a_game_can_override_the_preset_settings():
    rules = make_rules(
        "modern", target=10000, wipeout=True, perfect_cut=False, special_hands={"pairs": 4000, "dream_545": 5000}
    )
    assert (rules.target, rules.wipeout, rules.perfect_cut) == (10000, True, False)
    assert dict(rules.special_hands) == {"pairs": 4000, "dream_545": 5000}
    assert rules.special_hand_value("pairs") == 4000
    assert rules.special_hand_value("straight") is None  # the given list replaces the preset's


def test_an_empty_special_hand_list_allows_none():
    rules = make_rules("wca", special_hands={})
    assert all(rules.special_hand_value(key) is None for key in CATALOGUE)


def test_an_unknown_preset_is_refused():
    with pytest.raises(RuleError) as caught:
        make_rules("bridge")
    assert ("rules", "preset") in problem_paths(caught.value)


def test_an_unknown_special_hand_key_is_refused():
    with pytest.raises(RuleError) as caught:
        make_rules("modern", special_hands={"pairs": 2500, "royal_flush": 5000})
    assert ("rules", "special_hands", "royal_flush") in problem_paths(caught.value)


@pytest.mark.parametrize(
    "overrides",
    [
        {"target": -500},  # a target below zero makes no game
        {"special_hands": {"pairs": 2501}},  # all points are multiples of 5
        {"special_hands": {"pairs": -2500}},  # a hand's value cannot be negative
    ],
)
def test_bad_rule_values_are_refused(overrides):
    with pytest.raises(RuleError):
        make_rules("modern", **overrides)


# ---------------------------------------------------------------------------
# Seats, dealer and cutter
# ---------------------------------------------------------------------------


def test_seats_alternate_between_the_sides():
    assert [FOUR.side_of_seat(s) for s in range(4)] == [0, 1, 0, 1]
    assert [TWO.side_of_seat(s) for s in range(2)] == [0, 1]
    assert [SIX.side_of_seat(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize(
    "table, first_dealer, hand_index, dealer, cutter_side",
    [
        (FOUR, 0, 0, 0, 1),  # cutter = seat 3 (Dot) → side 1
        (FOUR, 0, 1, 1, 0),  # cutter = seat 0 (Ann) → side 0
        (FOUR, 0, 3, 3, 0),  # cutter = seat 2 (Cleo) → side 0
        (FOUR, 0, 4, 0, 1),  # deal wraps round: (0+4)%4 = 0
        (FOUR, 2, 0, 2, 1),  # cutter = seat 1 (Bea) → side 1
        (FOUR, 2, 1, 3, 0),  # cutter = seat 2 (Cleo) → side 0
        (FOUR, 2, 5, 3, 0),  # (2+5)%4 = 3 → cutter seat 2 → side 0
        (TWO, 0, 0, 0, 1),  # 2 seats: cutter = seat 1 → side 1
        (TWO, 1, 0, 1, 0),  # dealer seat 1, cutter seat 0 → side 0
        (TWO, 1, 1, 0, 1),  # (1+1)%2 = 0, cutter seat 1 → side 1
        (SIX, 0, 0, 0, 2),  # cutter = seat 5 (c2) → side 2
        (SIX, 0, 1, 1, 0),  # cutter = seat 0 (a1) → side 0
        (SIX, 0, 3, 3, 2),  # cutter = seat 2 (c1) → side 2
        (SIX, 4, 4, 2, 1),  # (4+4)%6 = 2, cutter seat 1 (b1) → side 1
    ],
)
def test_the_deal_passes_clockwise_and_the_dealers_right_cuts(table, first_dealer, hand_index, dealer, cutter_side):
    table = Table(sides=table.sides, first_dealer=first_dealer)
    assert table.dealer(hand_index) == dealer
    assert table.cutter_side(hand_index) == cutter_side


def test_a_scored_hand_names_its_dealer():
    table = Table(sides=FOUR.sides, first_dealer=2)
    scored = score_hand(make_rules("modern"), table, hand(E(), E()), hand_index=5)
    assert scored.dealer == 3  # (2 + 5) % 4


@pytest.mark.parametrize(
    "preset, table",
    [
        ("modern", FOUR),
        ("modern", TWO),
        ("cla", FOUR),
        ("wca", TWO),
        ("classic", FOUR),
        ("classic", TWO),
        ("classic", SIX),
        ("modern", Table(sides=FOUR.sides, first_dealer=3)),
        ("classic", Table(sides=SIX.sides, first_dealer=5)),
    ],
)
def test_a_proper_table_passes(preset, table):
    assert check_table(make_rules(preset), table) is None


@pytest.mark.parametrize(
    "preset, table",
    [
        ("modern", SIX),  # 3 sides: classic only
        ("wca", SIX),
        ("modern", Table(sides=(Side("Us", ("Ann", "Cleo")), Side("Bea", ("Bea",))))),  # unequal
        ("modern", Table(sides=(Side("Us", ("A", "B", "C")), Side("Them", ("D", "E", "F"))))),
        ("modern", Table(sides=(Side("Us", ("Ann", "Cleo")),))),  # one side
        ("modern", Table(sides=(Side("Us", ()), Side("Them", ())))),  # nobody plays
        ("classic", Table(sides=(Side("A", ("a",)), Side("B", ("b",)), Side("C", ("c",))))),
        ("classic", Table(sides=FOUR.sides * 2)),  # four sides
        ("modern", Table(sides=FOUR.sides, first_dealer=4)),  # seats are 0..3
        ("modern", Table(sides=FOUR.sides, first_dealer=-1)),
        ("modern", Table(sides=TWO.sides, first_dealer=2)),  # seats are 0..1
        ("classic", Table(sides=SIX.sides, first_dealer=6)),  # seats are 0..5
    ],
)
def test_an_improper_table_is_refused(preset, table):
    with pytest.raises(RuleError):
        check_table(make_rules(preset), table)


# ---------------------------------------------------------------------------
# Base, modern presets: threes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset, entry, base",
    [
        # no canasta: the threes are subtracted
        ("modern", E(red_threes=1), -100),  # −100
        ("modern", E(black_threes=2), -300),  # −300
        ("modern", E(red_threes=3, black_threes=2), -800),  # −(500+300)
        ("modern", E(red_threes=4, black_threes=4), -2000),  # −(1000+1000)
        ("cla", E(red_threes=4, black_threes=4), -2000),  # −(1000+1000)
        ("wca", E(red_threes=4, black_threes=4), -3000),  # wca all eight: −3000
        ("wca", E(red_threes=4, black_threes=3), -1500),  # −(1000+500), not all eight
        # exactly one canasta (of any kind): the threes count zero
        ("modern", E(red_threes=4, natural_canastas=1), 500),  # 0 + natural 500
        ("modern", E(red_threes=2, black_threes=3, mixed_canastas=1), 300),  # 0 + mixed 300
        ("modern", E(red_threes=2, sevens_canasta=True), 2500),  # special canasta is the one: 0 + 2500
        ("modern", E(black_threes=4, wild_canasta="mixed"), 2000),  # 0 + wild mix 2000
        ("wca", E(red_threes=4, black_threes=4, natural_canastas=1), 500),  # 0 + 500
        # two or more canastas: the threes are added
        ("modern", E(red_threes=1, natural_canastas=2), 1100),  # 100 + 2×500
        ("modern", E(red_threes=2, natural_canastas=1, mixed_canastas=1), 1100),  # 300 + 500+300
        ("modern", E(red_threes=3, natural_canastas=1, mixed_canastas=1), 1300),  # 500 + 800
        ("modern", E(red_threes=4, natural_canastas=2), 2000),  # 1000 + 1000
        ("modern", E(red_threes=2, black_threes=4, natural_canastas=2), 2300),  # 300+1000 + 1000
        ("cla", E(black_threes=3, mixed_canastas=2), 1100),  # 500 + 2×300
        ("modern", E(red_threes=4, black_threes=4, natural_canastas=2), 3000),  # 2000 + 1000
        ("cla", E(red_threes=4, black_threes=4, natural_canastas=2), 3000),  # 2000 + 1000
        ("wca", E(red_threes=4, black_threes=4, natural_canastas=2), 4000),  # wca 3000 + 1000
        ("wca", E(red_threes=4, black_threes=3, natural_canastas=2), 2500),  # 1000+500 + 1000
        ("modern", E(red_threes=2, sevens_canasta=True, aces_canasta=True), 5300),  # 300 + 2500+2500
        ("modern", E(black_threes=1, mixed_canastas=1, wild_canasta="jokers"), 2900),  # 100 + 300+2500
    ],
)
def test_threes_follow_the_schedule_and_the_canasta_sign(preset, entry, base):
    assert score_one(preset, entry).base == base


def test_threes_are_negative_without_a_canasta():
    # 2 red 300 + 1 black 100, no canasta → −400; count −35 → total −435
    scored = score_one("modern", E(red_threes=2, black_threes=1, count=-35))
    assert (scored.base, scored.count, scored.total) == (-400, -35, -435)


# ---------------------------------------------------------------------------
# Base, modern presets: canastas, going out, perfect cut
# ---------------------------------------------------------------------------

CANASTA_VALUES = [
    # (field values, modern, cla, wca) — the §3 canasta table, one canasta each
    ({"natural_canastas": 1}, 500, 500, 500),
    ({"mixed_canastas": 1}, 300, 300, 300),
    ({"sevens_canasta": True}, 2500, 2500, 2500),
    ({"aces_canasta": True}, 2500, 2500, 2500),
    ({"wild_canasta": "deuces"}, 3000, 3000, 4000),
    ({"wild_canasta": "jokers"}, 2500, 2500, 3000),
    ({"wild_canasta": "mixed"}, 2000, 2000, 2500),
]


@pytest.mark.parametrize(
    "preset, fields, base",
    [
        (preset, fields, row[i + 1])
        for row in CANASTA_VALUES
        for i, preset in enumerate(MODERN_PRESETS)
        for fields in [row[0]]
    ],
)
def test_each_canasta_is_worth_its_preset_value(preset, fields, base):
    assert score_one(preset, E(**fields)).base == base


@pytest.mark.parametrize(
    "preset, entry, base",
    [
        ("modern", E(natural_canastas=3, mixed_canastas=2), 2100),  # 1500 + 600
        ("modern", E(natural_canastas=1, mixed_canastas=1, went_out=True), 900),  # 800 + out 100
        ("cla", E(natural_canastas=1, mixed_canastas=1, went_out=True), 900),  # 800 + out 100
        ("wca", E(natural_canastas=1, mixed_canastas=1, went_out=True), 1000),  # 800 + wca out 200
        ("modern", E(sevens_canasta=True, wild_canasta="mixed", went_out=True), 4600),  # 2500+2000+100
        ("wca", E(aces_canasta=True, wild_canasta="deuces", went_out=True), 6700),  # 2500+4000+200
        (
            "modern",
            E(red_threes=3, black_threes=1, natural_canastas=1, mixed_canastas=2, aces_canasta=True, went_out=True),
            4300,
        ),
        # threes 500+100 (5 canastas, +) + 500 + 600 + 2500 + out 100 = 4300
    ],
)
def test_canastas_and_going_out_add_up(preset, entry, base):
    assert score_one(preset, entry).base == base


@pytest.mark.parametrize(
    "preset, entry, base",
    [
        ("modern", E(perfect_cut=True), 100),  # +100 alone
        ("cla", E(perfect_cut=True), 100),
        ("wca", E(perfect_cut=True), 100),
        ("modern", E(natural_canastas=2, perfect_cut=True), 1100),  # 1000 + 100
        ("modern", E(red_threes=1, perfect_cut=True), 0),  # −100 + 100
    ],
)
def test_a_perfect_cut_earns_the_cutters_side_100(preset, entry, base):
    # hand 0, first dealer seat 0: seat 3 (Dot, side 1) cuts
    assert score_one(preset, entry, side=1, hand_index=0).base == base


def test_the_perfect_cut_follows_the_cutter_from_hand_to_hand():
    # hand 1: dealer seat 1 (Bea), cutter seat 0 (Ann) → side 0 gets it: 500 + 100
    assert score_one("modern", E(natural_canastas=1, perfect_cut=True), side=0, hand_index=1).base == 600
    # two single players, first dealer seat 1: hand 0 is cut by seat 0 (side 0)
    table = Table(sides=TWO.sides, first_dealer=1)
    assert score_one("wca", E(perfect_cut=True), side=0, table=table).base == 100


@pytest.mark.parametrize(
    "preset, overrides",
    [
        ("modern", {"perfect_cut": False}),
        ("cla", {"perfect_cut": False}),
        ("wca", {"perfect_cut": False}),
        ("classic", {}),
    ],
)
def test_a_perfect_cut_earns_nothing_when_the_game_turns_it_off(preset, overrides):
    rules = make_rules(preset, **overrides)
    assert rules.perfect_cut is False
    h = hand(E(), E(natural_canastas=1, perfect_cut=True, has_melded=True if preset == "classic" else None))
    try:
        scored = score_hand(rules, FOUR, h)
    except RuleError as error:  # refusing the entry is also acceptable: no +100 either way
        assert ("sides", 1, "perfect_cut") in problem_paths(error)
    else:
        assert scored.sides[1].base == 500  # natural 500, no cut bonus


# ---------------------------------------------------------------------------
# Base, modern presets: penalties
# ---------------------------------------------------------------------------

PENALTIES = [
    # (entry, modern, cla, wca) — base of a side with nothing else, so the penalty alone
    (E(incomplete_sevens=True), -2500, -2500, -2500),
    (E(incomplete_aces=True), -2500, -2500, -2500),
    (E(incomplete_wild=True), -2000, -2000, -2500),
    (E(dirty_sevens=1), -1500, -1500, -1500),
    (E(dirty_aces=1), -1500, -1500, -1500),
    (E(dirty_sevens=2), -3000, -3000, -3000),  # both partners: 2×1500
    (E(dirty_sevens=1, dirty_aces=1), -3000, -3000, -3000),  # 7s and aces: 1500+1500
    (E(dirty_sevens=2, dirty_aces=2), -6000, -6000, -6000),  # 4×1500
    # a 3 left in hand: 100 in wca; modern and cla count it as a card, 5 in the Count (None: no such entry)
    (E(threes_in_hand=1), None, None, -100),
    (E(threes_in_hand=3), None, None, -300),
    (E(threes_in_hand=1, last_draw_three=True), None, None, -100),  # the last-drawn 3 is one of them
    (E(threes_in_hand=2, last_draw_three=True), None, None, -200),
    (E(natural_canastas=1, incomplete_aces=True), -2000, -2000, -2000),  # 500 − 2500
    (E(natural_canastas=2, incomplete_wild=True), -1000, -1000, -1500),  # 1000 − 2000; wca 1000 − 2500
    (E(natural_canastas=2, incomplete_wild=True, threes_in_hand=1), None, None, -1600),  # 1000 − 2500 − 100
]


@pytest.mark.parametrize(
    "preset, entry, base",
    [
        (preset, row[0], row[i + 1])
        for row in PENALTIES
        for i, preset in enumerate(MODERN_PRESETS)
        if row[i + 1] is not None
    ],
)
def test_each_penalty_costs_its_preset_value(preset, entry, base):
    assert score_one(preset, entry).base == base


@pytest.mark.parametrize("preset", ["modern", "cla"])
@pytest.mark.parametrize("entry", [E(threes_in_hand=1), E(threes_in_hand=1, last_draw_three=True)])
def test_a_three_left_in_hand_is_a_card_in_modern_and_cla_not_a_penalty(preset, entry):
    # "3s still in hand count 5 points": in the Count (or the grid's 4-7 row), so there is no such entry.
    assert refusal_paths(make_rules(preset), FOUR, hand(entry, E())) == {
        ("sides", 0, name) for name in ("threes_in_hand", "last_draw_three") if getattr(entry, name)
    }


def test_a_three_left_in_hand_counts_five_in_the_grid_in_modern():
    # Us hold a 3 and a 4 at the end, no canasta: every card counts against them, −(5 + 5) = −10.
    assert score_one("modern", E(cards=grid({}, {"low": 2}))).count == -10


def test_a_single_player_side_can_have_one_dirty_player():
    # two single players: one dirty on 7s → −1500
    assert score_one("modern", E(dirty_sevens=1), table=TWO).base == -1500


def test_penalties_combine_with_threes_and_canastas():
    # wca: threes red 2 = 300, 3 canastas so +; 2×500 + 300 = 1300;
    # penalties unfinished wild 2500 + dirty aces 1500 + a 3 in hand 100 = 4100
    # base 300 + 1300 − 4100 = −2500; count 140 → total −2360
    scored = score_one(
        "wca",
        E(
            red_threes=2,
            natural_canastas=2,
            mixed_canastas=1,
            incomplete_wild=True,
            dirty_aces=1,
            threes_in_hand=1,
            count=140,
        ),
    )
    assert (scored.base, scored.count, scored.total) == (-2500, 140, -2360)


def test_the_game_document_example_hand():
    # side 0: threes 300+100, 2 canastas so +400; 500+300; out 100 → 1300; count 385 → 1685
    # side 1: red 1 with 1 canasta → 0; mixed 300; unfinished sevens −2500 → −2200; +140 → −2060
    scored = score_hand(
        make_rules("modern"),
        FOUR,
        hand(
            E(red_threes=2, black_threes=1, natural_canastas=1, mixed_canastas=1, went_out=True, count=385),
            E(red_threes=1, mixed_canastas=1, incomplete_sevens=True, count=140),
        ),
    )
    assert [(s.base, s.count, s.total, s.cumulative) for s in scored.sides] == [
        (1300, 385, 1685, 1685),
        (-2200, 140, -2060, -2060),
    ]
    assert [s.min_count_next for s in scored.sides] == [125, 125]
    assert scored.dealer == 0


# ---------------------------------------------------------------------------
# Special hands and wipeout
# ---------------------------------------------------------------------------

ALLOWED_SPECIALS = [(p, k, v) for p in MODERN_PRESETS for k, v in SPECIAL_HANDS[p].items()]
FORBIDDEN_SPECIALS = [(p, k) for p in MODERN_PRESETS for k in CATALOGUE if k not in SPECIAL_HANDS[p]]


@pytest.mark.parametrize("preset, key, value", ALLOWED_SPECIALS)
def test_a_special_hand_scores_its_value_and_no_count(preset, key, value):
    # the other side: mixed 300 with one canasta (threes 0) + count 120 → 420,
    # or 0 and 0 where the preset plays wipeout (wca)
    scored = score_hand(
        make_rules(preset), FOUR, hand(E(special_hand=key), E(red_threes=1, mixed_canastas=1, count=120))
    )
    assert (scored.sides[0].base, scored.sides[0].count, scored.sides[0].total) == (value, 0, value)
    if preset == "wca":
        assert (scored.sides[1].base, scored.sides[1].count, scored.sides[1].total) == (0, 0, 0)
    else:
        assert (scored.sides[1].base, scored.sides[1].count, scored.sides[1].total) == (300, 120, 420)


@pytest.mark.parametrize("preset, key", FORBIDDEN_SPECIALS)
def test_a_special_hand_the_preset_does_not_allow_is_refused(preset, key):
    paths = refusal_paths(make_rules(preset), FOUR, hand(E(special_hand=key), E()))
    assert ("sides", 0, "special_hand") in paths


def test_wipeout_can_be_switched_on_and_off():
    h = hand(E(natural_canastas=2, count=200), E(special_hand="pairs"))
    # modern + wipeout: side 1 pairs 2500; side 0 gets 0 and 0
    on = score_hand(make_rules("modern", wipeout=True), FOUR, h)
    assert [(s.base, s.count, s.total) for s in on.sides] == [(0, 0, 0), (2500, 0, 2500)]
    # wca without wipeout: side 0 scores as usual 2×500 + 200 = 1200; pairs in wca 3000
    off = score_hand(make_rules("wca", wipeout=False), FOUR, h)
    assert [(s.base, s.count, s.total) for s in off.sides] == [(1000, 200, 1200), (3000, 0, 3000)]


def test_a_game_can_revalue_the_special_hands():
    rules = make_rules("modern", special_hands={"pairs": 4000, "dream_545": 5000})
    assert (
        score_one("modern", E(special_hand="dream_545"), special_hands={"pairs": 4000, "dream_545": 5000}).base == 5000
    )
    assert refusal_paths(rules, FOUR, hand(E(special_hand="straight"), E())) >= {("sides", 0, "special_hand")}


# ---------------------------------------------------------------------------
# The Count
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset, entry, count",
    [
        ("modern", E(), 0),  # nothing typed → 0
        ("modern", E(natural_canastas=1, count=-45), -45),  # typed as is
        (
            "modern",
            E(
                natural_canastas=1,
                cards=grid({"jokers": 2, "deuces": 1, "aces": 3, "high": 10, "low": 7}, {"aces": 1, "low": 2}),
            ),
            285,
        ),
        # melded 100+20+60+100+35 = 315; in hand 20+10 = 30 → 315 − 30 = 285
        ("modern", E(cards=grid({"high": 3}, {"jokers": 1, "low": 1})), -85),
        # no canasta: every card negative → −(30 + 50 + 5) = −85
        ("wca", E(cards=grid({"aces": 2, "low": 4}, {})), -60),  # no canasta: −(40 + 20)
        ("cla", E(mixed_canastas=1, cards=grid({"jokers": 1, "high": 6}, {"deuces": 2, "high": 1})), 60),
        # melded 50 + 60 = 110; in hand 40 + 10 = 50 → 60
        ("modern", E(cards=grid()), 0),  # empty grid
        ("classic", E(cards=grid({"high": 3}, {"low": 2})), 20),  # classic: 30 − 10, no canasta needed
        ("classic", E(natural_canastas=1, cards=grid({"high": 8}, {"black_threes": 2, "jokers": 1})), 20),
        # 80 − (2×5 + 50) = 20: black 3s are 5-point cards in classic
        (
            "classic",
            E(natural_canastas=1, went_out=True, cards=grid({"high": 7, "low": 4, "black_threes": 3}, {})),
            105,
        ),  # 70 + 20 + 15 (going-out meld)
    ],
)
def test_the_count_is_melded_minus_in_hand(preset, entry, count):
    assert score_one(preset, entry).count == count


def test_a_grid_count_adds_to_the_base():
    # modern, no canasta: red 1 → −100; grid −(30 + 55) = −85 → total −185
    scored = score_one("modern", E(red_threes=1, cards=grid({"high": 3}, {"jokers": 1, "low": 1})))
    assert (scored.base, scored.count, scored.total) == (-100, -85, -185)


# ---------------------------------------------------------------------------
# Classic
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "entry, base, total",
    [
        (E(red_threes=1), -100, -100),  # nothing melded (no canasta, count 0) → −
        (E(red_threes=1, count=35), 100, 135),  # positive count → melded → +100
        (E(red_threes=2, mixed_canastas=1, count=-20), 500, 480),  # canasta → melded: 200 + 300
        (E(red_threes=3, has_melded=True, count=-40), 300, 260),  # melded: +300
        (E(red_threes=3, has_melded=False, count=-40), -300, -340),  # not melded: −300
        (E(red_threes=4, natural_canastas=1), 1300, 1300),  # all four: 800 + 500
        (E(red_threes=4), -800, -800),  # all four, nothing melded: −800
        (E(natural_canastas=2, mixed_canastas=1, went_out=True), 1400, 1400),  # 1000+300+100
        (E(mixed_canastas=1, went_out=True), 400, 400),  # one canasta is enough: 300 + 100
        (E(natural_canastas=1, went_out=True, concealed=True, count=200), 700, 900),  # 500 + 200
        (E(count=60), 0, 60),  # positive count, no canasta: fine
        (E(red_threes_in_hand=1), -500, -500),  # a red 3 in hand 500
        (E(failed_go_out_asks=2), -200, -200),  # 2 × 100
        (E(failed_pile_takes=1), -50, -50),  # 50
        (
            E(natural_canastas=1, red_threes_in_hand=1, failed_go_out_asks=1, failed_pile_takes=1, count=85),
            -150,
            -65,
        ),  # 500 − 500 − 100 − 50; +85
        (E(red_threes=2, natural_canastas=3, mixed_canastas=1, went_out=True, count=310), 2100, 2410),
        # red 200 + 1500 + 300 + out 100 = 2100; +310
    ],
)
def test_classic_base(entry, base, total):
    scored = score_one("classic", entry)
    assert (scored.base, scored.total) == (base, total)


@pytest.mark.parametrize(
    "red_threes, has_melded, base",
    [
        (1, True, 100),
        (3, True, 300),
        (4, True, 400),  # three decks: 100 each up to four
        (5, True, 1000),  # five 1,000
        (6, True, 1200),  # six 1,200
        (6, False, -1200),  # nothing melded: subtracted
    ],
)
def test_classic_red_threes_with_three_decks(red_threes, has_melded, base):
    assert score_one("classic", E(red_threes=red_threes, has_melded=has_melded), table=SIX).base == base


def test_classic_three_sides_score_together():
    # side 0: red 3 (melded) 300 + natural 500 + out 100 = 900, +150 → 1050
    # side 1: red 2, count 0, no canasta → nothing melded → −200
    # side 2: red 1, mixed 300 → +100 + 300 = 400, count −30 → 370
    scored = score_hand(
        make_rules("classic"),
        SIX,
        hand(
            E(red_threes=3, natural_canastas=1, went_out=True, count=150),
            E(red_threes=2),
            E(red_threes=1, mixed_canastas=1, count=-30),
        ),
    )
    assert [s.total for s in scored.sides] == [1050, -200, 370]


# ---------------------------------------------------------------------------
# Minimum count
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("preset", MODERN_PRESETS)
@pytest.mark.parametrize(
    "cumulative, minimum",
    [(-2000, 125), (-5, 125), (0, 125), (2995, 125), (3000, 155), (4995, 155), (5000, 180), (8495, 180), (12000, 180)],
)
def test_modern_minimum_count(preset, cumulative, minimum):
    assert minimum_count(make_rules(preset), cumulative) == minimum


@pytest.mark.parametrize(
    "cumulative, minimum",
    [(-1000, 15), (-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (4995, 120), (7000, 120)],
)
def test_classic_minimum_count(cumulative, minimum):
    assert minimum_count(make_rules("classic"), cumulative) == minimum


def test_the_next_minimum_count_comes_from_the_cumulative_after_the_hand():
    rules = make_rules("modern")
    # side 0: 500 − 400 = 100 on 2900 → 3000 → 155; side 1: 500 − 490 = 10 on 4990 → 5000 → 180
    scored = score_hand(
        rules,
        FOUR,
        hand(E(natural_canastas=1, count=-400), E(natural_canastas=1, count=-490)),
        cumulative_before=(2900, 4990),
    )
    assert [(s.total, s.cumulative, s.min_count_next) for s in scored.sides] == [(100, 3000, 155), (10, 5000, 180)]
    # side 0: −5 on −500 → −505 → 125; side 1: 500 − 495 = 5 on 2990 → 2995 → 125
    scored = score_hand(
        rules, FOUR, hand(E(count=-5), E(natural_canastas=1, count=-495)), cumulative_before=(-500, 2990)
    )
    assert [(s.cumulative, s.min_count_next) for s in scored.sides] == [(-505, 125), (2995, 125)]


def test_classic_minimum_count_after_a_hand():
    # side 0: −100 (red 1 unmelded) on 50 → −50 → 15; side 1: count 40 on 1460 → 1500 → 90
    scored = score_hand(make_rules("classic"), FOUR, hand(E(red_threes=1), E(count=40)), cumulative_before=(50, 1460))
    assert [(s.cumulative, s.min_count_next) for s in scored.sides] == [(-50, 15), (1500, 90)]


# ---------------------------------------------------------------------------
# A game
# ---------------------------------------------------------------------------


def test_a_game_keeps_running_totals_and_rotates_the_deal():
    hands = [
        # hand 0 (cut by side 1): side 0 threes +100, 500+300, out 100 → 1000 + 200 = 1200
        #                         side 1 black 1 with one canasta → 0; mixed 300 + 50 = 350
        hand(
            E(red_threes=1, natural_canastas=1, mixed_canastas=1, went_out=True, count=200),
            E(black_threes=1, mixed_canastas=1, count=50),
        ),
        # hand 1 (cut by side 0): side 0 1000 + cut 100 + 150 = 1250; side 1 red 2 no canasta −300 − 80 = −380
        hand(E(natural_canastas=2, perfect_cut=True, count=150), E(red_threes=2, count=-80)),
        # hand 2: side 0 800 + out 100 + 100 = 1000; side 1 −45
        hand(E(natural_canastas=1, mixed_canastas=1, went_out=True, count=100), E(count=-45)),
        # hand 3: side 0 2500 + 500 + out 100 + 300 = 3400; side 1 red 1 no canasta −100 − 20 = −120
        hand(E(sevens_canasta=True, natural_canastas=1, went_out=True, count=300), E(red_threes=1, count=-20)),
    ]
    game = score_game(make_rules("modern"), FOUR, hands)
    assert [[s.total for s in h.sides] for h in game.hands] == [[1200, 350], [1250, -380], [1000, -45], [3400, -120]]
    # side 0: 1200, 2450, 3450, 6850; side 1: 350, −30, −75, −195
    assert [[s.cumulative for s in h.sides] for h in game.hands] == [
        [1200, 350],
        [2450, -30],
        [3450, -75],
        [6850, -195],
    ]
    assert [[s.min_count_next for s in h.sides] for h in game.hands] == [[125, 125], [125, 125], [155, 125], [180, 125]]
    assert [h.dealer for h in game.hands] == [0, 1, 2, 3]
    assert tuple(game.totals) == (6850, -195)
    assert tuple(game.min_count) == (180, 125)
    assert (game.finished, game.winner, game.next_dealer) == (False, None, 0)


def test_an_empty_game_starts_at_zero():
    game = score_game(make_rules("modern"), Table(sides=FOUR.sides, first_dealer=3), [])
    assert (tuple(game.totals), tuple(game.min_count)) == ((0, 0), (125, 125))
    assert (game.hands, game.finished, game.winner, game.next_dealer) == ((), False, None, 3)
    classic = score_game(make_rules("classic"), SIX, [])
    assert tuple(classic.min_count) == (50, 50, 50)  # 0 → 50


def test_the_game_ends_after_the_hand_that_reaches_the_target():
    big = hand(
        E(
            red_threes=4,
            black_threes=4,
            natural_canastas=2,
            sevens_canasta=True,
            aces_canasta=True,
            went_out=True,
            count=600,
        ),
        E(count=-50),
    )
    # threes 1000+1000 (4 canastas, +) + 1000 + 2500 + 2500 + out 100 = 8100; +600 → 8700 ≥ 8500
    game = score_game(make_rules("modern"), FOUR, [big])
    assert tuple(game.totals) == (8700, -50)
    assert (game.finished, game.winner, game.next_dealer) == (True, 0, 1)
    with pytest.raises(RuleError) as caught:
        score_game(make_rules("modern"), FOUR, [big, hand(E(), E())])
    assert ("hands", 1) in problem_paths(caught.value)


def test_the_game_goes_on_below_the_target():
    near = hand(
        E(
            red_threes=4,
            black_threes=4,
            natural_canastas=2,
            sevens_canasta=True,
            aces_canasta=True,
            went_out=True,
            count=395,
        ),
        E(natural_canastas=1, count=5),
    )
    # 8100 + 395 = 8495; side 1 500 + 5 = 505
    game = score_game(make_rules("modern"), FOUR, [near])
    assert tuple(game.totals) == (8495, 505)
    assert (game.finished, game.winner) == (False, None)


def test_tied_leaders_play_another_hand():
    rules = make_rules("modern", target=1000)
    tie = hand(E(natural_canastas=2), E(natural_canastas=2))  # 1000 each
    game = score_game(rules, FOUR, [tie])
    assert tuple(game.totals) == (1000, 1000)
    assert (game.finished, game.winner) == (False, None)
    game = score_game(rules, FOUR, [tie, hand(E(natural_canastas=1), E())])  # 1500 v 1000
    assert (game.finished, game.winner) == (True, 0)


def test_the_higher_cumulative_wins_even_if_both_reach_the_target():
    # side 0: 1000 + out 100 + 100 = 1200; side 1: 1000 + 300 + 200 = 1500
    game = score_game(
        make_rules("modern", target=1000),
        FOUR,
        [hand(E(natural_canastas=2, went_out=True, count=100), E(natural_canastas=2, mixed_canastas=1, count=200))],
    )
    assert tuple(game.totals) == (1200, 1500)
    assert (game.finished, game.winner) == (True, 1)


def test_a_classic_game_ends_at_5000():
    rules = make_rules("classic")
    # side 0: red 4 (melded) 800 + 3×500 + 2×300 + out 100 = 3000; +500 → 3500
    # side 1: count 40 → 40 (melded, no threes)
    h = hand(E(red_threes=4, natural_canastas=3, mixed_canastas=2, went_out=True, count=500), E(count=40))
    game = score_game(rules, FOUR, [h])
    assert tuple(game.totals) == (3500, 40)
    assert tuple(game.min_count) == (120, 50)
    assert (game.finished, game.winner) == (False, None)
    game = score_game(rules, FOUR, [h, h])  # 7000 ≥ 5000
    assert tuple(game.totals) == (7000, 80)
    assert (game.finished, game.winner, game.next_dealer) == (True, 0, 2)


def test_a_three_sided_tie_at_the_top_plays_on():
    rules = make_rules("classic", target=1000)
    # hand 0: 1000, 1000, 50 — the leaders are tied
    first = hand(E(natural_canastas=2), E(natural_canastas=2), E(count=50))
    game = score_game(rules, SIX, [first])
    assert (game.finished, game.winner) == (False, None)
    # hand 1: side 1 mixed 300 → 1000, 1300, 50
    game = score_game(rules, SIX, [first, hand(E(), E(mixed_canastas=1), E())])
    assert tuple(game.totals) == (1000, 1300, 50)
    assert (game.finished, game.winner, game.next_dealer) == (True, 1, 2)


def test_a_special_hand_can_end_the_game_at_once():
    # cla dream_4 8500 reaches the 8500 target in one hand
    game = score_game(make_rules("cla"), FOUR, [hand(E(special_hand="dream_4"), E())])
    assert tuple(game.totals) == (8500, 0)
    assert (game.finished, game.winner) == (True, 0)


def test_game_problems_name_the_hand():
    ok = hand(E(natural_canastas=1), E())
    with pytest.raises(RuleError) as caught:
        score_game(make_rules("modern"), FOUR, [ok, hand(E(red_threes=5), E())])
    assert ("hands", 1, "sides", 0, "red_threes") in problem_paths(caught.value)
    with pytest.raises(RuleError) as caught:
        score_game(make_rules("modern"), FOUR, [hand(E(red_threes=3), E(red_threes=2)), ok])
    assert ("hands", 0) in problem_paths(caught.value)


def test_the_cutter_changes_in_a_game():
    # hand 0 is cut by side 1, so side 0's perfect cut is refused in the game as hand 0 ...
    with pytest.raises(RuleError) as caught:
        score_game(make_rules("modern"), FOUR, [hand(E(perfect_cut=True), E())])
    assert ("hands", 0, "sides", 0, "perfect_cut") in problem_paths(caught.value)
    # ... and earns 100 as hand 1 (cut by side 0)
    game = score_game(make_rules("modern"), FOUR, [hand(E(), E()), hand(E(perfect_cut=True), E())])
    assert game.hands[1].sides[0].base == 100


# ---------------------------------------------------------------------------
# Settling up
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "totals, stake, per_special, specials, winner, payments",
    [
        ((8730, 5380), 2, 1, (0, 2), 0, (0, 4)),  # §6: 3350 → 3000 → 3×2 = 6; − 2×1 → 4
        ((8730, 5380), 2, 1, (3, 0), 0, (0, 9)),  # 6 + winner's 3 specials × 1 = 9
        ((8730, 5380), 2, 0, None, 0, (0, 6)),  # no specials paid: 6
        ((8500, 5000), 1, 0, None, 0, (0, 4)),  # 3500 → halves up → 4000 → 4
        ((8495, 5000), 1, 0, None, 0, (0, 3)),  # 3495 → 3000 → 3
        ((5000, 8500), 3, 0, None, 1, (12, 0)),  # 3500 → 4 × 3 = 12, side 1 wins
        ((1500, 1000), 5, 0, None, 0, (0, 5)),  # 500 → 1000 → 1 × 5
        ((1495, 1000), 5, 0, None, 0, (0, 0)),  # 495 → 0
        ((1200, -2300), 1, 0, None, 0, (0, 4)),  # 3500 → 4
        ((6000, 4000, 2400), 1, 0, None, 0, (0, 2, 4)),  # 2000 → 2; 3600 → 4000 → 4
    ],
)
def test_settling_up(totals, stake, per_special, specials, winner, payments):
    settlement = settle_up(
        make_rules("classic" if len(totals) == 3 else "modern"), totals, stake, per_special, specials
    )
    assert settlement.winner == winner
    assert tuple(settlement.payments) == payments


# ---------------------------------------------------------------------------
# Refusals (§5): one case each
# ---------------------------------------------------------------------------

W = ("sides", 0)  # shorthand prefixes
X = ("sides", 1)

REFUSALS = [
    # a number out of its range
    ("red 3s above four", "modern", FOUR, hand(E(red_threes=5), E()), 0, {W + ("red_threes",)}),
    ("black 3s above four", "wca", FOUR, hand(E(), E(black_threes=5)), 0, {X + ("black_threes",)}),
    ("negative red 3s", "modern", FOUR, hand(E(red_threes=-1), E()), 0, {W + ("red_threes",)}),
    (
        "classic two decks red 3s above four",
        "classic",
        FOUR,
        hand(E(red_threes=5, has_melded=True), E()),
        0,
        {W + ("red_threes",)},
    ),
    (
        "classic three decks red 3s above six",
        "classic",
        SIX,
        hand(E(red_threes=7, has_melded=True), E(), E()),
        0,
        {W + ("red_threes",)},
    ),
    ("negative natural canastas", "modern", FOUR, hand(E(natural_canastas=-1), E()), 0, {W + ("natural_canastas",)}),
    ("negative mixed canastas", "classic", FOUR, hand(E(), E(mixed_canastas=-1)), 0, {X + ("mixed_canastas",)}),
    ("two dirty players on a one-player side", "modern", TWO, hand(E(dirty_sevens=2), E()), 0, {W + ("dirty_sevens",)}),
    ("three dirty players on a partnership", "cla", FOUR, hand(E(), E(dirty_aces=3)), 0, {X + ("dirty_aces",)}),
    ("negative dirty players", "modern", FOUR, hand(E(dirty_sevens=-1), E()), 0, {W + ("dirty_sevens",)}),
    ("negative threes in hand", "modern", FOUR, hand(E(threes_in_hand=-1), E()), 0, {W + ("threes_in_hand",)}),
    (
        "negative melded jokers in the grid",
        "modern",
        FOUR,
        hand(E(natural_canastas=1, cards=grid({"jokers": -1, "high": 7})), E()),
        0,
        {W + ("cards", "melded", "jokers")},
    ),
    (
        "negative 4-7s in hand in the grid",
        "classic",
        FOUR,
        hand(E(), E(cards=grid({}, {"low": -2}))),
        0,
        {X + ("cards", "in_hand", "low")},
    ),
    ("negative classic penalty", "classic", FOUR, hand(E(failed_pile_takes=-1), E()), 0, {W + ("failed_pile_takes",)}),
    ("negative red 3s in hand", "classic", FOUR, hand(E(red_threes_in_hand=-1), E()), 0, {W + ("red_threes_in_hand",)}),
    ("unknown wild canasta kind", "modern", FOUR, hand(E(wild_canasta="sevens"), E()), 0, {W + ("wild_canasta",)}),
    # more 3s across the sides than the pack
    ("five red 3s across the sides", "modern", FOUR, hand(E(red_threes=3), E(red_threes=2)), 0, {()}),
    ("five black 3s across the sides", "cla", FOUR, hand(E(black_threes=2), E(black_threes=3)), 0, {()}),
    (
        "five red 3s across classic sides",
        "classic",
        FOUR,
        hand(E(red_threes=3, has_melded=True), E(red_threes=2, has_melded=True)),
        0,
        {()},
    ),
    (
        "seven red 3s across three decks",
        "classic",
        SIX,
        hand(E(red_threes=3), E(red_threes=2), E(red_threes=2)),
        0,
        {()},
    ),
    # going out
    (
        "two sides going out",
        "modern",
        FOUR,
        hand(E(natural_canastas=2, went_out=True), E(mixed_canastas=2, went_out=True)),
        0,
        {()},
    ),
    ("two special hands", "modern", FOUR, hand(E(special_hand="pairs"), E(special_hand="straight")), 0, {()}),
    (
        "a special hand and a going out",
        "modern",
        FOUR,
        hand(E(special_hand="pairs"), E(natural_canastas=2, went_out=True)),
        0,
        {()},
    ),
    (
        "modern going out with one canasta",
        "modern",
        FOUR,
        hand(E(natural_canastas=1, went_out=True), E()),
        0,
        {W + ("went_out",)},
    ),
    (
        "wca going out with one special canasta",
        "wca",
        FOUR,
        hand(E(sevens_canasta=True, went_out=True), E()),
        0,
        {W + ("went_out",)},
    ),
    (
        "classic going out without a canasta",
        "classic",
        FOUR,
        hand(E(went_out=True, count=50), E()),
        0,
        {W + ("went_out",)},
    ),
    (
        "going out with an unfinished special meld",
        "modern",
        FOUR,
        hand(E(natural_canastas=2, incomplete_aces=True, went_out=True), E()),
        0,
        {W + ("went_out",)},
    ),
    # special canastas
    ("sevens canasta on two sides", "modern", FOUR, hand(E(sevens_canasta=True), E(sevens_canasta=True)), 0, {()}),
    ("aces canasta on two sides", "cla", FOUR, hand(E(aces_canasta=True), E(aces_canasta=True)), 0, {()}),
    ("wild canasta on two sides", "wca", FOUR, hand(E(wild_canasta="deuces"), E(wild_canasta="mixed")), 0, {()}),
    (
        "a wild canasta and an unfinished wild meld on one side",
        "modern",
        FOUR,
        hand(E(wild_canasta="jokers", incomplete_wild=True), E()),
        0,
        {W + ("incomplete_wild",), W + ("wild_canasta",)},
    ),
    # too many canastas
    ("eleven ordinary canastas in modern", "modern", FOUR, hand(E(natural_canastas=6), E(mixed_canastas=5)), 0, {()}),
    (
        "ten ordinary canastas beside a pure-aces canasta",
        "modern",
        FOUR,
        hand(E(aces_canasta=True, natural_canastas=5), E(natural_canastas=5)),
        0,
        {()},
    ),
    (
        "twelve natural canastas in classic, even from three decks",
        "classic",
        SIX,
        hand(E(natural_canastas=4), E(natural_canastas=4), E(natural_canastas=4)),
        0,
        {()},
    ),
    (
        "eleven natural and two mixed canastas in classic",
        "classic",
        FOUR,
        hand(E(natural_canastas=6), E(natural_canastas=5, mixed_canastas=2)),
        0,
        {()},
    ),
    (
        "twelve mixed canastas in classic: one wild card too few",
        "classic",
        FOUR,
        hand(E(mixed_canastas=6), E(mixed_canastas=6)),
        0,
        {()},
    ),  # 11 at 1 wild + 2 of one rank at 3 = 17 > 12
    (
        "ten natural and three mixed canastas in classic",
        "classic",
        FOUR,  # one rank left: two mixed at most
        hand(E(natural_canastas=5, mixed_canastas=2), E(natural_canastas=5, mixed_canastas=1)),
        0,
        {()},
    ),
    # the Count
    ("a count not a multiple of 5", "modern", FOUR, hand(E(natural_canastas=1, count=123), E()), 0, {W + ("count",)}),
    ("a count above the pack", "modern", FOUR, hand(E(natural_canastas=2, count=1165), E()), 0, {W + ("count",)}),
    ("a count below minus the pack", "wca", FOUR, hand(E(), E(count=-1165)), 0, {X + ("count",)}),
    (
        "a classic count above the pack",
        "classic",
        FOUR,
        hand(E(natural_canastas=1, count=2000), E()),
        0,
        {W + ("count",)},
    ),
    ("a positive count without a canasta", "modern", FOUR, hand(E(count=5), E()), 0, {W + ("count",)}),
    ("a cla positive count without a canasta", "cla", FOUR, hand(E(), E(red_threes=1, count=100)), 0, {X + ("count",)}),
    # cards the pack does not hold
    (
        "a sevens canasta and a dirty 7s player",
        "modern",
        FOUR,
        hand(E(sevens_canasta=True), E(dirty_sevens=1)),
        0,
        {()},
    ),  # 7 + 3 = 10 > 8
    (
        "unfinished sevens on both sides and a dirty player",
        "modern",
        FOUR,
        hand(E(incomplete_sevens=True, dirty_sevens=1), E(incomplete_sevens=True)),
        0,
        {()},
    ),  # 9 > 8
    (
        "an aces canasta and unfinished aces",
        "wca",
        FOUR,
        hand(E(aces_canasta=True), E(incomplete_aces=True)),
        0,
        {()},
    ),  # 7 + 3 = 10 > 8
    ("three dirty aces players", "modern", FOUR, hand(E(dirty_aces=2), E(dirty_aces=1)), 0, {()}),  # 9 > 8
    (
        "a wild canasta and six mixed canastas",
        "modern",
        FOUR,
        hand(E(wild_canasta="mixed", mixed_canastas=3), E(mixed_canastas=3)),
        0,
        {()},
    ),  # 7+3+3 = 13 > 12
    (
        "a wild canasta, an unfinished wild meld and three mixed",
        "wca",
        FOUR,
        hand(E(wild_canasta="deuces"), E(incomplete_wild=True, mixed_canastas=3)),
        0,
        {()},
    ),  # 13 > 12
    # counting grid beyond the pack, summed over the sides
    (
        "five jokers in the grids",
        "modern",
        FOUR,
        hand(E(natural_canastas=1, cards=grid({"jokers": 3, "high": 7})), E(cards=grid({}, {"jokers": 2}))),
        0,
        {()},
    ),
    (
        "nine aces in the grids",
        "modern",
        FOUR,
        hand(E(natural_canastas=1, cards=grid({"aces": 5, "high": 7})), E(cards=grid({}, {"aces": 4}))),
        0,
        {()},
    ),
    (
        "five black 3s in classic grids",
        "classic",
        FOUR,
        hand(E(cards=grid({}, {"black_threes": 3})), E(cards=grid({}, {"black_threes": 2}))),
        0,
        {()},
    ),
    (
        "seven jokers with three decks",
        "classic",
        SIX,
        hand(E(cards=grid({"jokers": 4})), E(cards=grid({}, {"jokers": 3})), E()),
        0,
        {()},
    ),
    # perfect cut
    ("a perfect cut on two sides", "modern", FOUR, hand(E(perfect_cut=True), E(perfect_cut=True)), 0, {()}),
    ("a perfect cut by the dealer's side", "modern", FOUR, hand(E(perfect_cut=True), E()), 0, {W + ("perfect_cut",)}),
    (
        "a perfect cut by the dealer's side in hand 1",
        "cla",
        FOUR,
        hand(E(), E(perfect_cut=True)),
        1,
        {X + ("perfect_cut",)},
    ),
    # special hands
    (
        "a special hand outside the preset",
        "modern",
        FOUR,
        hand(E(special_hand="miami_pairs"), E()),
        0,
        {W + ("special_hand",)},
    ),
    (
        "a special hand outside the catalogue",
        "wca",
        FOUR,
        hand(E(special_hand="royal_flush"), E()),
        0,
        {W + ("special_hand",)},
    ),
    # concealed
    (
        "concealed without going out",
        "classic",
        FOUR,
        hand(E(natural_canastas=1, concealed=True), E()),
        0,
        {W + ("concealed",)},
    ),
    # what a preset does not have
    ("black 3s in classic", "classic", FOUR, hand(E(black_threes=1), E()), 0, {W + ("black_threes",)}),
    ("a sevens canasta in classic", "classic", FOUR, hand(E(sevens_canasta=True), E()), 0, {W + ("sevens_canasta",)}),
    ("an aces canasta in classic", "classic", FOUR, hand(E(), E(aces_canasta=True)), 0, {X + ("aces_canasta",)}),
    ("a wild canasta in classic", "classic", FOUR, hand(E(wild_canasta="deuces"), E()), 0, {W + ("wild_canasta",)}),
    (
        "unfinished sevens in classic",
        "classic",
        FOUR,
        hand(E(incomplete_sevens=True), E()),
        0,
        {W + ("incomplete_sevens",)},
    ),
    ("unfinished aces in classic", "classic", FOUR, hand(E(incomplete_aces=True), E()), 0, {W + ("incomplete_aces",)}),
    (
        "unfinished wild meld in classic",
        "classic",
        FOUR,
        hand(E(incomplete_wild=True), E()),
        0,
        {W + ("incomplete_wild",)},
    ),
    ("a special hand in classic", "classic", FOUR, hand(E(special_hand="pairs"), E()), 0, {W + ("special_hand",)}),
    ("a dirty player in classic", "classic", FOUR, hand(E(dirty_sevens=1), E()), 0, {W + ("dirty_sevens",)}),
    (
        "concealed in modern",
        "modern",
        FOUR,
        hand(E(natural_canastas=2, went_out=True, concealed=True), E()),
        0,
        {W + ("concealed",)},
    ),
    ("has melded in modern", "wca", FOUR, hand(E(has_melded=True), E()), 0, {W + ("has_melded",)}),
    ("red 3s in hand in modern", "modern", FOUR, hand(E(red_threes_in_hand=1), E()), 0, {W + ("red_threes_in_hand",)}),
    ("failed go-out asks in modern", "cla", FOUR, hand(E(failed_go_out_asks=1), E()), 0, {W + ("failed_go_out_asks",)}),
    ("failed pile takes in modern", "modern", FOUR, hand(E(), E(failed_pile_takes=1)), 0, {X + ("failed_pile_takes",)}),
    (
        "black 3s in a modern grid",
        "modern",
        FOUR,
        hand(E(cards=grid({}, {"black_threes": 1})), E()),
        0,
        {W + ("cards", "in_hand", "black_threes"), W + ("cards",)},
    ),
    # the last 3 drawn must be one of the 3s left in hand
    ("last-draw 3 without a 3 in hand", "cla", FOUR, hand(E(last_draw_three=True), E()), 0, {W + ("last_draw_three",)}),
]


@pytest.mark.parametrize(
    "preset, table, h, hand_index, expected",
    [case[1:] for case in REFUSALS],
    ids=[case[0] for case in REFUSALS],
)
def test_the_sheet_refuses(preset, table, h, hand_index, expected):
    paths = refusal_paths(make_rules(preset), table, h, hand_index)
    assert paths & expected, f"expected one of {expected}, got {paths}"


def test_every_problem_is_reported_not_just_the_first():
    paths = refusal_paths(make_rules("modern"), FOUR, hand(E(red_threes=5, count=3), E(mixed_canastas=-1)))
    assert {("sides", 0, "red_threes"), ("sides", 0, "count"), ("sides", 1, "mixed_canastas")} <= paths


def test_a_field_the_preset_lacks_does_not_hide_the_sides_other_problems():
    # RuleError carries every problem found: the black 3s (not in classic) and the
    # negative canastas are two separate faults of side 0
    paths = refusal_paths(make_rules("classic"), FOUR, hand(E(black_threes=1, natural_canastas=-1), E()))
    assert {("sides", 0, "black_threes"), ("sides", 0, "natural_canastas")} <= paths


def test_red_threes_left_in_hand_count_against_the_pack():
    # classic, two decks: 4 red 3s exposed by side 0 + 1 red 3 in side 1's hand = 5 > 4
    paths = refusal_paths(
        make_rules("classic"), FOUR, hand(E(red_threes=4, natural_canastas=1), E(red_threes_in_hand=1))
    )
    assert () in paths


def test_threes_left_in_hand_count_against_the_pack():
    # modern: all eight 3s exposed (4 red + 4 black) and a ninth 3 in a hand
    paths = refusal_paths(make_rules("modern"), FOUR, hand(E(red_threes=4, black_threes=4), E(threes_in_hand=1)))
    assert () in paths


def test_three_decks_can_make_more_than_eleven_canastas():
    # §5 derives the limit from the pack: a canasta needs five natural cards of its rank.
    # Two decks hold 8 of a rank (one canasta per rank, 11 ranks 4..A in classic); the
    # three decks of a six-player game hold 12 (5 + 5 ≤ 12: two per rank), so three
    # partnerships with four canastas each (12 in all) is an ordinary hand.
    h = hand(
        E(natural_canastas=3, mixed_canastas=1, went_out=True),
        E(natural_canastas=2, mixed_canastas=2),
        E(natural_canastas=4),
    )
    assert check_hand(make_rules("classic"), SIX, h) is None
    # side 0: 1500 + 300 + out 100 = 1900; side 1: 1000 + 600 = 1600; side 2: 2000
    assert [s.base for s in score_hand(make_rules("classic"), SIX, h).sides] == [1900, 1600, 2000]


def test_scoring_a_refused_hand_raises():
    with pytest.raises(RuleError) as caught:
        score_hand(make_rules("modern"), FOUR, hand(E(natural_canastas=1, went_out=True), E()))
    assert ("sides", 0, "went_out") in problem_paths(caught.value)


def test_an_unknown_field_is_refused():
    # the entry types accept only the fields of docs/api.md
    with pytest.raises(TypeError):
        SideEntry(green_threes=1)
    with pytest.raises(TypeError):
        CardCounts(threes=1)
    with pytest.raises(RuleError) as caught:
        make_rules("modern", stake=2)
    assert [p.path for p in caught.value.problems] == [("rules", "stake")]


VALID_HANDS = [
    (
        "the game-document example",
        "modern",
        FOUR,
        0,
        hand(
            E(red_threes=2, black_threes=1, natural_canastas=1, mixed_canastas=1, went_out=True, count=385),
            E(red_threes=1, mixed_canastas=1, incomplete_sevens=True, count=140),
        ),
    ),
    ("an empty hand", "modern", FOUR, 0, hand(E(), E())),
    ("four red and four black 3s split", "wca", FOUR, 0, hand(E(red_threes=2, black_threes=4), E(red_threes=2))),
    (
        "ten ordinary canastas and a sevens canasta",
        "modern",
        FOUR,
        0,
        hand(E(sevens_canasta=True, natural_canastas=5, went_out=True), E(natural_canastas=5)),
    ),
    (
        "nine ordinary canastas and an aces canasta",
        "cla",
        FOUR,
        0,
        hand(E(aces_canasta=True, natural_canastas=5), E(natural_canastas=4)),
    ),
    ("eleven canastas in classic", "classic", FOUR, 0, hand(E(natural_canastas=6), E(mixed_canastas=5))),
    (
        "exactly twelve wild cards",
        "modern",
        FOUR,
        0,
        hand(E(wild_canasta="mixed", mixed_canastas=3), E(mixed_canastas=2)),
    ),  # 7 + 3 + 2 = 12
    (
        "unfinished sevens on both sides",
        "modern",
        FOUR,
        0,
        hand(E(incomplete_sevens=True), E(incomplete_sevens=True)),
    ),  # 3 + 3 ≤ 8
    ("a dirty aces player on each side", "modern", FOUR, 0, hand(E(dirty_aces=1), E(dirty_aces=1))),
    ("both partners dirty", "wca", FOUR, 0, hand(E(dirty_sevens=2), E())),
    ("a perfect cut by the cutter's side", "modern", FOUR, 0, hand(E(), E(perfect_cut=True))),
    ("a perfect cut by side 0 in hand 1", "modern", FOUR, 1, hand(E(perfect_cut=True), E())),
    (
        "a special hand against an ordinary side",
        "modern",
        FOUR,
        0,
        hand(E(special_hand="pairs"), E(natural_canastas=1, count=50)),
    ),
    ("a count of the whole pack", "modern", FOUR, 0, hand(E(natural_canastas=2, count=1160), E())),
    ("a count of minus the whole pack", "modern", FOUR, 0, hand(E(), E(count=-1160))),
    (
        "four jokers in the grids",
        "modern",
        FOUR,
        0,
        hand(E(natural_canastas=1, cards=grid({"jokers": 2, "high": 7})), E(cards=grid({}, {"jokers": 2}))),
    ),
    (
        "classic concealed going out",
        "classic",
        FOUR,
        0,
        hand(E(natural_canastas=1, went_out=True, concealed=True, count=200), E()),
    ),
    (
        "classic six red 3s across three decks",
        "classic",
        SIX,
        0,
        hand(E(red_threes=2), E(red_threes=2), E(red_threes=2)),
    ),
    (
        "classic six jokers across three decks",
        "classic",
        SIX,
        0,
        hand(E(cards=grid({"jokers": 4})), E(cards=grid({}, {"jokers": 2})), E()),
    ),
    ("classic positive count without a canasta", "classic", FOUR, 0, hand(E(count=120), E())),
    ("a last-draw 3 among the 3s in hand", "wca", FOUR, 0, hand(E(threes_in_hand=2, last_draw_three=True), E())),
    (
        "ten natural canastas and two mixed canastas of kings in classic",
        "classic",
        FOUR,
        0,
        hand(E(natural_canastas=6, mixed_canastas=2), E(natural_canastas=4)),
    ),
    (
        "eleven mixed canastas in classic: six of a rank and a wild card each",
        "classic",
        FOUR,
        0,
        hand(E(mixed_canastas=6), E(mixed_canastas=5)),
    ),  # 11 wild cards of 12
    (
        "eleven natural canastas and one mixed from three decks in classic",
        "classic",
        SIX,
        0,
        hand(E(natural_canastas=4), E(natural_canastas=4), E(natural_canastas=3, mixed_canastas=1)),
    ),
    ("a single dirty player on a one-player side", "modern", TWO, 0, hand(E(dirty_sevens=1), E())),
]


@pytest.mark.parametrize(
    "preset, table, hand_index, h",
    [case[1:] for case in VALID_HANDS],
    ids=[case[0] for case in VALID_HANDS],
)
def test_a_valid_hand_raises_nothing(preset, table, hand_index, h):
    assert check_hand(make_rules(preset), table, h, hand_index) is None


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

SCHEDULE = {0: 0, 1: 100, 2: 300, 3: 500, 4: 1000}
WILD_VALUES = {
    "modern": {"deuces": 3000, "jokers": 2500, "mixed": 2000},
    "cla": {"deuces": 3000, "jokers": 2500, "mixed": 2000},
    "wca": {"deuces": 4000, "jokers": 3000, "mixed": 2500},
}


def expected_modern_base(preset: str, e: SideEntry) -> int:
    """The §3 Base, written out from docs/rules.md for an ordinary (non-special-hand) entry."""
    canastas = e.natural_canastas + e.mixed_canastas + e.sevens_canasta + e.aces_canasta + (e.wild_canasta is not None)
    threes = SCHEDULE[e.red_threes] + SCHEDULE[e.black_threes]
    if preset == "wca" and e.red_threes == 4 and e.black_threes == 4:
        threes = 3000
    sign = -1 if canastas == 0 else (0 if canastas == 1 else 1)
    base = sign * threes
    base += 500 * e.natural_canastas + 300 * e.mixed_canastas
    base += 2500 * e.sevens_canasta + 2500 * e.aces_canasta
    if e.wild_canasta is not None:
        base += WILD_VALUES[preset][e.wild_canasta]
    if e.went_out:
        base += 200 if preset == "wca" else 100
    if e.perfect_cut:
        base += 100
    base -= 2500 * e.incomplete_sevens + 2500 * e.incomplete_aces
    base -= (2500 if preset == "wca" else 2000) * e.incomplete_wild
    base -= 1500 * (e.dirty_sevens + e.dirty_aces)
    base -= 100 * e.threes_in_hand  # wca only: modern and cla count a 3 left in hand as 5 in the Count
    return base


@st.composite
def modern_hands(draw, hand_index=0, preset="wca"):
    """A valid two-side hand on FOUR (first dealer 0) for a modern preset (3s left in hand only in wca)."""
    red0 = draw(st.integers(0, 4))
    red1 = draw(st.integers(0, 4 - red0))
    black0 = draw(st.integers(0, 4))
    black1 = draw(st.integers(0, 4 - black0))
    spare_threes = 8 - red0 - red1 - black0 - black1
    most_in_hand = 2 if preset == "wca" else 0
    in_hand0 = draw(st.integers(0, min(most_in_hand, spare_threes)))
    in_hand1 = draw(st.integers(0, min(most_in_hand, spare_threes - in_hand0)))
    sevens_owner = draw(st.sampled_from([None, 0, 1]))
    aces_owner = draw(st.sampled_from([None, 0, 1]))
    wild_owner = draw(st.sampled_from([None, 0, 1]))
    wild_kind = draw(st.sampled_from(["deuces", "jokers", "mixed"]))
    last_draw_side = draw(st.sampled_from([None, 0, 1]))
    cutter = (hand_index + 1) % 2
    entries = []
    for i, (red, black, in_hand) in enumerate([(red0, black0, in_hand0), (red1, black1, in_hand1)]):
        natural = draw(st.integers(0, 2))
        mixed = draw(st.integers(0, 2))
        incomplete_wild = wild_owner is None and draw(st.booleans())
        fields = {
            "red_threes": red,
            "black_threes": black,
            "natural_canastas": natural,
            "mixed_canastas": mixed,
            "sevens_canasta": sevens_owner == i,
            "aces_canasta": aces_owner == i,
            "wild_canasta": wild_kind if wild_owner == i else None,
            "incomplete_wild": incomplete_wild,
            "dirty_sevens": 0 if sevens_owner is not None else draw(st.integers(0, 1)),
            "dirty_aces": 0 if aces_owner is not None else draw(st.integers(0, 1)),
            "threes_in_hand": in_hand,
            "last_draw_three": last_draw_side == i and in_hand >= 1,
            "perfect_cut": i == cutter and draw(st.booleans()),
        }
        canastas = natural + mixed + (sevens_owner == i) + (aces_owner == i) + (wild_owner == i)
        fields["count"] = 5 * draw(st.integers(-100, 200 if canastas else 0))
        entries.append(fields)
    goer = draw(st.sampled_from([None, 0, 1]))
    if goer is not None:
        e = entries[goer]
        canastas = (
            e["natural_canastas"]
            + e["mixed_canastas"]
            + e["sevens_canasta"]
            + e["aces_canasta"]
            + (e["wild_canasta"] is not None)
        )
        if canastas >= 2 and not e["incomplete_wild"]:
            e["went_out"] = True
    return hand(*(E(**fields) for fields in entries))


def all_figures(scored):
    for s in scored.sides:
        yield from (s.base, s.count, s.total, s.cumulative, s.min_count_next)


@settings(deadline=None, max_examples=300)
@given(
    preset=st.sampled_from(MODERN_PRESETS),
    data=st.data(),
    before=st.tuples(st.integers(-400, 2000), st.integers(-400, 2000)),
)
def test_a_hand_total_is_base_plus_count_and_base_is_the_sum_of_its_pieces(preset, data, before):
    h = data.draw(modern_hands(preset=preset))
    rules = make_rules(preset)
    before = (5 * before[0], 5 * before[1])
    scored = score_hand(rules, FOUR, h, 0, cumulative_before=before)
    for entry, side, prior in zip(h.sides, scored.sides, before, strict=False):
        assert side.base == expected_modern_base(preset, entry)
        assert side.count == entry.count
        assert side.total == side.base + side.count
        assert side.cumulative == prior + side.total
        assert side.min_count_next == minimum_count(rules, side.cumulative)
    assert all(figure % 5 == 0 for figure in all_figures(scored))


@settings(deadline=None, max_examples=150)
@given(preset=st.sampled_from(MODERN_PRESETS), data=st.data())
def test_swapping_the_sides_swaps_the_scores(preset, data):
    h = data.draw(modern_hands(hand_index=0, preset=preset))
    # the swapped hand is scored as hand 1, whose cutter is side 0, so a cut moves with its side
    rules = make_rules(preset)
    straight = score_hand(rules, FOUR, h, 0)
    swapped = score_hand(rules, FOUR, Hand(sides=h.sides[::-1]), 1)
    assert [(s.base, s.count, s.total) for s in straight.sides] == [
        (s.base, s.count, s.total) for s in swapped.sides[::-1]
    ]


@st.composite
def modern_games(draw):
    preset = draw(st.sampled_from(MODERN_PRESETS))
    size = draw(st.integers(1, 6))
    return preset, [draw(modern_hands(hand_index=n, preset=preset)) for n in range(size)]


@settings(deadline=None, max_examples=100)
@given(game=modern_games(), first_dealer=st.integers(0, 3))
def test_the_cumulative_is_the_running_sum_of_hand_totals(game, first_dealer):
    preset, hands = game
    # the hands were drawn for first dealer 0; perfect cuts stay valid when the deal
    # starts at an even seat (the cutter's side is the same), so move it by 0 or 2
    table = Table(sides=FOUR.sides, first_dealer=first_dealer - first_dealer % 2)
    rules = make_rules(preset, target=100_000)  # the highest target a table may set
    scored = score_game(rules, table, hands)
    running = [0, 0]
    for n, (h, hs) in enumerate(zip(hands, scored.hands, strict=False)):
        single = score_hand(rules, table, h, n, cumulative_before=tuple(running))
        assert hs.dealer == single.dealer
        assert [dataclasses.astuple(s) for s in hs.sides] == [dataclasses.astuple(s) for s in single.sides]
        assert hs.dealer == (table.first_dealer + n) % 4
        for i, side in enumerate(hs.sides):
            running[i] += side.total
            assert side.cumulative == running[i]
    assert tuple(scored.totals) == tuple(running)
    assert tuple(scored.min_count) == tuple(minimum_count(rules, t) for t in running)
    assert (scored.finished, scored.winner) == (False, None)
    assert scored.next_dealer == (table.first_dealer + len(hands)) % 4


@settings(deadline=None, max_examples=100)
@given(game=modern_games())
def test_the_game_ends_with_the_first_hand_that_leaves_a_sole_leader_at_the_target(game):
    preset, hands = game
    rules = make_rules(preset, target=1500)
    running = [0, 0]
    end = None
    for n, h in enumerate(hands):
        for i, side in enumerate(score_hand(rules, FOUR, h, n).sides):
            running[i] += side.total
        if max(running) >= 1500 and running[0] != running[1]:
            end = n
            break
    if end is None:
        scored = score_game(rules, FOUR, hands)
        assert (scored.finished, scored.winner) == (False, None)
        return
    scored = score_game(rules, FOUR, hands[: end + 1])
    assert scored.finished is True
    assert scored.winner == (0 if running[0] > running[1] else 1)
    if end > 0:
        assert score_game(rules, FOUR, hands[:end]).finished is False
    with pytest.raises(RuleError) as caught:
        score_game(rules, FOUR, hands[: end + 1] + [hand(E(), E())])
    assert ("hands", end + 1) in problem_paths(caught.value)


@settings(deadline=None, max_examples=200)
@given(preset=st.sampled_from(ALL_PRESETS), a=st.integers(-3000, 3000), b=st.integers(-3000, 3000))
def test_the_minimum_count_never_falls_as_the_score_rises(preset, a, b):
    rules = make_rules(preset)
    low, high = sorted((5 * a, 5 * b))
    allowed = {15, 50, 90, 120} if preset == "classic" else {125, 155, 180}
    assert minimum_count(rules, low) in allowed
    assert minimum_count(rules, low) <= minimum_count(rules, high)


def card_counts(jokers, twos_aces, high, low, black_threes):
    return st.builds(
        CardCounts,
        jokers=st.integers(0, jokers),
        deuces=st.integers(0, twos_aces),
        aces=st.integers(0, twos_aces),
        high=st.integers(0, high),
        low=st.integers(0, low),
        black_threes=st.integers(0, black_threes),
    )


POINTS = {"jokers": 50, "deuces": 20, "aces": 20, "high": 10, "low": 5, "black_threes": 5}


def points(cards: CardCounts) -> int:
    return sum(POINTS[name] * getattr(cards, name) for name in POINTS)


@settings(deadline=None, max_examples=200)
@given(preset=st.sampled_from(ALL_PRESETS), canasta=st.booleans(), data=st.data())
def test_a_grid_count_is_the_card_points(preset, canasta, data):
    black = 1 if preset == "classic" else 0
    # each side's share stays within half the pack, so the pack is never exceeded
    melded = data.draw(card_counts(1, 2, 12, 8, black))
    in_hand = data.draw(card_counts(1, 2, 12, 8, black))
    if canasta:
        melded = dataclasses.replace(melded, high=melded.high + 7)  # room for the canasta
    entry = E(natural_canastas=int(canasta), cards=Cards(melded=melded, in_hand=in_hand))
    scored = score_one(preset, entry)
    if preset == "classic" or canasta:
        assert scored.count == points(melded) - points(in_hand)
    else:
        assert scored.count == -(points(melded) + points(in_hand))
        assert scored.count <= 0
    assert scored.count % 5 == 0 and scored.total == scored.base + scored.count


@settings(deadline=None, max_examples=200)
@given(a=st.integers(-2000, 3000), b=st.integers(-2000, 3000), stake=st.integers(1, 10))
def test_settling_up_pays_the_winner_the_rounded_difference(a, b, stake):
    totals = (5 * a, 5 * b)
    assume(totals[0] != totals[1])
    settlement = settle_up(make_rules("modern"), totals, stake)
    winner = 0 if totals[0] > totals[1] else 1
    difference = abs(totals[0] - totals[1])
    thousands = (difference + 500) // 1000  # nearest 1,000, halves up
    assert settlement.winner == winner
    assert settlement.payments[winner] == 0
    assert settlement.payments[1 - winner] == thousands * stake


def test_a_classic_side_with_a_canasta_cannot_be_said_not_to_have_melded():
    with pytest.raises(RuleError) as refused:
        check_hand(make_rules("classic"), FOUR, hand(E(natural_canastas=1, has_melded=False), E()))
    assert ("sides", 0, "has_melded") in [p.path for p in refused.value.problems]


def test_the_margin_is_the_winners_lead_over_the_next_side():
    # Us: sevens canasta 2,500 + naturals 1,000 + out 100 = 3,600 + 400 = 4,000 → reaches a 4,000 target.
    # Them: one mixed canasta, so 3s count 0; 300 + 100 = 400.  Margin 4,000 − 400 = 3,600.
    score = score_game(
        make_rules("modern", target=4000),
        FOUR,
        [
            hand(
                E(sevens_canasta=True, natural_canastas=2, went_out=True, count=400),
                E(mixed_canastas=1, red_threes=1, count=100),
            )
        ],
    )
    assert (score.finished, score.winner, score.margin) == (True, 0, 3600)


# --- The paper way: a side's Base reported as one figure (docs/rules.md §5.12) ----------------------


def test_a_reported_base_is_the_sides_base_and_its_count_is_added():
    # "We have 1,300 base and 385 count": 1,300 + 385 = 1,685. Them: natural 500 + 100 = 600.
    scored = score_hand(
        make_rules("modern"), FOUR, hand(E(reported_base=1300, count=385), E(natural_canastas=1, count=100))
    )
    assert [(s.base, s.count, s.total) for s in scored.sides] == [(1300, 385, 1685), (500, 100, 600)]


def test_a_reported_base_may_be_negative_and_its_count_positive():
    # A side reporting −300 (its 3s against it) and a Count of 50: −250. Its canastas are not known,
    # so the modern rule "no canasta, no positive Count" can't be applied to it.
    assert score_one("modern", E(reported_base=-300, count=50)).total == -250


@pytest.mark.parametrize(
    "entry, why",
    [
        (E(reported_base=1302, count=385), "multiple of 5"),
        (E(reported_base=1300, red_threes=2, count=385), "not both"),
        (E(reported_base=1300, went_out=True), "not both"),
        # modern: at most 2 × 1,000 for 3s, 22 ordinary canastas at 500 and every special canasta
        # (2,500 + 2,500 + 3,000), going out 100 and a perfect cut 100 = 21,200.
        (E(reported_base=21_205), "between"),
        # lowest: 3s 2,000, unfinished melds 2,500 + 2,500 + 2,000, two players dirty twice 6,000: −15,000
        # (a 3 left in hand is a card in modern, so no penalty).
        (E(reported_base=-15_005), "between"),
    ],
)
def test_a_reported_base_is_refused_when_it_cannot_be(entry, why):
    with pytest.raises(RuleError) as caught:
        check_hand(make_rules("modern"), FOUR, hand(entry, E()))
    assert {p.path for p in caught.value.problems} == {("sides", 0, "reported_base")}
    assert why in caught.value.problems[0].message


def test_the_bounds_of_a_reported_base_are_accepted():
    for base in (21_200, -15_000):
        check_hand(make_rules("modern"), FOUR, hand(E(reported_base=base), E()))


# --- Problems between sides name each side's field --------------------------------------------------


@pytest.mark.parametrize(
    "entries, involves",
    [
        # red 3s 3 + 2 = 5, the pack holds 4
        ((E(red_threes=3), E(red_threes=2)), {("sides", 0, "red_threes"), ("sides", 1, "red_threes")}),
        (
            (E(natural_canastas=2, went_out=True), E(natural_canastas=2, went_out=True)),
            {("sides", 0, "went_out"), ("sides", 1, "went_out")},
        ),
        (
            (E(sevens_canasta=True, natural_canastas=1), E(sevens_canasta=True, natural_canastas=1)),
            {("sides", 0, "sevens_canasta"), ("sides", 1, "sevens_canasta")},
        ),
    ],
)
def test_a_problem_between_sides_names_the_field_of_each_side(entries, involves):
    with pytest.raises(RuleError) as caught:
        check_hand(make_rules("modern"), FOUR, hand(*entries))
    whole_hand = [p for p in caught.value.problems if p.path == ()]
    assert whole_hand and set(whole_hand[0].involves) == involves


# --- A special hand: the side's other entries are kept, not counted (docs/rules.md §3) ---------------


@pytest.mark.parametrize(
    "preset, entry, other, figures",
    [
        # pairs 2,500 in modern; the red 3 and the Count of 50 are kept but not counted. Them: natural 500 + 100.
        (
            "modern",
            E(special_hand="pairs", red_threes=1, count=50),
            E(natural_canastas=1, count=100),
            [(2500, 0), (500, 100)],
        ),
        # wca: pairs 3,000; a canasta and a perfect cut beside it don't count; wipeout leaves Them 0.
        ("wca", E(special_hand="pairs", natural_canastas=1), E(natural_canastas=2, count=200), [(3000, 0), (0, 0)]),
    ],
)
def test_a_special_hand_keeps_the_sides_other_entries_but_does_not_count_them(preset, entry, other, figures):
    scored = score_hand(make_rules(preset), FOUR, hand(entry, other))
    assert [(s.base, s.count) for s in scored.sides] == figures


def test_the_entries_beside_a_special_hand_are_not_counted_against_the_pack():
    # Us lay down seven pairs with four red 3s typed beside it; Them have two red 3s. Counted, that would be
    # six red 3s of four; Us's 3s don't count, so the hand stands: Them 2 red 3s with two canastas = 300.
    scored = score_hand(
        make_rules("modern"),
        FOUR,
        hand(E(special_hand="pairs", red_threes=4), E(red_threes=2, natural_canastas=2, count=0)),
    )
    assert [s.base for s in scored.sides] == [2500, 1300]


# --- House rules: each changes the figure it should, and only that (docs/api.md "Table rules") -------

HOUSE_RULES = [
    # (preset, house rules, entry, Base with the preset's own values, Base with the house rule)
    ("modern", {"values": {"natural_canasta": 600}}, E(natural_canastas=2), 1000, 1200),
    ("modern", {"values": {"mixed_canasta": 250}}, E(mixed_canastas=2), 600, 500),
    ("modern", {"values": {"going_out": 200}}, E(natural_canastas=2, went_out=True), 1100, 1200),
    ("modern", {"values": {"sevens_canasta": 3000}}, E(sevens_canasta=True, natural_canastas=1), 3000, 3500),
    ("modern", {"values": {"wild_canasta_deuces": 3500}}, E(wild_canasta="deuces", natural_canastas=1), 3500, 4000),
    ("modern", {"values": {"incomplete_wild": 2500}}, E(incomplete_wild=True), -2000, -2500),
    ("modern", {"values": {"dirty_aces": 1000}}, E(dirty_aces=2), -3000, -2000),
    # 2 red 3s with two canastas: 300 + 1,000; with the schedule 0/200/400/600/1,200: 400 + 1,000.
    ("modern", {"threes": [0, 200, 400, 600, 1200]}, E(red_threes=2, natural_canastas=2), 1300, 1400),
    # all eight 3s: 1,000 + 1,000 by the schedule, or 3,000 flat; + two naturals 1,000.
    ("modern", {"all_eight_threes": 3000}, E(red_threes=4, black_threes=4, natural_canastas=2), 3000, 4000),
    # wca without its 3,000 for all eight: each colour by the schedule again, 1,000 + 1,000, + 1,000.
    ("wca", {"all_eight_threes": None}, E(red_threes=4, black_threes=4, natural_canastas=2), 4000, 3000),
    # classic: 2 red 3s at 100 each or 50 each, + a natural 500.
    ("classic", {"red_threes": {"each": 50}}, E(red_threes=2, natural_canastas=1), 700, 600),
    ("classic", {"red_threes": {"all_four": 1000}}, E(red_threes=4, natural_canastas=1), 1300, 1500),
    (
        "classic",
        {"values": {"going_out_concealed": 300}},
        E(natural_canastas=1, went_out=True, concealed=True),
        700,
        800,
    ),
    ("classic", {"values": {"failed_pile_take": 25}}, E(failed_pile_takes=2), -100, -50),
]


@pytest.mark.parametrize("preset, house, entry, before, after", HOUSE_RULES)
def test_a_house_rule_changes_the_figure_it_should_and_only_that(preset, house, entry, before, after):
    other = E(count=-50)  # the other side: nothing any house rule above touches
    plain = score_hand(make_rules(preset), FOUR, hand(entry, other))
    changed = score_hand(make_rules(preset, **house), FOUR, hand(entry, other))
    assert (plain.sides[0].base, changed.sides[0].base) == (before, after)
    assert changed.sides[1] == plain.sides[1]


def test_concealed_going_out_can_be_played_in_modern():
    # 0 in the modern preset: the entry is unknown to the game; a table that pays 300 has it.
    assert refusal_paths(
        make_rules("modern"), FOUR, hand(E(natural_canastas=2, went_out=True, concealed=True), E())
    ) == {("sides", 0, "concealed")}
    scored = score_one(
        "modern", E(natural_canastas=2, went_out=True, concealed=True), values={"going_out_concealed": 300}
    )
    assert scored.base == 1300  # 2 naturals 1,000 + concealed 300


def test_a_value_of_zero_means_the_table_does_not_play_it():
    assert refusal_paths(
        make_rules("modern", values={"sevens_canasta": 0}), FOUR, hand(E(sevens_canasta=True), E())
    ) == {("sides", 0, "sevens_canasta")}


def test_two_canastas_to_go_out_in_classic_two_handed_play():
    going_out = hand(E(natural_canastas=1, went_out=True, count=100), E())
    check_hand(make_rules("classic"), TWO, going_out)
    assert refusal_paths(make_rules("classic", canastas_to_go_out=2), TWO, going_out) == {("sides", 0, "went_out")}


def test_a_table_may_count_melded_minus_in_hand_without_a_canasta_in_modern():
    entry = E(cards=grid({"high": 3}, {"low": 1}))  # melded 30, in hand 5
    assert score_one("modern", entry).count == -35  # every card against a side with no canasta
    assert score_one("modern", entry, count_without_canasta="melded_minus_hand").count == 25


@pytest.mark.parametrize("cumulative, minimum", [(-200, 50), (2995, 50), (3000, 150), (9000, 150)])
def test_a_table_sets_its_own_minimum_count_bands(cumulative, minimum):
    rules = make_rules("modern", minimum_counts=[{"from": None, "minimum": 50}, {"from": 3000, "minimum": 150}])
    assert minimum_count(rules, cumulative) == minimum


@pytest.mark.parametrize(
    "house, path",
    [
        ({"values": {"natural_canasta": -5}}, ("rules", "values", "natural_canasta")),
        ({"values": {"natural_canasta": 100_005}}, ("rules", "values", "natural_canasta")),
        ({"values": {"natural_canasta": 502}}, ("rules", "values", "natural_canasta")),
        ({"values": {"royal_canasta": 500}}, ("rules", "values", "royal_canasta")),
        ({"target": 100_005}, ("rules", "target")),
        ({"tie": "coin_toss"}, ("rules", "tie")),
        ({"threes": [0, 100, 300]}, ("rules", "threes")),
        (
            {
                "minimum_counts": [
                    {"from": None, "minimum": 50},
                    {"from": 3000, "minimum": 150},
                    {"from": 2000, "minimum": 180},
                ]
            },
            ("rules", "minimum_counts", 2, "from"),
        ),
        ({"minimum_counts": [{"from": 0, "minimum": 50}]}, ("rules", "minimum_counts", 0, "from")),
    ],
)
def test_an_absurd_house_rule_is_refused_naming_its_key(house, path):
    with pytest.raises(RuleError) as caught:
        make_rules("modern", **house)
    assert [p.path for p in caught.value.problems] == [path]


# --- A tie at the target (docs/api.md "tie") -----------------------------------------------------------

# Hand 1 to 1,000: Us 2 naturals 1,000 and Count 0 = 1,000; Them 2 naturals, going out 100, Count −100 = 1,000.
TIED = hand(E(natural_canastas=2, count=0), E(natural_canastas=2, went_out=True, count=-100))


@pytest.mark.parametrize(
    "tie, finished, winners, winner",
    [
        ("play_on", False, (), None),  # play another hand
        ("shared", True, (0, 1), None),  # both win; nobody wins alone
        ("went_out", True, (1,), 1),  # Them went out in the last hand
    ],
)
def test_a_tie_at_the_target_follows_the_tables_rule(tie, finished, winners, winner):
    score = score_game(make_rules("modern", target=1000, tie=tie), FOUR, [TIED])
    assert score.totals == (1000, 1000)
    assert (score.finished, score.winners, score.winner) == (finished, winners, winner)


def test_went_out_plays_on_when_no_tied_leader_went_out():
    tied = hand(E(natural_canastas=2, count=0), E(natural_canastas=2, count=0))  # 1,000 each, nobody out
    assert score_game(make_rules("modern", target=1000, tie="went_out"), FOUR, [tied]).finished is False


# ---------------------------------------------------------------------------
# The 3 drawn as the last card of the stock: its own value, last_draw_three (docs/rules.md §3)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("preset, points", [("modern", 0), ("cla", 0), ("wca", 100), ("classic", 0)])
def test_each_preset_charges_the_last_drawn_three_apart(preset, points):
    # §3 Penalties: "a 3 drawn as the very last card of the stock": modern — (laid face up), cla — (5 in the
    # Count), wca 100; classic has no 3s left in hand.
    assert make_rules(preset).values.last_draw_three == points


def test_wca_last_drawn_three_costs_its_100_among_the_threes_in_hand():
    # Us: natural + mixed = 500 + 300 = 800; two 3s in hand, one drawn last: 100 + 100 (last_draw_three) = 200;
    # 800 − 200 = 600, Count 150, total 750. Them go out: 2 × 500 + 200 = 1200, Count 100, total 1300.
    scored = score_hand(
        make_rules("wca"),
        FOUR,
        hand(
            E(natural_canastas=1, mixed_canastas=1, threes_in_hand=2, last_draw_three=True, count=150),
            E(natural_canastas=2, went_out=True, count=100),
        ),
    )
    assert [(s.base, s.count, s.total) for s in scored.sides] == [(600, 150, 750), (1200, 100, 1300)]


def test_a_table_may_charge_the_last_drawn_three_more_than_the_others():
    # wca with last_draw_three 300: two 3s in hand, one drawn last: 100 + 300 = 400 off; 2 naturals 1000 − 400.
    assert (
        score_one(
            "wca", E(natural_canastas=2, threes_in_hand=2, last_draw_three=True), values={"last_draw_three": 300}
        ).base
        == 600
    )


@pytest.mark.parametrize("preset", ["modern", "cla"])
def test_modern_and_cla_refuse_the_last_card_switch(preset):
    # last_draw_three is 0: the table does not play it (§5.10); the 3 is a card (cla) or exposed (modern).
    with pytest.raises(RuleError) as refused:
        check_hand(make_rules(preset), FOUR, hand(E(natural_canastas=1, last_draw_three=True, count=50), E()))
    messages = [p.message for p in refused.value.problems if p.path == ("sides", 0, "last_draw_three")]
    assert any(m.startswith("One was the last card of the stock: not part of this game") for m in messages)


def test_a_cla_table_charging_five_for_the_last_card_ticks_it_alone():
    # RULES.md §3: "cla tables that charge 5 for it on the Base". No 3s-left-in-hand line in cla (three_in_hand 0),
    # so the switch stands alone: 2 naturals 1000 − 5 = 995, Count 100, total 1095.
    scored = score_one("cla", E(natural_canastas=2, last_draw_three=True, count=100), values={"last_draw_three": 5})
    assert (scored.base, scored.total) == (995, 1095)


def test_a_wca_table_not_charging_the_last_card_apart_refuses_the_switch():
    # last_draw_three 0 in a wca game: the switch is not part of it; the 3 is entered among the 3s in hand at 100.
    game = make_rules("wca", values={"last_draw_three": 0})
    assert refusal_paths(game, FOUR, hand(E(threes_in_hand=1, last_draw_three=True), E())) == {
        ("sides", 0, "last_draw_three")
    }
    assert score_one("wca", E(threes_in_hand=1), values={"last_draw_three": 0}).base == -100


def test_a_reported_base_may_go_as_low_as_a_dearer_last_card_allows():
    # wca, two single players: the lowest Base is −14,300 (docs/rules.md §5.12). With last_draw_three 300 the
    # last card costs 200 more than a 3 left in hand: −14,500. A single player: dirty on 7s and aces once each.
    game = make_rules("wca", values={"last_draw_three": 300})
    check_hand(game, TWO, hand(E(reported_base=-14500), E()))
    assert refusal_paths(game, TWO, hand(E(reported_base=-14505), E())) == {("sides", 0, "reported_base")}


# Older games: stored before last_draw_three was a value, their rules lack it (rules_from_json fills it).

# What migration 2b7c1a0e9d34 wrote for a cla game stored before it: cla's values of the time, 100 for each 3
# left in hand (migrations/versions/2b7c1a0e9d34_complete_table_rules.py, PLAYED_WITH["cla"]).
MIGRATED_CLA_VALUES = {
    "natural_canasta": 500,
    "mixed_canasta": 300,
    "sevens_canasta": 2500,
    "aces_canasta": 2500,
    "wild_canasta_deuces": 3000,
    "wild_canasta_jokers": 2500,
    "wild_canasta_mixed": 2000,
    "going_out": 100,
    "going_out_concealed": 0,
    "perfect_cut": 100,
    "incomplete_sevens": 2500,
    "incomplete_aces": 2500,
    "incomplete_wild": 2000,
    "dirty_sevens": 1500,
    "dirty_aces": 1500,
    "three_in_hand": 100,
    "red_three_in_hand": 0,
    "failed_go_out_ask": 0,
    "failed_pile_take": 0,
}


def stored_rules(preset: str, values: dict) -> dict:
    """A game's rules as stored before last_draw_three: every key, its values without that one."""
    return {**rules_json(make_rules(preset)), "values": values}


def test_an_older_cla_game_keeps_five_for_its_last_drawn_three():
    # Before complete rules, cla charged 100 for each 3 left in hand and 5 for one drawn last: two 3s in hand,
    # one drawn last, cost 100 + 5 = 105 (the migration's note: "200 instead of 105"). 2 naturals: 1000 − 105.
    game = rules_from_json(stored_rules("cla", MIGRATED_CLA_VALUES))
    assert (game.values.three_in_hand, game.values.last_draw_three) == (100, 5)
    entry = E(natural_canastas=2, threes_in_hand=2, last_draw_three=True)
    assert score_hand(game, FOUR, hand(entry, E())).sides[0].base == 895


def test_the_migration_wrote_the_cla_values_these_tests_name():
    path = Path(__file__).resolve().parent.parent / "migrations/versions/2b7c1a0e9d34_complete_table_rules.py"
    source = path.read_text(encoding="utf-8")
    # Read PLAYED_WITH without running the migration (it needs alembic's context only in its functions).
    spec = importlib.util.spec_from_file_location("migration_2b7c1a0e9d34", path)
    assert spec and spec.loader and "PLAYED_WITH" in source
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.PLAYED_WITH["cla"]["values"] == MIGRATED_CLA_VALUES


@pytest.mark.parametrize("preset, three_in_hand", [("wca", 100), ("modern", 100), ("modern", 0), ("cla", 0)])
def test_other_older_games_charge_the_last_card_as_any_three_in_hand(preset, three_in_hand):
    # Stored before the value: the last-drawn 3 was one of the 3s left in hand, charged three_in_hand, and the
    # switch was part of the game where three_in_hand was above 0. Two 3s in hand, one drawn last: 2 × 100.
    values = {**rules_json(make_rules(preset))["values"], "three_in_hand": three_in_hand}
    del values["last_draw_three"]
    game = rules_from_json(stored_rules(preset, values))
    assert game.values.last_draw_three == three_in_hand
    assert game.has("last_draw_three") == (three_in_hand > 0)
    if three_in_hand:
        entry = E(natural_canastas=2, threes_in_hand=2, last_draw_three=True)
        assert score_hand(game, FOUR, hand(entry, E())).sides[0].base == 1000 - 200


def test_a_cla_game_with_its_own_100_per_three_and_other_values_keeps_100_for_the_last_card():
    # Not a game the migration wrote (its natural canasta is 600): it played the last card as any 3 in hand.
    values = {**MIGRATED_CLA_VALUES, "natural_canasta": 600}
    assert rules_from_json(stored_rules("cla", values)).values.last_draw_three == 100
