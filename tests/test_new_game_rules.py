"""The new-game page's table rules: pre-filled from the preset, changed by the table, judged by the rules.

Figures are worked out by hand; the comment beside each shows the sum.
"""

from __future__ import annotations

import re

import pytest

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
