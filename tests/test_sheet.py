"""What a hand row says about each side (scorepad/sheet.py): the marks a paper scorekeeper notes beside the
figures, from the entries alone, worked out by hand from docs/rules.md."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorepad.rules import PRESETS, Hand, SideEntry
from scorepad.sheet import BONUS, PENALTY, SPECIAL, Mark, hand_marks, side_marks

MODERN = PRESETS["modern"].rules
WCA = PRESETS["wca"].rules
CLASSIC = PRESETS["classic"].rules


def shown(marks) -> list[str]:
    return [mark.shown for mark in marks]


def test_a_side_that_did_nothing_of_note_has_no_marks():
    assert side_marks(MODERN, SideEntry(count=-120)) == ()


def test_going_out_comes_first_then_canastas_then_threes_then_the_cut():
    entry = SideEntry(
        red_threes=2,
        black_threes=1,
        natural_canastas=1,
        mixed_canastas=2,
        went_out=True,
        perfect_cut=True,
        count=385,
    )
    assert side_marks(MODERN, entry) == (
        Mark("went out", "went out"),
        Mark("1 natural", "1 natural canasta"),
        Mark("2 mixed", "2 mixed canastas"),
        Mark("2 red 3s", "2 red 3s"),
        Mark("1 black 3", "1 black 3"),
        Mark("perfect cut", "perfect cut"),
    )


@pytest.mark.parametrize(
    ("entry", "mark"),
    [
        (SideEntry(sevens_canasta=True), Mark("7s canasta", "sevens canasta", SPECIAL)),
        (SideEntry(aces_canasta=True), Mark("aces canasta", "pure aces canasta", SPECIAL)),
        (SideEntry(wild_canasta="deuces"), Mark("2s canasta", "wild-card canasta of seven 2s", SPECIAL)),
        (
            SideEntry(wild_canasta="jokers"),
            Mark("jokers canasta", "wild-card canasta of four jokers and three 2s", SPECIAL),
        ),
        (SideEntry(wild_canasta="mixed"), Mark("wild canasta", "wild-card canasta of any other mix", SPECIAL)),
    ],
)
def test_each_special_canasta_is_marked_special_and_named_in_full(entry, mark):
    assert side_marks(MODERN, entry) == (mark,)
    assert mark.shortened


def test_penalties_name_what_was_caught_and_how_many_players():
    entry = SideEntry(
        natural_canastas=2,
        incomplete_sevens=True,
        incomplete_wild=True,
        dirty_sevens=2,
        dirty_aces=1,
    )
    assert side_marks(MODERN, entry) == (
        Mark("2 natural", "2 natural canastas"),
        Mark("unfinished 7s", "unfinished sevens meld", PENALTY),
        Mark("unfinished wilds", "unfinished wild-card meld", PENALTY),
        Mark("dirty 7s \u00d72", "2 players caught with three 7s", PENALTY),
        Mark("dirty aces", "1 player caught with three aces", PENALTY),
    )


def test_a_special_hand_is_all_that_side_shows_whatever_else_was_entered():
    # Its Base is the hand's value, Count 0: the 3s and canastas entered beside it are kept but not counted.
    entry = SideEntry(special_hand="pungs_kongs", red_threes=1, natural_canastas=1, count=50)
    assert side_marks(MODERN, entry) == (Mark("Pungs and kongs", "Pungs and kongs (4-4-3-3)", SPECIAL),)
    assert side_marks(MODERN, SideEntry(special_hand="pairs")) == (Mark("Seven pairs", "Seven pairs", SPECIAL),)


def test_without_wipeout_the_other_side_keeps_its_marks():
    hand = Hand((SideEntry(special_hand="pairs"), SideEntry(natural_canastas=1, count=100)))
    assert [shown(marks) for marks in hand_marks(MODERN, hand)] == [["Seven pairs"], ["1 natural"]]


def test_with_wipeout_the_other_side_is_wiped_out():
    hand = Hand((SideEntry(natural_canastas=1, count=100), SideEntry(special_hand="straight")))
    assert hand_marks(WCA, hand) == (
        (Mark("wiped out", "wiped out by the special hand", PENALTY),),
        (Mark("Straight", "Straight (A to K plus a joker)", SPECIAL),),
    )


def test_threes_left_in_hand_and_the_last_card_of_the_stock():
    assert side_marks(WCA, SideEntry(threes_in_hand=1)) == (Mark("a 3 in hand", "a 3 in hand", PENALTY),)
    assert side_marks(WCA, SideEntry(threes_in_hand=2, last_draw_three=True)) == (
        Mark("2 threes in hand, one drawn last", "2 threes in hand, one the last card of the stock", PENALTY),
    )


def test_classic_marks_concealed_red_threes_in_hand_and_asks():
    entry = SideEntry(
        red_threes=1,
        natural_canastas=1,
        went_out=True,
        concealed=True,
        red_threes_in_hand=1,
        failed_go_out_asks=2,
        failed_pile_takes=1,
    )
    assert side_marks(CLASSIC, entry) == (
        Mark("went out concealed", "went out concealed"),
        Mark("1 natural", "1 natural canasta"),
        Mark("1 red 3", "1 red 3"),
        Mark("1 red 3 in hand", "1 red 3 in hand", PENALTY),
        Mark("asked, didn't go out \u00d72", "asked to go out, then didn't, 2 times", PENALTY),
        Mark("pile not used", "took the pile, couldn't use its top card", PENALTY),
    )


def test_classic_says_when_a_side_did_not_meld():
    # Its red 3s then count against it (docs/rules.md section 4), so the sheet says why.
    assert shown(side_marks(CLASSIC, SideEntry(red_threes=2, has_melded=False, count=-40))) == [
        "2 red 3s",
        "didn't meld",
    ]
    assert shown(side_marks(CLASSIC, SideEntry(red_threes=2, has_melded=True, count=40))) == ["2 red 3s"]


def test_a_perfect_cut_is_not_marked_where_the_game_does_not_play_it():
    no_cut = replace(MODERN, perfect_cut=False)
    assert side_marks(no_cut, SideEntry(perfect_cut=True)) == ()


def test_every_mark_of_every_kind_is_bonus_special_or_penalty():
    entry = SideEntry(went_out=True, natural_canastas=1, sevens_canasta=True, dirty_aces=1)
    assert [mark.kind for mark in side_marks(MODERN, entry)] == [BONUS, BONUS, SPECIAL, PENALTY]
