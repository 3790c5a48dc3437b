"""The new-game page's table rules: pre-filled from the preset, changed by the table, judged by the rules.

Figures are worked out by hand; the comment beside each shows the sum.
"""

from __future__ import annotations

import re

import pytest

from scorepad import rules

from .test_games import NEW_GAME, hand_form, text


def field_value(page: str, name: str) -> str | None:
    """The value an input of the page shows."""
    match = re.search(rf'name="{name}"[^>]*value="([^"]*)"', page)
    return match.group(1) if match else None


def error_of(page: str, name: str) -> str:
    """The message in a field's error slot."""
    match = re.search(rf'id="{name}-error"[^>]*>([^<]*)<', page)
    assert match, f"no error slot for {name}"
    return match.group(1)


HOUSE = {
    **NEW_GAME,
    "rules_from": "modern",
    "value_natural_canasta": "600",
    "band1_from": "3000",
    "band1_minimum": "150",
    "tie": "shared",
    "value_going_out": "200",
}


# --- Pre-filled from the preset ------------------------------------------------------------------


def test_the_table_rules_start_as_modern_s(client):
    page = client.get("/games/new").get_data(as_text=True)
    assert field_value(page, "value_natural_canasta") == "500"
    assert field_value(page, "band0_minimum") == "125"
    assert field_value(page, "band1_from") == "3000" and field_value(page, "band1_minimum") == "155"
    assert field_value(page, "band3_from") == ""  # a spare row, blank
    assert field_value(page, "three_4") == "1000"
    assert re.search(r'<option selected value="play_on">Play another hand</option>', page)
    assert field_value(page, "red_each") is None  # classic's red 3s belong to the other family
    for title in ("Minimum Counts", "3s", "Canastas", "Going out", "Penalties", "End of game"):
        assert f"<summary>{title}</summary>" in page
    assert "<details" in page and "<details open" not in page and " open>" not in page  # all closed


def test_choosing_classic_shows_classic_s_values(client):
    response = client.get(
        "/games/new",
        query_string={**NEW_GAME, "preset": "classic"},
        headers={"HX-Request": "true", "HX-Target": "game_rules"},
    )
    body = response.get_data(as_text=True)
    assert field_value(body, "red_all_four") == "800" and field_value(body, "red_each") == "100"
    assert field_value(body, "value_failed_pile_take") == "50"
    assert field_value(body, "value_going_out_concealed") == "200"
    assert field_value(body, "band1_from") == "0" and field_value(body, "band0_minimum") == "15"
    assert field_value(body, "three_1") is None and field_value(body, "value_sevens_canasta") is None


# --- House rules kept, and scored ------------------------------------------------------------------


@pytest.fixture
def house_game(client):
    response = client.post("/games", data=HOUSE)
    assert response.status_code == 303, text(response)
    return response.headers["Location"].rsplit("/", 1)[1]


def test_a_game_keeps_the_table_s_house_rules(client, house_game):
    game_rules = client.get(f"/api/games/{house_game}").get_json()["rules"]
    assert game_rules["values"]["natural_canasta"] == 600
    assert game_rules["values"]["going_out"] == 200
    assert game_rules["values"]["mixed_canasta"] == 300  # untouched: modern's
    assert game_rules["minimum_counts"] == [
        {"from": None, "minimum": 125},
        {"from": 3000, "minimum": 150},
        {"from": 5000, "minimum": 180},
    ]
    assert game_rules["tie"] == "shared"


def test_a_hand_scores_with_the_house_values(client, house_game):
    hand = hand_form({"natural_canastas": 2, "went_out": "y", "count": 100}, {"count": 0})
    assert client.post(f"/games/{house_game}/hands", data=hand).status_code == 303
    totals = client.get(f"/api/games/{house_game}").get_json()["totals"]
    assert totals == [1500, 0]  # 2 naturals 2 x 600 = 1,200 + going out 200 + Count 100; no 3s


def test_blank_rows_of_the_minimum_counts_are_left_out(client):
    data = {
        **NEW_GAME,
        "band0_minimum": "100",
        "band1_from": "4000",
        "band1_minimum": "160",
        "band2_from": "",
        "band2_minimum": "",
        "band3_from": "",
        "band3_minimum": "",
        "band4_from": "",
        "band4_minimum": "",
    }
    game = client.post("/games", data=data).headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game}").get_json()["rules"]["minimum_counts"] == [
        {"from": None, "minimum": 100},
        {"from": 4000, "minimum": 160},
    ]


