"""Club nights (docs/events.md): the event document, the movements, match points, byes and standings.

Every expected seating and figure below was worked out by hand from the definitions in docs/events.md (the
comment beside each case shows the working), never copied from the code. Pairs and tables are numbered from 0,
as the document numbers them; the messages a person reads number them from 1.

Mitchell with P pairs: T = ceil(P/2) tables; pair t sits North–South at table t; in round r the East–West pair
at table t is T + ((t − r) mod T); with P odd, pair 2T − 1 is a phantom and the pair facing it sits out.
Round-robin (circle method), E = P rounded up to even, n = E − 1, fixed pair F = n (the phantom when P is odd):
round r seats (F, r), then ((r + k) mod n, (r − k) mod n) for k = 1 … E/2 − 1, tables numbered in that order
without the phantom's; against F the even-numbered pair has side 0; between i = r + k and j = r − k, i has side 0
when (j − i) mod n is odd.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.events import (
    Event,
    EventConflict,
    FormatError,
    Pair,
    RoundResult,
    RuleError,
    Standing,
    TableResult,
    add_late_pair,
    event_document,
    event_from_json,
    event_json,
    match_points,
    most_rounds,
    nearest_five,
    next_round,
    parse_event,
    round_average,
    round_results_from_json,
    round_results_json,
    seating,
    standings,
)

FLOWERS = ["Roses", "Tulips", "Lilies", "Daisies", "Irises", "Poppies", "Asters", "Violets"]
PLAYERS = [("Ann", "Cleo"), ("Bea", "Dot"), ("Eve", "Fay"), ("Gil", "Hal"), ("Ivy", "Jo"), ("Kay", "Lou")]
PLAYERS += [("May", "Nan"), ("Ola", "Pam")]


def document(pairs: int = 4, **changes: object) -> dict:
    """The example document of docs/events.md, with `pairs` pairs and any key changed."""
    data = {
        "format": "scorepad-event",
        "version": 1,
        "name": "Tuesday club night",
        "rules": {"preset": "modern", "hands_per_game": 3, "minimum_counts_by_hand": [125, 155, 180]},
        "pairs": [{"name": FLOWERS[i], "players": list(PLAYERS[i])} for i in range(pairs)],
        "movement": "mitchell",
        "rounds": 2,
        "round_minutes": None,
        "scoring": "match_points",
        "bye": "average",
    }
    data.update(changes)
    return data


def event(pairs: int = 4, **changes: object) -> Event:
    return parse_event(document(pairs, **changes))


def seated(movement: str, pairs: int, round: int) -> list[tuple[int, tuple[int, int]]]:
    return [(table.table, table.pairs) for table in seating(movement, pairs, round).tables]


def refusals(data: object) -> dict[str, str]:
    with pytest.raises(RuleError) as caught:
        parse_event(data)
    return {".".join(str(part) for part in problem.path): problem.message for problem in caught.value.problems}


# --- Mitchell ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pairs", "rounds"),
    [
        # 4 pairs: T = 2, EW pairs 2 and 3.
        # r0: t0 2 + (0 mod 2) = 2, t1 2 + (1 mod 2) = 3; r1: t0 2 + (−1 mod 2) = 3, t1 2 + 0 = 2.
        (4, [([(0, (0, 2)), (1, (1, 3))], None), ([(0, (0, 3)), (1, (1, 2))], None)]),
        # 5 pairs: T = 3, EW 3, 4 and the phantom 5.
        # r0: t0 3, t1 4, t2 5 (phantom: pair 2 sits out)
        # r1: t0 3 + 2 = 5 (pair 0 sits out), t1 3, t2 4
        # r2: t0 3 + 1 = 4, t1 3 + 2 = 5 (pair 1 sits out), t2 3
        (
            5,
            [
                ([(0, (0, 3)), (1, (1, 4))], 2),
                ([(1, (1, 3)), (2, (2, 4))], 0),
                ([(0, (0, 4)), (2, (2, 3))], 1),
            ],
        ),
        # 6 pairs: T = 3, EW 3, 4, 5. r0: 3, 4, 5; r1: 3 + 2 = 5, 3, 4; r2: 3 + 1 = 4, 5, 3.
        (
            6,
            [
                ([(0, (0, 3)), (1, (1, 4)), (2, (2, 5))], None),
                ([(0, (0, 5)), (1, (1, 3)), (2, (2, 4))], None),
                ([(0, (0, 4)), (1, (1, 5)), (2, (2, 3))], None),
            ],
        ),
        # 7 pairs: T = 4, EW 4, 5, 6 and the phantom 7.
        # r0: 4, 5, 6, 7 (pair 3 out); r1: 4 + 3 = 7 (pair 0 out), 4, 5, 6
        # r2: 4 + 2 = 6, 7 (pair 1 out), 4, 5; r3: 4 + 1 = 5, 6, 7 (pair 2 out), 4
        (
            7,
            [
                ([(0, (0, 4)), (1, (1, 5)), (2, (2, 6))], 3),
                ([(1, (1, 4)), (2, (2, 5)), (3, (3, 6))], 0),
                ([(0, (0, 6)), (2, (2, 4)), (3, (3, 5))], 1),
                ([(0, (0, 5)), (1, (1, 6)), (3, (3, 4))], 2),
            ],
        ),
    ],
)
def test_mitchell_seats_each_round_as_worked_out(pairs, rounds):
    assert most_rounds("mitchell", pairs) == len(rounds)
    for r, (tables, bye) in enumerate(rounds):
        assert seated("mitchell", pairs, r) == tables
        assert seating("mitchell", pairs, r).bye == bye


def test_a_mitchell_of_three_pairs_never_seats_the_two_stationary_pairs_together():
    # T = 2: pairs 0 and 1 stay North–South, pair 2 moves, the phantom 3 moves too.
    # r0: t0 2 + 0 = 2, t1 2 + 1 = 3 (pair 1 out); r1: t0 2 + 1 = 3 (pair 0 out), t1 2 + 0 = 2.
    assert seated("mitchell", 3, 0) == [(0, (0, 2))]
    assert seating("mitchell", 3, 0).bye == 1
    assert seated("mitchell", 3, 1) == [(1, (1, 2))]
    assert seating("mitchell", 3, 1).bye == 0


# --- Round-robin -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pairs", "rounds"),
    [
        # 4 pairs: n = 3, F = 3.
        # r0: (3, 0) → 0 even: (0, 3); k1: i 1, j 2, (2 − 1) mod 3 = 1 odd → (1, 2)
        # r1: (3, 1) → 1 odd: (3, 1); k1: i 2, j 0, (0 − 2) mod 3 = 1 → (2, 0)
        # r2: (3, 2) → (2, 3); k1: i 0, j 1, 1 → (0, 1)
        (
            4,
            [
                ([(0, (0, 3)), (1, (1, 2))], None),
                ([(0, (3, 1)), (1, (2, 0))], None),
                ([(0, (2, 3)), (1, (0, 1))], None),
            ],
        ),
        # 5 pairs: E = 6, n = 5, F = 5 the phantom; pair r sits out in round r.
        # r0: k1 i 1 j 4, (4 − 1) = 3 odd → (1, 4); k2 i 2 j 3, 1 → (2, 3)
        # r1: k1 i 2 j 0, (0 − 2) mod 5 = 3 → (2, 0); k2 i 3 j 4, 1 → (3, 4)
        # r2: k1 i 3 j 1, 3 → (3, 1); k2 i 4 j 0, (0 − 4) mod 5 = 1 → (4, 0)
        # r3: k1 i 4 j 2, 3 → (4, 2); k2 i 0 j 1, 1 → (0, 1)
        # r4: k1 i 0 j 3, 3 → (0, 3); k2 i 1 j 2, 1 → (1, 2)
        (
            5,
            [
                ([(0, (1, 4)), (1, (2, 3))], 0),
                ([(0, (2, 0)), (1, (3, 4))], 1),
                ([(0, (3, 1)), (1, (4, 0))], 2),
                ([(0, (4, 2)), (1, (0, 1))], 3),
                ([(0, (0, 3)), (1, (1, 2))], 4),
            ],
        ),
    ],
)
def test_round_robin_seats_each_round_as_worked_out(pairs, rounds):
    assert most_rounds("round_robin", pairs) == len(rounds)
    for r, (tables, bye) in enumerate(rounds):
        assert seated("round_robin", pairs, r) == tables
        assert seating("round_robin", pairs, r).bye == bye


def test_round_robin_of_six_and_seven_pairs_first_round():
    # 6 pairs: n = 5, F = 5 real. r0: (5, 0) → (0, 5); k1 i 1 j 4, 3 odd → (1, 4); k2 i 2 j 3, 1 → (2, 3).
    assert seated("round_robin", 6, 0) == [(0, (0, 5)), (1, (1, 4)), (2, (2, 3))]
    assert seating("round_robin", 6, 0).bye is None
    # 7 pairs: n = 7, F = 7 the phantom: pair 0 out; k1 i 1 j 6, 5 odd → (1, 6); k2 i 2 j 5, 3 → (2, 5);
    # k3 i 3 j 4, 1 → (3, 4); the three tables that play are 0, 1, 2.
    assert seated("round_robin", 7, 0) == [(0, (1, 6)), (1, (2, 5)), (2, (3, 4))]
    assert seating("round_robin", 7, 0).bye == 0
    # round 6 (the last): pair 6 out; k1 i 0 j 5, (5 − 0) = 5 odd → (0, 5); k2 i 1 j 4, 3 → (1, 4);
    # k3 i 2 j 3, 1 → (2, 3).
    assert seated("round_robin", 7, 6) == [(0, (0, 5)), (1, (1, 4)), (2, (2, 3))]
    assert seating("round_robin", 7, 6).bye == 6
    assert most_rounds("round_robin", 7) == 7
    assert most_rounds("round_robin", 6) == 5


def test_a_round_the_movement_does_not_have_is_not_seated():
    # A Mitchell of 4 pairs has 2 tables, so 2 rounds (0 and 1); a round-robin of 4 has 3 (0, 1, 2).
    with pytest.raises(ValueError):
        seating("mitchell", 4, 2)
    with pytest.raises(ValueError):
        seating("round_robin", 4, 3)
    with pytest.raises(ValueError):
        seating("howell", 4, 0)


# --- Properties of the movements --------------------------------------------------------


def _all_rounds(movement: str, pairs: int):
    return [seating(movement, pairs, r) for r in range(most_rounds(movement, pairs))]


@settings(max_examples=60, deadline=None)
@given(pairs=st.integers(min_value=2, max_value=41))
def test_round_robin_every_pair_meets_every_other_exactly_once(pairs):
    rounds = _all_rounds("round_robin", pairs)
    met = [frozenset(table.pairs) for seating_ in rounds for table in seating_.tables]
    assert sorted(met, key=sorted) == sorted((frozenset(p) for p in combinations(range(pairs), 2)), key=sorted)
    for seating_ in rounds:  # nobody twice in a round, and everybody there (seated or sitting out)
        present = [pair for table in seating_.tables for pair in table.pairs] + [seating_.bye] * (
            seating_.bye is not None
        )
        assert sorted(present) == list(range(pairs))
        assert [table.table for table in seating_.tables] == list(range(len(seating_.tables)))
    # Each pair sits out at most once (exactly once when the number is odd) and has side 0 in half its rounds.
    byes = [seating_.bye for seating_ in rounds if seating_.bye is not None]
    assert sorted(byes) == (list(range(pairs)) if pairs % 2 else [])
    for pair in range(pairs):
        played = sum(pair in table.pairs for seating_ in rounds for table in seating_.tables)
        first = sum(table.pairs[0] == pair for seating_ in rounds for table in seating_.tables)
        assert played // 2 <= first <= (played + 1) // 2


@settings(max_examples=60, deadline=None)
@given(pairs=st.integers(min_value=2, max_value=41))
def test_a_mitchell_never_seats_a_pair_twice_at_once_nor_two_pairs_together_twice(pairs):
    rounds = _all_rounds("mitchell", pairs)
    tables = (pairs + 1) // 2
    met: set[frozenset[int]] = set()
    for seating_ in rounds:
        present = [pair for table in seating_.tables for pair in table.pairs] + [seating_.bye] * (
            seating_.bye is not None
        )
        assert sorted(present) == list(range(pairs))
        for table in seating_.tables:
            assert table.pairs[0] == table.table < tables <= table.pairs[1]  # North–South stays at its table
            assert frozenset(table.pairs) not in met
            met.add(frozenset(table.pairs))
    byes = [seating_.bye for seating_ in rounds if seating_.bye is not None]
    assert len(byes) == len(set(byes)) == (len(rounds) if pairs % 2 else 0)  # a bye each round, never twice


@settings(max_examples=60, deadline=None)
@given(
    movement=st.sampled_from(["mitchell", "round_robin"]),
    pairs=st.integers(min_value=1, max_value=20).map(lambda n: 2 * n + 1),
    data=st.data(),
)
def test_a_late_pair_plays_the_pair_that_would_have_sat_out_and_nobody_else_moves(movement, pairs, data):
    joined = data.draw(st.integers(min_value=1, max_value=most_rounds(movement, pairs) - 1), label="joins before")
    for r in range(joined, most_rounds(movement, pairs)):
        before, after = seating(movement, pairs, r), seating(movement, pairs + 1, r)
        assert after.bye is None
        late = [table for table in after.tables if pairs in table.pairs]
        assert len(late) == 1 and before.bye in late[0].pairs
        kept = {table.pairs for table in after.tables if pairs not in table.pairs}
        assert kept == {table.pairs for table in before.tables}


# --- The event document -----------------------------------------------------------------


def test_the_document_of_the_example_reads_and_writes_back_the_same():
    data = document()
    parsed = parse_event(copy.deepcopy(data))
    assert parsed.pairs[1] == Pair("Tulips", ("Bea", "Dot"))
    assert (parsed.movement, parsed.rounds, parsed.tables, parsed.hands_per_game) == ("mitchell", 2, 2, 3)
    assert event_json(parsed) == data
    assert event_from_json(event_json(parsed)) == parsed


def test_the_clock_scoring_and_bye_may_be_left_out():
    data = document()
    for key in ("round_minutes", "scoring", "bye"):
        del data[key]
    parsed = parse_event(data)
    assert (parsed.round_minutes, parsed.scoring, parsed.bye) == (None, "match_points", "average")
    assert parse_event(document(round_minutes=75, scoring="total", bye="zero")).round_minutes == 75


def test_what_the_server_adds_is_ignored_when_a_document_comes_back():
    data = document(id="abc", status="finished", standings=[{"rank": 9}], round_results=[], revision=4)
    assert event_json(parse_event(data)) == document()


def test_names_are_cleaned_as_a_game_cleans_them():
    data = document()
    data["pairs"][0] = {"name": "  Roses\u202e ", "players": [" Ann", "Cleo\t"]}
    assert parse_event(data).pairs[0] == Pair("Roses", ("Ann", "Cleo"))


def test_single_players_make_an_event_of_one_player_per_pair():
    data = document(pairs=3, movement="round_robin", rounds=3)
    for pair, player in zip(data["pairs"], ["Ann", "Bea", "Eve"], strict=True):
        pair["players"] = [player]
    assert [pair.players for pair in parse_event(data).pairs] == [("Ann",), ("Bea",), ("Eve",)]


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        # 4 pairs: 2 tables, so a Mitchell has 2 rounds.
        (
            {"rounds": 3},
            "rounds",
            "A Mitchell of 4 pairs has at most 2 rounds (2 tables); after that pairs would meet again.",
        ),
        # 5 pairs and the phantom: 6, so 5 rounds.
        (
            {"movement": "round_robin", "rounds": 6, "pairs": 5},
            "rounds",
            "A round-robin of 5 pairs has at most 5 rounds (every pair meets every other once); "
            "after that pairs would meet again.",
        ),
        ({"rounds": 0}, "rounds", "Rounds: how many rounds to play, a whole number like 3."),
        ({"rounds": "2"}, "rounds", "Rounds: how many rounds to play, a whole number like 3."),
        ({"movement": "howell"}, "movement", "Movement: choose mitchell or round_robin."),
        ({"scoring": "imps"}, "scoring", "Scoring: choose match_points or total."),
        ({"bye": "half"}, "bye", "Bye: choose average or zero."),
        (
            {"round_minutes": 0},
            "round_minutes",
            "The round's clock: minutes from 1 to 240, like 75, or null for no clock.",
        ),
        ({"name": "  "}, "name", 'Give the event a name, like "Tuesday club night".'),
        ({"venue": "the club"}, "venue", "Unknown field 'venue'."),
        (
            {"pairs": 1},
            "pairs",
            "List the pairs, at least two, each with its name and players.",
        ),
        (
            {"rules": {"preset": "modern", "hands_per_game": 0}},
            "rules.hands_per_game",
            "Number of hands: a game of 1 to 200 hands, like 3 (or none: play to the target).",
        ),
        (
            {"rules": {"preset": "modern", "minimum_counts_by_hand": [125, 157]}},
            "rules.minimum_counts_by_hand.1",
            "The Minimum Count of hand 2: points are a multiple of 5.",
        ),
        (
            {"rules": {"preset": "modern", "minimum_counts_by_hand": []}},
            "rules.minimum_counts_by_hand",
            "Minimum Counts by hand: list each hand's Minimum Count, like 125, 155, 180 (or none: by the bands).",
        ),
        # The game's own rules are checked as a new game's are, in the rules' words (the number of hands and the
        # Minimum Counts by hand among them: tests/test_fixed_hands.py).
        (
            {"rules": {"preset": "bridge"}},
            "rules.preset",
            "Unknown preset 'bridge': choose modern, cla, wca or classic.",
        ),
        ({"rules": {"preset": "modern", "target": 8501}}, "rules.target", "The target: points are a multiple of 5."),
        ({"rules": {"preset": "modern", "dealer": 2}}, "rules.dealer", "Unknown field 'dealer'."),
        ({"rules": "modern"}, "rules", 'Every table\'s rules name at least a preset, like {"preset": "modern"}.'),
    ],
)
def test_a_choice_the_event_cannot_play_is_refused_in_words(changes, field, message):
    assert refusals(document(**changes)) == {field: message}


def test_pairs_are_refused_in_words_each_at_its_place():
    data = document(pairs=5, movement="round_robin", rounds=5)
    data["pairs"][1]["name"] = "roses"  # the same name as pair 1's, in other letters
    data["pairs"][2]["players"] = ["Eve", "ann"]  # Ann already plays in Roses
    data["pairs"][3] = {"players": ["Gil", "Hal"]}  # no name
    data["pairs"][4]["players"] = ["Ivy", "Jo", "Kay"]  # three players
    assert refusals(data) == {
        "pairs.1.name": "Two pairs are called 'roses': give each pair its own name.",
        "pairs.2.players.1": "ann already plays in Roses: a player sits at one table at a time. "
        'If they are two people, tell them apart, like "Ann B.".',
        "pairs.3.name": 'Pair 4 needs a name, like "Roses".',
        "pairs.4.players": 'Pair 5: list its two players in seat order, like ["Ann", "Cleo"] (one, if single).',
    }


def test_a_player_is_not_their_own_partner():
    data = document()
    data["pairs"][1]["players"] = ["Bea", "BEA"]
    assert refusals(data) == {"pairs.1.players.1": "BEA is named twice in Pair 2: give the partner's name."}


def test_every_pair_has_as_many_players_as_the_first():
    data = document()
    data["pairs"][2]["players"] = ["Eve"]
    assert refusals(data) == {
        "pairs.2.players": "Every pair has 2 players, as the first pair does; this one has 1.",
    }


def test_every_problem_is_reported_at_once():
    data = document(movement="howell", scoring="imps", round_minutes=-5, name=7)
    data["pairs"][0]["players"] = ["", "Cleo"]
    assert set(refusals(data)) == {"movement", "scoring", "round_minutes", "name", "pairs.0.players.0"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "Expected a Scorepad event document (a JSON object)."),
        (document(format="scorepad-game"), "This is not a Scorepad event: \"format\" must be 'scorepad-event'."),
        (document(version=2), "Unknown event document version 2: this Scorepad reads version 1."),
        (document(version=True), "Unknown event document version: this Scorepad reads version 1."),  # true is no 1
        (document(version=None), 'This event has no "version": this Scorepad reads version 1.'),
    ],
)
def test_a_body_that_is_no_event_document_is_refused_before_its_fields(data, message):
    with pytest.raises(FormatError) as caught:
        parse_event(data)
    assert str(caught.value) == message


# --- A late pair ------------------------------------------------------------------------


def test_a_late_pair_takes_the_phantoms_place_in_a_mitchell():
    five = event(5, rounds=3)
    six = add_late_pair(five, {"name": "Poppies", "players": ["Kay", "Lou"]}, rounds_started=1)
    assert six.pairs[5] == Pair("Poppies", ("Kay", "Lou"))
    # 5 pairs, round 1: pair 0 sat out (t0 3 + 2 = 5, the phantom). With the late pair 5 there:
    # t0 (0, 5), t1 (1, 3), t2 (2, 4); round 2: t0 3 + 1 = 4, t1 3 + 2 = 5, t2 3: (0, 4), (1, 5), (2, 3).
    assert seated("mitchell", 6, 1) == [(0, (0, 5)), (1, (1, 3)), (2, (2, 4))]
    assert seated("mitchell", 6, 2) == [(0, (0, 4)), (1, (1, 5)), (2, (2, 3))]
    assert six.rounds == 3


def test_a_late_pair_takes_the_phantoms_place_in_a_round_robin():
    # 5 pairs, round 2: pair 2 out, (3, 1), (4, 0). With 6 pairs, F = 5 is the late pair:
    # (5, 2) → 2 even: (2, 5); the other tables as they were.
    assert seated("round_robin", 6, 2) == [(0, (2, 5)), (1, (3, 1)), (2, (4, 0))]


@pytest.mark.parametrize(
    ("pairs", "data", "started", "refusal"),
    [
        (
            4,
            {"name": "Irises", "players": ["Ivy", "Jo"]},
            1,
            "With 4 pairs every seat is taken each round. A late pair takes the place of the pair that sits out, "
            "so it can join only while the number of pairs is odd.",
        ),
        (
            5,
            {"name": "Poppies", "players": ["Kay", "Lou"]},
            2,
            "All 2 rounds have started: a late pair can't join now.",
        ),
    ],
)
def test_a_late_pair_with_no_seat_is_refused_in_words(pairs, data, started, refusal):
    with pytest.raises(EventConflict) as caught:
        add_late_pair(event(pairs), data, rounds_started=started)
    assert str(caught.value) == refusal


def test_a_late_pair_is_checked_as_the_others_are():
    with pytest.raises(RuleError) as caught:
        add_late_pair(event(5), {"name": "ROSES", "players": ["Kay", "Dot"], "seat": 1}, rounds_started=1)
    assert {problem.path: problem.message for problem in caught.value.problems} == {
        ("seat",): "Unknown field 'seat'.",
        ("name",): "Two pairs are called 'ROSES': give each pair its own name.",
        ("players", 1): "Dot already plays in Tulips: a player sits at one table at a time. If they are two people, "
        'tell them apart, like "Ann B.".',
    }


# --- Match points, byes, standings ------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "expected"),
    [((1900, 1600), (2, 0)), ((1750, 1750), (1, 1)), ((-200, 150), (0, 2)), ((0, 0), (1, 1))],
)
def test_match_points_are_a_win_two_a_tie_one_a_loss_nothing(points, expected):
    assert match_points(points) == expected


@pytest.mark.parametrize(
    ("average", "rounded"),
    [
        (Fraction(18275, 10), 1830),  # 1,827.5 is halfway between 1,825 and 1,830: halves up
        (Fraction(182625, 100), 1825),  # 1,826.25 is nearer 1,825
        (Fraction(18285, 10), 1830),  # 1,828.5 is nearer 1,830
        (Fraction(-25, 10), 0),  # −2.5, halfway between −5 and 0: up is 0
        (Fraction(-75, 10), -5),  # −7.5, halfway between −10 and −5: up is −5
        (Fraction(1900), 1900),
    ],
)
def test_an_average_is_rounded_to_a_multiple_of_five_halves_up(average, rounded):
    assert nearest_five(average) == rounded


def table(n: int, pairs: tuple[int, int], points: tuple[int, int], finished: bool = True) -> TableResult:
    return TableResult(n, pairs, points, finished=finished, hands=3 if finished else 1)


# Four pairs, a Mitchell of two rounds (seating as worked out above: r0 (0, 2), (1, 3); r1 (0, 3), (1, 2)).
FOUR_PAIRS = [
    RoundResult((table(0, (0, 2), (1900, 1600)), table(1, (1, 3), (1500, 2300)))),
    RoundResult((table(0, (0, 3), (1200, 2080)), table(1, (1, 2), (1750, 1750)))),
]


def test_standings_by_match_points_then_difference_then_points():
    # pair 0: win 2 (+300, 1,900), loss 0 (1,200 − 2,080 = −880, 1,200): 2 mp, −580, 3,100
    # pair 1: loss 0 (1,500 − 2,300 = −800, 1,500), tie 1 (0, 1,750): 1 mp, −800, 3,250
    # pair 2: loss 0 (−300, 1,600), tie 1 (0, 1,750): 1 mp, −300, 3,350
    # pair 3: win 2 (+800, 2,300), win 2 (+880, 2,080): 4 mp, +1,680, 4,380
    # Pairs 1 and 2 both have 1 mp; pair 2's difference (−300) is the better.
    assert standings(event(), FOUR_PAIRS) == (
        Standing(rank=1, pair=3, match_points=4, points=4380, difference=1680, played=2),
        Standing(rank=2, pair=0, match_points=2, points=3100, difference=-580, played=2),
        Standing(rank=3, pair=2, match_points=1, points=3350, difference=-300, played=2),
        Standing(rank=4, pair=1, match_points=1, points=3250, difference=-800, played=2),
    )


def test_standings_by_total_then_match_points():
    # Points as above: 3 (4,380), 2 (3,350), 1 (3,250), 0 (3,100).
    assert [(line.rank, line.pair) for line in standings(event(scoring="total"), FOUR_PAIRS)] == [
        (1, 3),
        (2, 2),
        (3, 1),
        (4, 0),
    ]
    # Equal totals: pair 0 2,000 (a win), pair 2 1,500 + pair 1 ... one round: (0, 2) 2,000–1,500 and
    # (1, 3) 2,000–2,500: pairs 0 and 1 both 2,000 points; pair 0 won (2 mp), pair 1 lost (0 mp).
    one_round = [RoundResult((table(0, (0, 2), (2000, 1500)), table(1, (1, 3), (2000, 2500))))]
    assert [(line.rank, line.pair) for line in standings(event(scoring="total"), one_round)] == [
        (1, 3),
        (2, 0),
        (3, 1),
        (4, 2),
    ]


def test_pairs_equal_on_every_key_share_a_rank():
    # (0, 2) 2,500–1,500: pair 0 2 mp +1,000 2,500; pair 2 0 mp −1,000 1,500.
    # (1, 3) 2,000–2,000: pairs 1 and 3 both 1 mp, 0, 2,000: equal on every key, so 1, 2, 2, 4.
    one_round = [RoundResult((table(0, (0, 2), (2500, 1500)), table(1, (1, 3), (2000, 2000))))]
    assert [(line.rank, line.pair) for line in standings(event(), one_round)] == [(1, 0), (2, 1), (2, 3), (4, 2)]
    # By points: equal too (2,000 and 1 mp each).
    assert [(line.rank, line.pair) for line in standings(event(scoring="total"), one_round)] == [
        (1, 0),
        (2, 1),
        (2, 3),
        (4, 2),
    ]


def test_equal_match_points_and_difference_are_parted_by_points():
    # (0, 2) 2,000–1,500 and (1, 3) 1,800–1,300: pairs 0 and 1 both 2 mp, +500; 2,000 beats 1,800.
    # Pairs 2 and 3 both 0 mp, −500; 1,500 beats 1,300.
    one_round = [RoundResult((table(0, (0, 2), (2000, 1500)), table(1, (1, 3), (1800, 1300))))]
    assert [(line.rank, line.pair) for line in standings(event(), one_round)] == [(1, 0), (2, 1), (3, 2), (4, 3)]


# Five pairs, Mitchell round 0 (worked out above): (0, 3), (1, 4), pair 2 sits out.
def five_pairs_round(second_table_finished: bool = True) -> list[RoundResult]:
    return [
        RoundResult(
            (table(0, (0, 3), (1900, 1600)), table(1, (1, 4), (1500, 2310), second_table_finished)),
            bye=2,
        )
    ]


def test_a_bye_scores_the_rounds_average_and_one_match_point():
    # (1,900 + 1,600 + 1,500 + 2,310) / 4 = 7,310 / 4 = 1,827.5 → 1,830 (halves up); 1 mp, difference 0.
    results = five_pairs_round()
    assert round_average(results[0]) == 1830
    lines = {line.pair: line for line in standings(event(5), results)}
    assert lines[2] == Standing(rank=3, pair=2, match_points=1, points=1830, difference=0, played=1)
    # pair 4: 2 mp +810; pair 0: 2 mp +300; the bye's pair 2: 1 mp; pairs 3 (−300) and 1 (−810) 0 mp.
    assert [line.pair for line in standings(event(5), results)] == [4, 0, 2, 3, 1]


def test_a_bye_scores_nothing_when_the_event_says_zero():
    lines = {line.pair: line for line in standings(event(5, bye="zero"), five_pairs_round())}
    assert lines[2] == Standing(rank=3, pair=2, match_points=0, points=0, difference=0, played=1)


def test_a_table_still_playing_counts_once_it_finishes_and_so_does_the_bye():
    # Table 1 still playing: it does not count, nor the bye (its average needs every table);
    # pair 0 leads with 2 mp, pair 3 has played and lost, pairs 1, 4 and 2 have nothing yet.
    results = five_pairs_round(second_table_finished=False)
    assert round_average(results[0]) is None
    assert [(line.rank, line.pair, line.played) for line in standings(event(5), results)] == [
        (1, 0, 1),
        (2, 1, 0),
        (2, 2, 0),
        (2, 4, 0),
        (5, 3, 1),
    ]


@settings(max_examples=80, deadline=None)
@given(
    cumulatives=st.lists(
        st.tuples(st.integers(-2000, 2000), st.integers(-2000, 2000)).map(lambda t: (t[0] * 5, t[1] * 5)),
        min_size=6,
        max_size=6,
    ),
    scoring=st.sampled_from(["match_points", "total"]),
)
def test_standings_hold_their_sums_and_their_order(cumulatives, scoring):
    five = event(5, movement="round_robin", rounds=3, scoring=scoring)
    results = []
    for r in range(3):  # three rounds of a round-robin of 5: two tables each, one bye
        seat = seating("round_robin", 5, r)
        tables = tuple(table(t.table, t.pairs, cumulatives[2 * r + t.table]) for t in seat.tables)
        results.append(RoundResult(tables, seat.bye))
    lines = standings(five, results)
    assert sorted(line.pair for line in lines) == list(range(5))
    # Every finished table gives 2 match points between its pairs, every bye 1: 3 × (2 × 2 + 1) = 15.
    assert sum(line.match_points for line in lines) == 15
    # Differences cancel out at each table; a bye's is 0.
    assert sum(line.difference for line in lines) == 0
    assert all(line.played == 3 for line in lines)
    for above, below in zip(lines, lines[1:], strict=False):
        key = (
            (lambda s: (s.points, s.match_points))
            if scoring == "total"
            else (lambda s: (s.match_points, s.difference, s.points))
        )
        assert key(above) >= key(below)
        assert (above.rank == below.rank) == (key(above) == key(below))


# --- Rounds: starting the next one, and the document with what the server adds ----------


def test_the_next_round_waits_for_every_table_unless_the_director_closes_it():
    four = event()
    started = [RoundResult((table(0, (0, 2), (1900, 1600)), table(1, (1, 3), (600, 300), finished=False)))]
    with pytest.raises(EventConflict) as caught:
        next_round(four, started)
    assert str(caught.value) == (
        "A table is still playing: table 2 (Tulips against Daisies, 1 of 3 hands played). "
        "Wait for it to finish, or close the round."
    )
    assert next_round(four, started, close=True) == seating("mitchell", 4, 1)
    assert next_round(four, []) == seating("mitchell", 4, 0)


def test_the_next_round_names_every_table_still_playing_and_refuses_after_the_last():
    unfinished = [RoundResult((table(0, (0, 2), (0, 0), False), table(1, (1, 3), (0, 0), False)))]
    with pytest.raises(EventConflict) as caught:
        next_round(event(rules={"preset": "modern"}), unfinished)  # no fixed number of hands: "1 hand played"
    assert str(caught.value) == (
        "2 tables are still playing: table 1 (Roses against Lilies, 1 hand played) and "
        "table 2 (Tulips against Daisies, 1 hand played). Wait for them to finish, or close the round."
    )
    with pytest.raises(EventConflict) as caught:
        next_round(event(), FOUR_PAIRS)
    assert str(caught.value) == "All 2 rounds have been played: the event is over."


def test_the_document_carries_round_results_and_standings_with_the_contracts_names():
    done = event_document(event(), FOUR_PAIRS, id="ev1", room_code="ABC234", revision=7)
    assert list(done)[:10] == ["format", "version", "name", "rules", "pairs", "movement", "rounds", "round_minutes",
                               "scoring", "bye"]  # fmt: skip
    assert (done["id"], done["room_code"], done["revision"], done["status"]) == ("ev1", "ABC234", 7, "finished")
    assert done["round_results"][0] == {
        "tables": [
            {"table": 0, "pairs": [0, 2], "game": None, "hands": 3, "status": "finished", "confirmed": False,
             "points": [1900, 1600]},
            {"table": 1, "pairs": [1, 3], "game": None, "hands": 3, "status": "finished", "confirmed": False,
             "points": [1500, 2300]},
        ],
        "bye": None,
    }  # fmt: skip
    assert done["standings"][0] == {
        "rank": 1,
        "pair": 3,
        "match_points": 4,
        "points": 4380,
        "difference": 1680,
        "played": 2,
    }
    assert event_document(event(), FOUR_PAIRS[:1])["status"] == "in_progress"
    # A document sent back with its outputs reads as the same event.
    assert parse_event(done) == event()


def test_round_results_read_back_as_written():
    results = [
        RoundResult((TableResult(0, (0, 3), (1900, 1600), finished=True, confirmed=True, hands=3, game="g1"),), bye=2),
        RoundResult((TableResult(1, (1, 3), (455, -60), hands=1, game="g2"),), bye=0),
    ]
    assert round_results_from_json(round_results_json(results)) == tuple(results)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from([*document(), "pairs.0", "pairs.1.players", "rules.hands_per_game"]), value=JSON)
def test_any_value_in_any_field_is_read_or_refused_in_words(key, value):
    data = document(5, movement="round_robin", rounds=5)
    *parents, last = key.split(".")
    target = data
    for part in parents:
        target = target[int(part)] if part.isdigit() else target[part]
    target[int(last) if last.isdigit() else last] = value
    try:
        parsed = parse_event(data)
    except FormatError as error:
        assert key in ("format", "version") and str(error)
    except RuleError as error:
        assert error.problems and all(problem.message for problem in error.problems)
    else:
        assert event_json(parsed)["pairs"][0]["name"]