def test_a_classic_table_sets_its_own_red_threes(client):
    data = {**NEW_GAME, "preset": "classic", "red_each": "150", "value_failed_pile_take": "100"}
    game = client.post("/games", data=data).headers["Location"].rsplit("/", 1)[1]
    game_rules = client.get(f"/api/games/{game}").get_json()["rules"]
    assert game_rules["red_threes"]["each"] == 150 and game_rules["red_threes"]["all_four"] == 800
    assert game_rules["values"]["failed_pile_take"] == 100


# --- Absurd values refused beside their field --------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "field", "message"),
    [
        ({"value_natural_canasta": "-5"}, "value_natural_canasta", "Natural canasta: can't be negative."),
        ({"value_natural_canasta": "100005"}, "value_natural_canasta", "Natural canasta: at most 100,000 points."),
        ({"value_going_out": "102"}, "value_going_out", "Going out: points are a multiple of 5."),
        ({"band2_from": "2000"}, "band2_from", "Minimum Count bands go up: each starts above the one before."),
        ({"band3_from": "7000"}, "band3_minimum", "Minimum Count: give a whole number of points, like 500."),
        ({"three_2": "-300"}, "three_2", "2 3s: can't be negative."),
    ],
)
def test_an_absurd_value_is_refused_beside_its_field(client, entries, field, message):
    response = client.post("/games", data={**HOUSE, **entries})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert error_of(page, field) == message.replace("'", "&#39;")
    assert field_value(page, "value_natural_canasta") == entries.get("value_natural_canasta", "600")  # kept
    assert field_value(page, "band1_minimum") == "150" and 'value="Ann"' in page
    assert re.search(r"<details[^>]*open>", page)  # the group with the error is open


def test_an_unknown_tie_is_refused(client):
    response = client.post("/games", data={**HOUSE, "tie": "coin_toss"})
    assert response.status_code == 422
    assert "Not a valid choice" in error_of(response.get_data(as_text=True), "tie")


# --- The Count of a side with no canasta ----------------------------------------------------------------


def test_the_count_of_a_side_with_no_canasta_starts_as_the_preset_s(client):
    modern = client.get("/games/new").get_data(as_text=True)
    assert re.search(r'<option selected value="negative">Every card counts against it</option>', modern)
    assert "From the counting grid. Every card against it" in modern
    classic = client.get(
        "/games/new",
        query_string={**NEW_GAME, "preset": "classic"},
        headers={"HX-Request": "true", "HX-Target": "game_rules"},
    ).get_data(as_text=True)
    assert re.search(r'<option selected value="melded_minus_hand">Melded minus in hand, as usual</option>', classic)


@pytest.mark.parametrize(
    ("rule", "count", "total"),
    [
        # Them: no canasta, 8 to K melded 3 x 10 = 30, a 4 left in hand 5 (the grid's low row)
        ("negative", -35, -35),  # every card against: -(30 + 5) = -35
        ("melded_minus_hand", 25, 25),  # 30 - 5 = 25
    ],
)
def test_the_count_of_a_side_with_no_canasta_follows_the_table_s_choice(client, rule, count, total):
    game = client.post("/games", data={**NEW_GAME, "count_without_canasta": rule}).headers["Location"]
    game_id = game.rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").get_json()["rules"]["count_without_canasta"] == rule
    hand = hand_form(
        {"natural_canastas": 2, "went_out": "y", "count": 100},
        {"count_mode": "grid", "melded_high": 3, "in_hand_low": 1},
    )
    response = client.post(f"{game}/hands", data=hand)
    assert response.status_code == 303, text(response)
    result = client.get(f"/api/games/{game_id}").get_json()
    assert result["hands"][0]["sides"][1]["result"]["count"] == count
    assert result["totals"] == [1200, total]  # Us: 2 x 500 + going out 100 + Count 100


def test_an_unknown_count_rule_is_refused(client):
    response = client.post("/games", data={**HOUSE, "count_without_canasta": "whatever"})
    assert response.status_code == 422
    assert "Not a valid choice" in error_of(response.get_data(as_text=True), "count_without_canasta")


# --- Settling up a shared win ----------------------------------------------------------------------------

SIX = {
    **NEW_GAME,
    "preset": "classic",
    "rules_from": "classic",
    "players": "6",
    "seats_from": "6",
    "side2_name": "Others",
    "player2_0": "Eve",
    "player2_1": "Fay",
    "target": "1000",
    "tie": "shared",
}


def test_a_shared_win_is_settled_with_each_winner(client):
    game = client.post("/games", data=SIX).headers["Location"]
    hand = {
        **hand_form(
            {"natural_canastas": 2, "went_out": "y", "count": 0},
            {"natural_canastas": 2, "count": 100},
        ),
        "s2-count_mode": "number",
        "s2-count_sign": "-",
        "s2-count": "300",
        "s2-has_melded": "no",
    }
    response = client.post(f"{game}/hands", data=hand)
    assert response.status_code == 303, text(response)
    # Us 2 x 500 + out 100 = 1,100; Them 2 x 500 + 100 = 1,100; Others -300. Tied at the top on 1,100: shared.
    page = text(client.get(game, query_string={"stake": "2"}))
    assert "Us and Them share the win: each losing side pays each of them." in page
    # 1,100 - (-300) = 1,400 behind each winner, rounds to 1,000: 1 x 2 = 2 to each
    assert "Others pay Us 2 (1,400 rounds to 1,000 \u2192 1 \u00d7 2)" in page
    assert "Others pay Them 2 (1,400 rounds to 1,000 \u2192 1 \u00d7 2)" in page
    assert "Us pay" not in page and "Them pay" not in page


def test_two_sides_sharing_the_win_pay_nothing(client):
    game = client.post("/games", data={**NEW_GAME, "target": "1000", "tie": "shared"}).headers["Location"]
    hand = hand_form({"natural_canastas": 2, "went_out": "y", "count": 0}, {"natural_canastas": 2, "count": 100})
    assert client.post(f"{game}/hands", data=hand).status_code == 303
    # Us 2 x 500 + out 100 = 1,100; Them 2 x 500 + 100 = 1,100: level at the top, the win shared.
    page = text(client.get(game, query_string={"stake": "2", "per_special": "1"}))
    assert "Us and Them share the win: nobody pays." in page
    assert " pay Us " not in page and " pay Them " not in page


@pytest.mark.parametrize(
    ("totals", "winners", "specials", "payments", "debts"),
    [
        # Three sides, two sharing the win on 6,000: 2,400 is 3,600 behind each, rounds to 4,000: 4 to each.
        ((6000, 6000, 2400), (0, 1), (0, 0, 0), (0, 0, 8), [(2, 0, 4), (2, 1, 4)]),
        # The same with specials at 1 each: winner 0 made 2, winner 1 none, the loser 1:
        # to side 0: 4 + (2 - 1) = 5; to side 1: 4 + (0 - 1) = 3.
        ((6000, 6000, 2400), (0, 1), (2, 0, 1), (0, 0, 8), [(2, 0, 5), (2, 1, 3)]),
        # Two sides sharing: nobody pays, specials or not.
        ((8600, 8600), (0, 1), (3, 0), (0, 0), []),
        # went_out: tied on 5,000, side 1 went out and wins; side 0 is 0 behind: it pays only for specials,
        # side 1 made one more: 0 x 1 + (1 - 0) x 1 = 1.
        ((5000, 5000), (1,), (0, 1), (1, 0), [(0, 1, 1)]),
    ],
)
def test_settling_up_a_shared_win(totals, winners, specials, payments, debts):
    settlement = rules.settle_up(rules.PRESETS["classic"].rules, totals, 1, 1, specials, winners=winners)
    assert settlement.payments == payments
    assert [(d.payer, d.payee, d.amount) for d in settlement.debts] == debts
    assert settlement.winner == (winners[0] if len(winners) == 1 else None)


def test_each_table_rule_s_meaning_is_read_with_its_field(client):
    page = client.get("/games/new").get_data(as_text=True)
    assert re.search(
        r'id="value_natural_canasta"[^>]*aria-describedby="value_natural_canasta-hint value_natural_canasta-error"',
        page,
    )
    assert (
        '<p class="hint rule-hint" id="value_natural_canasta-hint">Points for each canasta with no wild cards.</p>'
        in page
    )
    assert re.search(r'<select[^>]*aria-describedby="tie-hint tie-error"[^>]*id="tie"', page) or re.search(
        r'<select[^>]*id="tie"[^>]*aria-describedby="tie-hint tie-error"', page
    )
    # The groups of table rules have their own class; the special hands keep theirs.
    assert '<details class="rule-group" id="rules-canastas"' in page
    assert '<details class="rule-group special-hands"' not in page
