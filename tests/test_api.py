"""The JSON API of docs/api.md, driven through the Flask test client.

Every expected figure was worked out by hand from docs/rules.md; the
arithmetic is in the comment beside it. None was copied from the code's output.

The table (conftest FOUR_PLAYERS): seats clockwise Ann(0, Us) Bea(1, Them) Cleo(2, Us)
Dot(3, Them). With first_dealer 0, hand n is dealt by seat n % 4; the cutter is the
player on the dealer's right (the previous seat): hand 0 → seat 3 Dot (side 1),
hand 1 → seat 0 Ann (side 0), hand 2 → seat 1 Bea (side 1).

Hands used again and again (modern values):
  EXAMPLE (the one of docs/api.md)
    side 0: red 2, black 1, natural 1, mixed 1, out, count 385
            two canastas so 3s added: 300 + 100 = 400; canastas 500 + 300; out 100
            → base 1300; total 1300 + 385 = 1685
    side 1: red 1, mixed 1, unfinished sevens, count 140
            one canasta so 3s are 0; mixed 300; unfinished sevens −2500
            → base −2200; total −2200 + 140 = −2060
  QUIET
    side 0: natural 2, out, count 200 → 1000 + 100 = 1100; total 1300
    side 1: mixed 1, count 50         → 300;              total 350
  LATE
    side 0: mixed 1, count 95 → 300; total 395
    side 1: red 1, natural 1, mixed 1, out, count 120
            two canastas so +100; 500 + 300; out 100 → 1000; total 1120
"""

from __future__ import annotations

import copy
import json
import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest

from scorepad.models import GameRecord, IdempotentRequest, db
from tests.conftest import game_document

EXAMPLE = {
    "sides": [
        {
            "red_threes": 2,
            "black_threes": 1,
            "natural_canastas": 1,
            "mixed_canastas": 1,
            "went_out": True,
            "count": 385,
        },
        {"red_threes": 1, "mixed_canastas": 1, "incomplete_sevens": True, "count": 140},
    ]
}
QUIET = {
    "sides": [
        {"natural_canastas": 2, "went_out": True, "count": 200},
        {"mixed_canastas": 1, "count": 50},
    ]
}
LATE = {
    "sides": [
        {"mixed_canastas": 1, "count": 95},
        {"red_threes": 1, "natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 120},
    ]
}
# Side 0 makes exactly 3,000: sevens canasta 2500 + natural 500, count 0; side 1 reports nothing.
BIG_3000 = {"sides": [{"sevens_canasta": True, "natural_canastas": 1}, {}]}

RESULT_KEYS = {"base", "count", "total", "cumulative", "min_count_next"}


def res(base, count, total, cumulative, min_count_next) -> dict:
    return {"base": base, "count": count, "total": total, "cumulative": cumulative, "min_count_next": min_count_next}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create(client, doc) -> dict:
    response = client.post("/api/games", json=doc)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def get(client, game_id) -> dict:
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def results(doc) -> list[list[dict]]:
    return [[side["result"] for side in hand["sides"]] for hand in doc["hands"]]


def inputs(doc) -> list[dict]:
    """The hands' inputs as sent: every side entry without its "result"."""
    return [
        {"sides": [{k: v for k, v in side.items() if k != "result"} for side in hand["sides"]]} for hand in doc["hands"]
    ]


def error_fields(response, status: int) -> list[str]:
    """Check the {"errors": [{"field", "message"}]} shape and return the fields."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.is_json, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) == {"errors"}
    assert isinstance(body["errors"], list) and body["errors"]
    for error in body["errors"]:
        assert set(error) == {"field", "message"}
        assert isinstance(error["field"], str)
        assert isinstance(error["message"], str) and error["message"].strip()
    return [error["field"] for error in body["errors"]]


def assert_plain_error(response, status: int) -> None:
    """400/403/404/409: the same errors shape, with the field left empty."""
    assert error_fields(response, status) == [""]


def stored_games(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count()).select_from(GameRecord))


def game_with(client, hands, **rules) -> tuple[str, dict, dict]:
    """A game made through the API with these hands: (id, auth headers, the 201 body)."""
    body = create(client, game_document(hands=copy.deepcopy(hands), **rules))
    return body["id"], bearer(body["edit_token"]), body


# ---------------------------------------------------------------------------
# POST /api/games
# ---------------------------------------------------------------------------


def test_creating_an_empty_game_answers_201_with_the_document_a_token_and_links(client):
    response = client.post("/api/games", json=game_document())
    assert response.status_code == 201
    body = response.get_json()
    assert body["format"] == "scorepad-game"
    assert body["version"] == 1
    assert isinstance(body["id"], str) and body["id"]
    assert isinstance(body["edit_token"], str) and body["edit_token"]
    assert body["rules"]["preset"] == "modern"
    assert body["sides"] == [{"name": "Us", "players": ["Ann", "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}]
    assert body["first_dealer"] == 0
    assert body["hands"] == []
    assert body["status"] == "in_progress"
    assert body["winner"] is None
    assert body["totals"] == [0, 0]
    assert body["min_count"] == [125, 125]  # cumulative 0 is below 3,000 → 125
    assert body["next_dealer"] == 0  # no hand yet: the first dealer deals next
    assert set(body["links"]) == {"scoresheet", "scoreboard", "export_json", "export_csv"}


def test_the_created_game_reads_back_the_same_without_its_edit_token(client):
    body = create(client, game_document(hands=[EXAMPLE]))
    read = get(client, body["id"])
    assert "edit_token" not in read
    assert read == {k: v for k, v in body.items() if k not in ("edit_token", "links")}


@pytest.mark.parametrize("link", ["scoresheet", "scoreboard", "export_json", "export_csv"])
def test_every_link_of_a_new_game_answers_200(client, link):
    body = create(client, game_document(hands=[EXAMPLE]))
    url = urlsplit(body["links"][link])
    path = url.path + (f"?{url.query}" if url.query else "")
    # The scoresheet link carries the key once and may redirect to a clean address.
    response = client.get(path, follow_redirects=True)
    assert response.status_code == 200
    assert body["id"] in path


def test_the_export_json_link_gives_the_game_document(client):
    body = create(client, game_document(hands=[EXAMPLE]))
    response = client.get(urlsplit(body["links"]["export_json"]).path)
    assert response.status_code == 200
    assert response.get_json() == get(client, body["id"])


def test_a_document_with_hands_is_scored_hand_by_hand(client):
    doc = create(client, game_document(hands=[EXAMPLE, QUIET, LATE]))
    assert inputs(doc) == [EXAMPLE, QUIET, LATE]  # the inputs are stored as sent
    for hand in doc["hands"]:
        for side in hand["sides"]:
            assert set(side["result"]) == RESULT_KEYS
    assert results(doc) == [
        [
            res(1300, 385, 1685, 1685, 125),  # see EXAMPLE; 1685 < 3000 → 125
            res(-2200, 140, -2060, -2060, 125),
        ],  # negative cumulative → 125
        [
            res(1100, 200, 1300, 2985, 125),  # 1685 + 1300 = 2985, still below 3000 → 125
            res(300, 50, 350, -1710, 125),
        ],  # −2060 + 350 = −1710
        [
            res(300, 95, 395, 3380, 155),  # 2985 + 395 = 3380 ≥ 3000 → 155
            res(1000, 120, 1120, -590, 125),
        ],  # −1710 + 1120 = −590
    ]
    assert [hand["dealer"] for hand in doc["hands"]] == [0, 1, 2]  # first dealer 0, one seat per hand
    assert doc["status"] == "in_progress"  # 3380 < 8500
    assert doc["winner"] is None
    assert doc["totals"] == [3380, -590]
    assert doc["min_count"] == [155, 125]
    assert doc["next_dealer"] == 3  # fourth hand: seat 3


def test_dealers_start_from_the_first_dealer_and_go_round_the_table(client):
    doc = game_document()
    doc["first_dealer"] = 3
    # Hand 0 is dealt by seat 3 (Dot); the cutter is on her right: seat 2, Cleo, side 0,
    # so side 0 may claim the perfect cut: natural 2 1000 + out 100 + cut 100 = 1200; +200 → 1400.
    cut_by_us = {"sides": [{**QUIET["sides"][0], "perfect_cut": True}, QUIET["sides"][1]]}
    doc["hands"] = [cut_by_us, QUIET, LATE]
    body = create(client, doc)
    assert [hand["dealer"] for hand in body["hands"]] == [3, 0, 1]  # 3, then (3+1)%4 = 0, then 1
    assert body["next_dealer"] == 2
    assert body["hands"][0]["sides"][0]["result"] == res(1200, 200, 1400, 1400, 125)


def test_outputs_in_an_imported_document_are_ignored_and_recomputed(client):
    doc = game_document(hands=[copy.deepcopy(EXAMPLE)])
    doc["hands"][0]["dealer"] = 3
    doc["hands"][0]["sides"][0]["result"] = res(1, 2, 3, 4, 5)
    doc["hands"][0]["sides"][1]["result"] = res(9000, 0, 9000, 9000, 180)
    doc.update(
        {
            "id": "made-up-id",
            "status": "finished",
            "winner": 1,
            "totals": [1, 9000],
            "min_count": [180, 180],
            "next_dealer": 2,
            "edit_token": "not-a-token",
            "links": {"scoresheet": "http://elsewhere/"},
        }
    )
    body = create(client, doc)
    assert results(body) == [
        [
            res(1300, 385, 1685, 1685, 125),  # EXAMPLE side 0
            res(-2200, 140, -2060, -2060, 125),
        ]
    ]  # EXAMPLE side 1
    assert body["hands"][0]["dealer"] == 0
    assert body["status"] == "in_progress"
    assert body["winner"] is None
    assert body["totals"] == [1685, -2060]
    assert body["min_count"] == [125, 125]
    assert body["next_dealer"] == 1
    assert body["id"] != "made-up-id"
    assert body["edit_token"] != "not-a-token"
    assert body["links"]["scoresheet"] != "http://elsewhere/"
    assert client.get("/api/games/made-up-id").status_code == 404
    assert get(client, body["id"])["totals"] == [1685, -2060]


def test_a_target_override_ends_the_game_at_that_target(client):
    body = create(client, game_document(hands=[QUIET], target=500))
    assert body["rules"]["target"] == 500
    # QUIET: 1300 against 350; 1300 ≥ 500 → over, side 0 higher.
    assert body["totals"] == [1300, 350]
    assert body["status"] == "finished"
    assert body["winner"] == 0


@pytest.mark.parametrize(
    "preset, overrides, special_side, other_side",
    [
        # Side 0 lays down "pairs"; side 1: natural 2 = 1000, count 300 → 1300 unless wiped out.
        ("modern", {}, res(2500, 0, 2500, 2500, 125), res(1000, 300, 1300, 1300, 125)),
        ("modern", {"wipeout": True}, res(2500, 0, 2500, 2500, 125), res(0, 0, 0, 0, 125)),
        # wca: pairs 3000; wipeout on by default; natural canastas still 500 each.
        ("wca", {}, res(3000, 0, 3000, 3000, 155), res(0, 0, 0, 0, 125)),
        ("wca", {"wipeout": False}, res(3000, 0, 3000, 3000, 155), res(1000, 300, 1300, 1300, 125)),
    ],
)
def test_wipeout_follows_the_preset_and_its_override(client, preset, overrides, special_side, other_side):
    hand = {"sides": [{"special_hand": "pairs"}, {"natural_canastas": 2, "count": 300}]}
    body = create(client, game_document(preset, hands=[hand], **overrides))
    assert results(body) == [[special_side, other_side]]
    for key, value in overrides.items():
        assert body["rules"][key] == value


def test_the_perfect_cut_is_worth_100_to_the_cutters_side_by_default_in_modern(client):
    # Hand 0: the cutter is Dot, side 1. Mixed 300 + cut 100 = 400, count 50 → 450.
    hand = {"sides": [QUIET["sides"][0], {"mixed_canastas": 1, "count": 50, "perfect_cut": True}]}
    body = create(client, game_document(hands=[hand]))
    assert body["hands"][0]["sides"][1]["result"] == res(400, 50, 450, 450, 125)


def test_a_perfect_cut_in_a_game_that_turned_it_off_is_refused(client, app):
    hand = {"sides": [QUIET["sides"][0], {"mixed_canastas": 1, "count": 50, "perfect_cut": True}]}
    response = client.post("/api/games", json=game_document(hands=[hand], perfect_cut=False))
    assert "hands.0.sides.1.perfect_cut" in error_fields(response, 422)
    assert stored_games(app) == 0


def test_classic_can_turn_the_perfect_cut_on(client):
    # Classic, cutter side 1: natural 500 + cut 100 = 600, count 100 → 700.
    # Side 0: mixed 300, count 50 → 350. No red 3s anywhere.
    hand = {"sides": [{"mixed_canastas": 1, "count": 50}, {"natural_canastas": 1, "count": 100, "perfect_cut": True}]}
    body = create(client, game_document("classic", hands=[hand], perfect_cut=True))
    assert body["rules"]["perfect_cut"] is True
    # classic Minimum Count: 0–1,495 → 50
    assert results(body) == [[res(300, 50, 350, 350, 50), res(600, 100, 700, 700, 50)]]


@pytest.mark.parametrize(
    "special_hand, base",
    [
        ("pairs", 4000),  # re-valued by the game: 4000, not modern's 2500
        ("blast_off", 3500),  # not in modern's list, enabled by the game at 3500
    ],
)
def test_a_special_hands_override_replaces_the_presets_list(client, special_hand, base):
    special_hands = {"pairs": 4000, "blast_off": 3500}
    # Side 1: natural 2 = 1000, count 300 → 1300 (modern: no wipeout).
    hand = {"sides": [{"special_hand": special_hand}, {"natural_canastas": 2, "count": 300}]}
    body = create(client, game_document(hands=[hand], special_hands=special_hands))
    assert body["rules"]["special_hands"] == special_hands
    # 3000 ≤ base < 5000 → 155
    assert results(body) == [[res(base, 0, base, base, 155), res(1000, 300, 1300, 1300, 125)]]


def test_a_special_hand_left_out_of_the_games_list_is_refused(client, app):
    # "straight" is in modern's list (3000) but the game's own list replaces it.
    hand = {"sides": [{"special_hand": "straight"}, {"natural_canastas": 2, "count": 300}]}
    response = client.post("/api/games", json=game_document(hands=[hand], special_hands={"pairs": 4000}))
    assert error_fields(response, 422) == ["hands.0.sides.0.special_hand"]
    assert stored_games(app) == 0


@pytest.mark.parametrize(
    "rules, field",
    [
        ({"preset": "texas"}, "rules.preset"),
        ({"preset": "modern", "bogus": True}, "rules.bogus"),
        ({"preset": "modern", "target": "lots"}, "rules.target"),
        ({"preset": "modern", "wipeout": "yes"}, "rules.wipeout"),
    ],
)
def test_an_unknown_preset_or_rules_key_is_refused_with_422_naming_it(client, app, rules, field):
    doc = game_document()
    doc["rules"] = rules
    response = client.post("/api/games", json=doc)
    assert field in error_fields(response, 422)
    assert stored_games(app) == 0


def test_an_unknown_special_hand_in_the_rules_is_refused(client, app):
    response = client.post("/api/games", json=game_document(special_hands={"royal_flush": 5000}))
    fields = error_fields(response, 422)
    assert any(f.startswith("rules.special_hands") for f in fields), fields
    assert stored_games(app) == 0


@pytest.mark.parametrize(
    "side, entry, field",
    [
        (1, {"bogus": 1}, "hands.0.sides.1.bogus"),
        (0, {"natural_canastas": 2, "cards": {"melded": {"bogus": 1}}}, "hands.0.sides.0.cards.melded.bogus"),
    ],
)
def test_an_unknown_field_in_a_side_entry_is_refused_with_its_path(client, app, side, entry, field):
    hand = copy.deepcopy(QUIET)
    hand["sides"][side].update(entry)
    response = client.post("/api/games", json=game_document(hands=[hand]))
    assert error_fields(response, 422) == [field]
    assert stored_games(app) == 0


def test_an_unknown_top_level_field_of_a_document_is_refused_with_its_name(client, app):
    doc = game_document()
    doc["scorer"] = "Ann"
    assert error_fields(client.post("/api/games", json=doc), 422) == ["scorer"]
    assert stored_games(app) == 0


def test_a_document_whose_hand_breaks_the_rules_is_refused_and_nothing_is_stored(client, app):
    # 5 red 3s on side 1: out of 0–4 for one side, and 5 > the pack's 4 across the sides.
    hand = copy.deepcopy(QUIET)
    hand["sides"][1]["red_threes"] = 5
    response = client.post("/api/games", json=game_document(hands=[hand]))
    assert set(error_fields(response, 422)) == {"hands.0.sides.1.red_threes", "hands.0"}
    assert stored_games(app) == 0


def test_a_broken_later_hand_of_a_document_is_named_by_its_index(client, app):
    hand = copy.deepcopy(QUIET)
    hand["sides"][0]["natural_canastas"] = 1  # going out needs two closed canastas (modern)
    response = client.post("/api/games", json=game_document(hands=[EXAMPLE, LATE, hand]))
    assert error_fields(response, 422) == ["hands.2.sides.0.went_out"]
    assert stored_games(app) == 0


def test_a_whole_hand_check_in_a_document_names_the_hand(client, app):
    both_out = {"sides": [{"natural_canastas": 2, "went_out": True}, {"natural_canastas": 2, "went_out": True}]}
    response = client.post("/api/games", json=game_document(hands=[EXAMPLE, both_out]))
    assert error_fields(response, 422) == ["hands.1"]
    assert stored_games(app) == 0


def test_a_document_with_a_hand_after_the_end_of_the_game_is_refused(client, app):
    # Target 500: QUIET makes 1300 against 350, the game is over after hand 0.
    response = client.post("/api/games", json=game_document(hands=[QUIET, LATE], target=500))
    error_fields(response, 422)
    assert stored_games(app) == 0


def test_malformed_json_is_refused_with_400(client, app):
    response = client.post(
        "/api/games", data='{"format": "scorepad-game", "version": 1,', content_type="application/json"
    )
    assert_plain_error(response, 400)
    assert stored_games(app) == 0


@pytest.mark.parametrize("version", [2, 0])
def test_an_unknown_document_version_is_refused_with_400(client, app, version):
    doc = game_document()
    doc["version"] = version
    response = client.post("/api/games", json=doc)
    assert_plain_error(response, 400)
    assert str(version) in response.get_json()["errors"][0]["message"]
    assert stored_games(app) == 0


# ---------------------------------------------------------------------------
# GET /api/games/<id>
# ---------------------------------------------------------------------------


def test_getting_a_game_gives_its_document_with_outputs(client):
    game_id, _, _ = game_with(client, [EXAMPLE])
    doc = get(client, game_id)
    assert doc["id"] == game_id
    assert doc["format"] == "scorepad-game" and doc["version"] == 1
    assert inputs(doc) == [EXAMPLE]
    assert results(doc) == [[res(1300, 385, 1685, 1685, 125), res(-2200, 140, -2060, -2060, 125)]]
    assert doc["hands"][0]["dealer"] == 0
    assert doc["totals"] == [1685, -2060]
    assert doc["min_count"] == [125, 125]
    assert doc["next_dealer"] == 1
    assert doc["status"] == "in_progress" and doc["winner"] is None


def test_getting_an_unknown_game_is_404(client):
    assert_plain_error(client.get("/api/games/no-such-game"), 404)


# ---------------------------------------------------------------------------
# POST /api/games/<id>/hands
# ---------------------------------------------------------------------------


def test_adding_a_hand_answers_201_with_the_scored_document(client, api_game):
    game_id, _, headers = api_game
    response = client.post(f"/api/games/{game_id}/hands", json=EXAMPLE, headers=headers)
    assert response.status_code == 201
    doc = response.get_json()
    assert doc["id"] == game_id
    assert inputs(doc) == [EXAMPLE]
    assert results(doc) == [[res(1300, 385, 1685, 1685, 125), res(-2200, 140, -2060, -2060, 125)]]
    assert doc["hands"][0]["dealer"] == 0
    assert doc["totals"] == [1685, -2060]
    assert doc["next_dealer"] == 1
    assert get(client, game_id) == doc


def test_hands_added_one_by_one_accumulate(client, api_game):
    game_id, _, headers = api_game
    for hand in (EXAMPLE, QUIET, LATE):
        assert client.post(f"/api/games/{game_id}/hands", json=hand, headers=headers).status_code == 201
    doc = get(client, game_id)
    assert [[r["cumulative"] for r in hand] for hand in results(doc)] == [
        [1685, -2060],  # EXAMPLE
        [2985, -1710],  # +1300, +350
        [3380, -590],  # +395, +1120
    ]
    assert [hand["dealer"] for hand in doc["hands"]] == [0, 1, 2]
    assert doc["min_count"] == [155, 125]  # 3380 in 3,000–4,995
    assert doc["next_dealer"] == 3


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer wrong-token"},
        {"Authorization": "Bearer "},
        {"Authorization": "wrong-token"},
    ],
    ids=["missing", "wrong", "empty", "not-bearer"],
)
def test_adding_a_hand_without_the_right_edit_token_is_403(client, api_game, headers):
    game_id, _, _ = api_game
    response = client.post(f"/api/games/{game_id}/hands", json=QUIET, headers=headers)
    assert_plain_error(response, 403)
    assert get(client, game_id)["hands"] == []


def test_the_scheme_without_bearer_but_with_the_right_token_is_403(client, api_game):
    game_id, token, _ = api_game
    response = client.post(f"/api/games/{game_id}/hands", json=QUIET, headers={"Authorization": token})
    assert_plain_error(response, 403)
    assert get(client, game_id)["hands"] == []


def test_another_games_edit_token_is_403(client, api_game):
    game_id, _, _ = api_game
    _, other_headers, _ = game_with(client, [])
    response = client.post(f"/api/games/{game_id}/hands", json=QUIET, headers=other_headers)
    assert_plain_error(response, 403)
    assert get(client, game_id)["hands"] == []


def test_adding_a_hand_to_an_unknown_game_is_404(client, api_game):
    _, _, headers = api_game
    assert_plain_error(client.post("/api/games/no-such-game/hands", json=QUIET, headers=headers), 404)


def test_adding_malformed_json_is_400(client, api_game):
    game_id, _, headers = api_game
    response = client.post(
        f"/api/games/{game_id}/hands", data="{sides: [", content_type="application/json", headers=headers
    )
    assert_plain_error(response, 400)
    assert get(client, game_id)["hands"] == []


def _with(hand: dict, side: int, **entries) -> dict:
    hand = copy.deepcopy(hand)
    hand["sides"][side].update(entries)
    return hand


# (hand body, the fields the refusal must name) — one side's entry at fault.
SIDE_ERRORS = {
    "red 3s above 4": (_with(QUIET, 1, red_threes=5), {"sides.1.red_threes", "sides"}),
    "negative canastas": (_with(QUIET, 1, mixed_canastas=-1), {"sides.1.mixed_canastas"}),
    "negative 3s in hand": (_with(QUIET, 1, threes_in_hand=-1), {"sides.1.threes_in_hand"}),
    "out with one canasta": (_with(QUIET, 0, natural_canastas=1), {"sides.0.went_out"}),
    "out with no canasta": (_with(QUIET, 0, natural_canastas=0, count=0), {"sides.0.went_out"}),
    "out with an unfinished special meld": (_with(QUIET, 0, incomplete_aces=True), {"sides.0.went_out"}),
    "count not a multiple of 5": (_with(QUIET, 0, count=12), {"sides.0.count"}),
    "count beyond the pack": (_with(QUIET, 0, count=1165), {"sides.0.count"}),  # pack 1160
    "count beyond the pack, negative": (_with(QUIET, 1, count=-1165), {"sides.1.count"}),
    "positive count without a canasta": (_with(QUIET, 1, mixed_canastas=0), {"sides.1.count"}),
    "three dirty players on a side of two": (_with(QUIET, 1, dirty_sevens=3), {"sides.1.dirty_sevens", "sides"}),
    "perfect cut on the dealers side": (_with(QUIET, 0, perfect_cut=True), {"sides.0.perfect_cut"}),
    "special hand not in modern": (
        {"sides": [{"special_hand": "blast_off"}, QUIET["sides"][1]]},
        {"sides.0.special_hand"},
    ),
    "special hand with an entry it can't have": (
        {"sides": [{"special_hand": "pairs", "red_threes": 5}, QUIET["sides"][1]]},
        {"sides.0.red_threes"},
    ),
    "concealed in modern": (_with(QUIET, 0, concealed=True), {"sides.0.concealed"}),
    "classic penalty in modern": (_with(QUIET, 1, failed_pile_takes=1), {"sides.1.failed_pile_takes"}),
    "unknown field": (_with(QUIET, 1, bogus=True), {"sides.1.bogus"}),
    "not a number": (_with(QUIET, 1, red_threes="two"), {"sides.1.red_threes"}),
    "negative card in the grid": (
        {"sides": [QUIET["sides"][0], {"mixed_canastas": 1, "cards": {"melded": {"high": -1}}}]},
        {"sides.1.cards.melded.high"},
    ),
    "black 3s in a modern grid": (
        {"sides": [QUIET["sides"][0], {"mixed_canastas": 1, "cards": {"in_hand": {"black_threes": 1}}}]},
        {"sides.1.cards.in_hand.black_threes"},
    ),
}


@pytest.mark.parametrize("hand, fields", SIDE_ERRORS.values(), ids=SIDE_ERRORS.keys())
def test_a_hand_breaking_a_side_rule_is_refused_with_the_fields_path(client, api_game, hand, fields):
    game_id, _, headers = api_game
    response = client.post(f"/api/games/{game_id}/hands", json=hand, headers=headers)
    assert set(error_fields(response, 422)) == fields
    assert get(client, game_id)["hands"] == []


# Hands that only a check across the sides refuses: the field is "sides" (the hand body's list).
HAND_ERRORS = {
    "two sides out": {"sides": [{"natural_canastas": 2, "went_out": True}, {"natural_canastas": 2, "went_out": True}]},
    "five red 3s across the sides": {
        "sides": [{**QUIET["sides"][0], "red_threes": 3}, {**QUIET["sides"][1], "red_threes": 2}]
    },
    "five black 3s across the sides": {
        "sides": [{**QUIET["sides"][0], "black_threes": 4}, {**QUIET["sides"][1], "black_threes": 1}]
    },
    "two special hands": {"sides": [{"special_hand": "pairs"}, {"special_hand": "zip_code"}]},
    "special hand and going out": {"sides": [{"special_hand": "pairs"}, {"natural_canastas": 2, "went_out": True}]},
    "sevens canasta on both sides": {"sides": [{"sevens_canasta": True}, {"sevens_canasta": True}]},
    "wild canasta on both sides": {"sides": [{"wild_canasta": "deuces"}, {"wild_canasta": "mixed"}]},
    "eleven ordinary canastas": {"sides": [{"natural_canastas": 6}, {"natural_canastas": 5}]},
    # seven 2s (7 wild) + six mixed canastas (≥ 6 wild) = 13 > 12
    "thirteen wild cards": {"sides": [{"wild_canasta": "deuces"}, {"mixed_canastas": 6}]},
    # sevens canasta 7 + an unfinished sevens meld ≥ 3 on the other side = 10 > 8
    "ten sevens": {"sides": [{"sevens_canasta": True}, {"incomplete_sevens": True}]},
    "five jokers in the grids": {
        "sides": [{"natural_canastas": 2, "cards": {"melded": {"jokers": 3}}}, {"cards": {"in_hand": {"jokers": 2}}}]
    },
    "one side only": {"sides": [QUIET["sides"][0]]},
}


@pytest.mark.parametrize("hand", HAND_ERRORS.values(), ids=HAND_ERRORS.keys())
def test_a_hand_breaking_a_whole_hand_rule_is_refused_naming_sides(client, api_game, hand):
    game_id, _, headers = api_game
    response = client.post(f"/api/games/{game_id}/hands", json=hand, headers=headers)
    assert set(error_fields(response, 422)) == {"sides"}
    assert get(client, game_id)["hands"] == []


def test_an_unknown_field_beside_sides_in_a_hand_body_is_refused_with_its_name(client, api_game):
    game_id, _, headers = api_game
    # (A hand's "note" is a field of its own since GAME_FORMAT.md gave one: "remark" is no field.)
    response = client.post(f"/api/games/{game_id}/hands", json={**QUIET, "remark": "x"}, headers=headers)
    assert error_fields(response, 422) == ["remark"]
    assert get(client, game_id)["hands"] == []


def test_a_refused_hand_leaves_a_game_with_hands_unchanged(client):
    game_id, headers, _ = game_with(client, [EXAMPLE])
    before = get(client, game_id)
    response = client.post(f"/api/games/{game_id}/hands", json=_with(QUIET, 0, natural_canastas=1), headers=headers)
    assert error_fields(response, 422) == ["sides.0.went_out"]
    assert get(client, game_id) == before


def test_the_perfect_cut_of_an_added_hand_belongs_to_that_hands_cutter(client):
    game_id, headers, _ = game_with(client, [EXAMPLE])
    # Hand 1 is dealt by Bea (seat 1); Ann (seat 0, side 0) cuts.
    refused = client.post(f"/api/games/{game_id}/hands", json=_with(QUIET, 1, perfect_cut=True), headers=headers)
    assert error_fields(refused, 422) == ["sides.1.perfect_cut"]
    response = client.post(f"/api/games/{game_id}/hands", json=_with(QUIET, 0, perfect_cut=True), headers=headers)
    assert response.status_code == 201
    # natural 2 1000 + out 100 + cut 100 = 1200, count 200 → 1400; 1685 + 1400 = 3085 → 155
    assert response.get_json()["hands"][1]["sides"][0]["result"] == res(1200, 200, 1400, 3085, 155)


def test_a_hand_for_a_finished_game_is_refused_with_409(client):
    game_id, headers, body = game_with(client, [], target=500)
    response = client.post(f"/api/games/{game_id}/hands", json=QUIET, headers=headers)
    assert response.status_code == 201
    doc = response.get_json()
    assert doc["status"] == "finished"  # 1300 ≥ 500, and 1300 > 350
    assert doc["winner"] == 0
    late = client.post(f"/api/games/{game_id}/hands", json=LATE, headers=headers)
    assert_plain_error(late, 409)
    assert len(get(client, game_id)["hands"]) == 1


def test_the_same_idempotency_key_twice_stores_the_hand_once_and_answers_alike(client, api_game):
    game_id, _, headers = api_game
    headers = {**headers, "Idempotency-Key": "hand-1-attempt"}
    first = client.post(f"/api/games/{game_id}/hands", json=EXAMPLE, headers=headers)
    second = client.post(f"/api/games/{game_id}/hands", json=EXAMPLE, headers=headers)
    assert first.status_code == 201
    assert second.status_code == first.status_code
    assert second.get_json() == first.get_json()
    doc = get(client, game_id)
    assert len(doc["hands"]) == 1
    assert doc["totals"] == [1685, -2060]  # EXAMPLE once, not twice


def test_a_repeated_idempotency_key_stores_nothing_and_answers_with_the_game_as_it_is_now(client, api_game):
    game_id, _, headers = api_game
    first = client.post(f"/api/games/{game_id}/hands", json=EXAMPLE, headers={**headers, "Idempotency-Key": "a"})
    other = client.post(f"/api/games/{game_id}/hands", json=QUIET, headers={**headers, "Idempotency-Key": "b"})
    again = client.post(f"/api/games/{game_id}/hands", json=EXAMPLE, headers={**headers, "Idempotency-Key": "a"})
    assert (first.status_code, other.status_code, again.status_code) == (201, 201, 201)
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == get(client, game_id)  # the game now: EXAMPLE then QUIET, EXAMPLE not twice
    assert again.headers["ETag"] == '"3"'
    assert len(again.get_json()["hands"]) == 2
    assert again.get_json()["totals"] == [2985, -1710]  # EXAMPLE + QUIET: 1685+1300, −2060+350


def test_an_idempotency_key_sent_again_with_another_hand_is_refused_and_stores_nothing(client, api_game):
    game_id, _, headers = api_game
    keyed = {**headers, "Idempotency-Key": "hand-1"}
    assert client.post(f"/api/games/{game_id}/hands", json=EXAMPLE, headers=keyed).status_code == 201
    refused = client.post(f"/api/games/{game_id}/hands", json=QUIET, headers=keyed)
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["field"] == ""
    assert "already used for another hand" in refused.get_json()["errors"][0]["message"]
    doc = get(client, game_id)
    assert len(doc["hands"]) == 1 and doc["totals"] == [1685, -2060]  # EXAMPLE alone
    # The same hand written another way (other key order and spacing) is the same request: answered, not stored.
    same = json.dumps({"sides": [dict(reversed(list(side.items()))) for side in EXAMPLE["sides"]]}, indent=1)
    replay = client.post(
        f"/api/games/{game_id}/hands", data=same, headers={**keyed, "Content-Type": "application/json"}
    )
    assert replay.status_code == 201 and replay.headers["Idempotent-Replayed"] == "true"
    assert len(get(client, game_id)["hands"]) == 1


def test_a_remembered_answer_is_a_reference_to_the_hand_not_the_document(app, client):
    game_id, headers, _ = game_with(client, [], target=100000)  # 30 hands of 700 don't end it
    for n in range(30):  # a long game: the document grows with each hand; the remembered answer does not
        hand = {"sides": [{"mixed_canastas": 2, "went_out": True, "count": 0}, {"count": -5}]}
        answer = client.post(f"/api/games/{game_id}/hands", json=hand, headers={**headers, "Idempotency-Key": f"h{n}"})
        assert answer.status_code == 201
    with app.app_context():
        rows = db.session.scalars(db.select(IdempotentRequest).where(IdempotentRequest.game_id == game_id)).all()
        assert len(rows) == 30
        last = next(row for row in rows if row.key == "h29")
        assert last.body == {"hand": 29}
        assert all(len(json.dumps(row.body)) < 20 for row in rows)


def test_keys_older_than_a_day_are_forgotten_for_every_game_finished_or_not(app, client, api_game):
    game_a, _, headers_a = api_game
    finished, headers_f, _ = game_with(client, [])
    game_c, headers_c, _ = game_with(client, [])
    win = {"sides": [{"natural_canastas": 9, "went_out": True, "count": 0}, {}]}  # 9 × 500 + 100 = 4,600
    assert (
        client.post(
            f"/api/games/{game_a}/hands", json=EXAMPLE, headers={**headers_a, "Idempotency-Key": "a"}
        ).status_code
        == 201
    )
    for key in ("f1", "f2"):  # two hands of 4,600 pass 8,500: the game is over
        assert (
            client.post(
                f"/api/games/{finished}/hands", json=win, headers={**headers_f, "Idempotency-Key": key}
            ).status_code
            == 201
        )
    assert get(client, finished)["status"] == "finished"
    with app.app_context():
        for game_id, key, age in ((game_a, "a", 25), (finished, "f1", 49), (finished, "f2", 23)):
            row = db.session.get(IdempotentRequest, (game_id, key))
            row.created_at = datetime.now(UTC) - timedelta(hours=age)
        db.session.commit()

    # A keyed hand on a third game forgets the other games' keys older than a day, and only those.
    assert (
        client.post(f"/api/games/{game_c}/hands", json=QUIET, headers={**headers_c, "Idempotency-Key": "c"}).status_code
        == 201
    )
    with app.app_context():
        kept = {(row.game_id, row.key) for row in db.session.scalars(db.select(IdempotentRequest))}
    assert kept == {(finished, "f2"), (game_c, "c")}


def test_a_different_idempotency_key_stores_a_second_hand(client, api_game):
    game_id, _, headers = api_game
    first = client.post(f"/api/games/{game_id}/hands", json=EXAMPLE, headers={**headers, "Idempotency-Key": "k1"})
    second = client.post(f"/api/games/{game_id}/hands", json=EXAMPLE, headers={**headers, "Idempotency-Key": "k2"})
    assert first.status_code == second.status_code == 201
    doc = second.get_json()
    assert len(doc["hands"]) == 2
    assert [hand["dealer"] for hand in doc["hands"]] == [0, 1]
    assert doc["totals"] == [3370, -4120]  # 1685 × 2, −2060 × 2
    assert get(client, game_id) == doc


def test_the_same_idempotency_key_on_another_game_is_independent(client, api_game):
    game_a, _, headers_a = api_game
    game_b, headers_b, _ = game_with(client, [])
    a = client.post(f"/api/games/{game_a}/hands", json=EXAMPLE, headers={**headers_a, "Idempotency-Key": "same"})
    b = client.post(f"/api/games/{game_b}/hands", json=QUIET, headers={**headers_b, "Idempotency-Key": "same"})
    assert a.status_code == b.status_code == 201
    assert b.get_json()["id"] == game_b
    assert b.get_json()["totals"] == [1300, 350]  # QUIET, not game A's answer
    assert get(client, game_a)["totals"] == [1685, -2060]
    assert get(client, game_b)["totals"] == [1300, 350]
    assert len(get(client, game_b)["hands"]) == 1


# ---------------------------------------------------------------------------
# Minimum Count, the end of the game, ties
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "entry, cumulative, minimum",
    [
        ({"count": -5}, -5, 125),  # negative → 125
        ({"natural_canastas": 5, "count": 495}, 2995, 125),  # 5×500 + 495
        ({"natural_canastas": 5, "count": 500}, 3000, 155),  # 5×500 + 500
        ({"sevens_canasta": True, "natural_canastas": 4, "count": 495}, 4995, 155),  # 2500 + 2000 + 495
        ({"sevens_canasta": True, "natural_canastas": 5}, 5000, 180),  # 2500 + 2500
    ],
)
def test_the_minimum_count_follows_the_modern_table(client, entry, cumulative, minimum):
    body = create(client, game_document(hands=[{"sides": [entry, {}]}]))
    assert body["hands"][0]["sides"][0]["result"]["cumulative"] == cumulative
    assert body["hands"][0]["sides"][0]["result"]["min_count_next"] == minimum
    assert body["min_count"] == [minimum, 125]  # side 1 made 0 → 125


def test_the_minimum_count_rises_125_155_180_and_the_game_ends_at_8500(client, api_game):
    game_id, _, headers = api_game
    url = f"/api/games/{game_id}/hands"
    # Hand 0: sevens 2500 + natural 500 = 3000 → 155.
    doc = client.post(url, json=BIG_3000, headers=headers).get_json()
    assert doc["hands"][0]["sides"][0]["result"] == res(3000, 0, 3000, 3000, 155)
    assert doc["hands"][0]["sides"][1]["result"] == res(0, 0, 0, 0, 125)
    assert doc["min_count"] == [155, 125]
    assert doc["status"] == "in_progress"
    # Hand 1: natural 4 × 500 = 2000 → 5000 → 180.
    doc = client.post(url, json={"sides": [{"natural_canastas": 4}, {}]}, headers=headers).get_json()
    assert doc["hands"][1]["sides"][0]["result"] == res(2000, 0, 2000, 5000, 180)
    assert doc["min_count"] == [180, 125]
    assert doc["status"] == "in_progress"
    # Hand 2: pure aces 2500 + natural 2 × 500 = 3500 → 8500, exactly the target: over.
    response = client.post(url, json={"sides": [{"aces_canasta": True, "natural_canastas": 2}, {}]}, headers=headers)
    assert response.status_code == 201
    doc = response.get_json()
    assert doc["hands"][2]["sides"][0]["result"] == res(3500, 0, 3500, 8500, 180)
    assert doc["totals"] == [8500, 0]
    assert doc["min_count"] == [180, 125]
    assert doc["status"] == "finished"
    assert doc["winner"] == 0
    assert_plain_error(client.post(url, json=QUIET, headers=headers), 409)


def test_when_both_sides_pass_the_target_the_higher_one_wins(client):
    # Target 500. Side 0: natural 1 500 + count 200 = 700; side 1: natural 1 500 + count 300 = 800.
    hand = {"sides": [{"natural_canastas": 1, "count": 200}, {"natural_canastas": 1, "count": 300}]}
    body = create(client, game_document(hands=[hand], target=500))
    assert body["totals"] == [700, 800]
    assert body["status"] == "finished"
    assert body["winner"] == 1


def test_a_tie_at_the_top_plays_on_until_one_side_leads(client):
    game_id, headers, body = game_with(client, [], target=500)
    # Both: natural 1 500 + count 200 = 700 ≥ 500 but tied → not over.
    tie = {"sides": [{"natural_canastas": 1, "count": 200}, {"natural_canastas": 1, "count": 200}]}
    doc = client.post(f"/api/games/{game_id}/hands", json=tie, headers=headers).get_json()
    assert doc["totals"] == [700, 700]
    assert doc["status"] == "in_progress"
    assert doc["winner"] is None
    # Next: side 0 natural 500 + 100 = 600 → 1300; side 1 mixed 300 + 100 = 400 → 1100.
    decider = {"sides": [{"natural_canastas": 1, "count": 100}, {"mixed_canastas": 1, "count": 100}]}
    response = client.post(f"/api/games/{game_id}/hands", json=decider, headers=headers)
    assert response.status_code == 201
    doc = response.get_json()
    assert doc["totals"] == [1300, 1100]
    assert doc["status"] == "finished"
    assert doc["winner"] == 0


def test_an_imported_tie_at_the_top_stays_in_progress(client):
    tie = {"sides": [{"natural_canastas": 1, "count": 200}, {"natural_canastas": 1, "count": 200}]}
    body = create(client, game_document(hands=[tie], target=500))
    assert body["totals"] == [700, 700]  # 500 + 200 each
    assert body["status"] == "in_progress"
    assert body["winner"] is None


# ---------------------------------------------------------------------------
# The counting grid
# ---------------------------------------------------------------------------

GRID_CASES = {
    # modern, side 0 has canastas: melded 2 jokers 100 + 3 twos 60 + 4 aces 80 + 10 high 100
    # + 8 low 40 = 380, nothing in hand → 380; base natural 2 1000 + out 100 = 1100 → 1480.
    # side 1 no canasta: every card negative: −(3 high 30 + 2 low 10 + joker 50 + two 20) = −110.
    "modern, no canasta counts all negative": (
        "modern",
        {
            "sides": [
                {
                    "natural_canastas": 2,
                    "went_out": True,
                    "cards": {"melded": {"jokers": 2, "deuces": 3, "aces": 4, "high": 10, "low": 8}},
                },
                {"cards": {"melded": {"high": 3, "low": 2}, "in_hand": {"jokers": 1, "deuces": 1}}},
            ]
        },
        [res(1100, 380, 1480, 1480, 125), res(0, -110, -110, -110, 125)],
    ),
    # side 1 with a mixed canasta: melded 7 high 70 − in hand (joker 50 + ace 20 + 3 low 15) = −15;
    # base 300 → 285.
    "modern, with a canasta melded minus in hand": (
        "modern",
        {
            "sides": [
                {
                    "natural_canastas": 2,
                    "went_out": True,
                    "cards": {"melded": {"jokers": 2, "deuces": 3, "aces": 4, "high": 10, "low": 8}},
                },
                {"mixed_canastas": 1, "cards": {"melded": {"high": 7}, "in_hand": {"jokers": 1, "aces": 1, "low": 3}}},
            ]
        },
        [res(1100, 380, 1480, 1480, 125), res(300, -15, 285, 285, 125)],
    ),
    # classic: side 0 natural 500 + out 100 = 600; melded 7 high 70 + 2 low 10 = 80 → 680.
    # side 1 no canasta, classic still melded − in hand: 3 low 15 − (two 20 + 2 black 3s 10) = −15.
    # Minimum Count classic: 0–1,495 → 50; below 0 → 15.
    "classic, melded minus in hand whatever the canastas": (
        "classic",
        {
            "sides": [
                {"natural_canastas": 1, "went_out": True, "cards": {"melded": {"high": 7, "low": 2}}},
                {"cards": {"melded": {"low": 3}, "in_hand": {"deuces": 1, "black_threes": 2}}},
            ]
        },
        [res(600, 80, 680, 680, 50), res(0, -15, -15, -15, 15)],
    ),
}


@pytest.mark.parametrize("preset, hand, expected", GRID_CASES.values(), ids=GRID_CASES.keys())
def test_the_count_is_computed_from_the_counting_grid_when_a_hand_is_added(client, preset, hand, expected):
    game_id, headers, _ = game_with(client, [], preset=preset)
    response = client.post(f"/api/games/{game_id}/hands", json=hand, headers=headers)
    assert response.status_code == 201, response.get_json()
    doc = response.get_json()
    assert results(doc) == [expected]
    assert [side["cards"] for side in doc["hands"][0]["sides"]] == [
        {"melded": side["cards"].get("melded", {}), "in_hand": side["cards"].get("in_hand", {})}
        for side in hand["sides"]
    ]


@pytest.mark.parametrize("preset, hand, expected", GRID_CASES.values(), ids=GRID_CASES.keys())
def test_the_count_is_computed_from_the_counting_grid_in_an_imported_document(client, preset, hand, expected):
    body = create(client, game_document(preset, hands=[hand]))
    assert results(body) == [expected]


# ---------------------------------------------------------------------------
# PUT and DELETE /api/games/<id>/hands/<n>
# ---------------------------------------------------------------------------


def test_replacing_the_first_hand_recomputes_every_later_figure(client):
    game_id, headers, _ = game_with(client, [EXAMPLE, LATE, QUIET])
    # Replace hand 0 with QUIET: hands are QUIET, LATE, QUIET.
    response = client.put(f"/api/games/{game_id}/hands/0", json=QUIET, headers=headers)
    assert response.status_code == 200, response.get_json()
    doc = response.get_json()
    assert inputs(doc) == [QUIET, LATE, QUIET]
    assert results(doc) == [
        [res(1100, 200, 1300, 1300, 125), res(300, 50, 350, 350, 125)],
        [res(300, 95, 395, 1695, 125), res(1000, 120, 1120, 1470, 125)],  # 1300+395, 350+1120
        [res(1100, 200, 1300, 2995, 125), res(300, 50, 350, 1820, 125)],  # 1695+1300 = 2995 < 3000
    ]
    assert [hand["dealer"] for hand in doc["hands"]] == [0, 1, 2]
    assert doc["totals"] == [2995, 1820]
    assert doc["min_count"] == [125, 125]
    assert doc["next_dealer"] == 3
    assert get(client, game_id) == doc


def test_replacing_a_hand_can_raise_a_later_minimum_count(client):
    game_id, headers, _ = game_with(client, [QUIET, LATE, QUIET])
    # Before: side 0 1300, 1695, 2995 (→ 125). Hand 0 becomes EXAMPLE (side 0 1685, side 1 −2060):
    # side 0 1685, 1685+395 = 2080, 2080+1300 = 3380 → 155.
    # side 1 −2060, −2060+1120 = −940, −940+350 = −590.
    doc = client.put(f"/api/games/{game_id}/hands/0", json=EXAMPLE, headers=headers).get_json()
    assert [[r["cumulative"] for r in hand] for hand in results(doc)] == [[1685, -2060], [2080, -940], [3380, -590]]
    assert [[r["min_count_next"] for r in hand] for hand in results(doc)] == [[125, 125], [125, 125], [155, 125]]
    assert doc["totals"] == [3380, -590]
    assert doc["min_count"] == [155, 125]


def test_replacing_the_last_hand_can_finish_the_game(client):
    game_id, headers, _ = game_with(client, [EXAMPLE, QUIET], target=3000)
    assert get(client, game_id)["totals"] == [2985, -1710]  # 1685+1300, −2060+350: not yet 3000
    # Hand 1 with count 215: 1100 + 215 = 1315; 1685 + 1315 = 3000 = the target.
    response = client.put(f"/api/games/{game_id}/hands/1", json=_with(QUIET, 0, count=215), headers=headers)
    assert response.status_code == 200
    doc = response.get_json()
    assert doc["hands"][1]["sides"][0]["result"] == res(1100, 215, 1315, 3000, 155)
    assert doc["status"] == "finished"
    assert doc["winner"] == 0


def test_a_replaced_hand_is_checked_as_that_hands_position(client):
    game_id, headers, _ = game_with(client, [EXAMPLE, QUIET, LATE])
    before = get(client, game_id)
    # Hand 1: Ann (side 0) cuts, so side 1's perfect cut is refused...
    refused = client.put(f"/api/games/{game_id}/hands/1", json=_with(QUIET, 1, perfect_cut=True), headers=headers)
    assert error_fields(refused, 422) == ["sides.1.perfect_cut"]
    assert get(client, game_id) == before
    # ...and side 0's is worth 100: 1000 + 100 + 100 = 1200, count 200 → 1400; 1685 + 1400 = 3085.
    doc = client.put(
        f"/api/games/{game_id}/hands/1", json=_with(QUIET, 0, perfect_cut=True), headers=headers
    ).get_json()
    assert doc["hands"][1]["sides"][0]["result"] == res(1200, 200, 1400, 3085, 155)
    assert doc["totals"] == [3480, -590]  # 3085 + 395; side 1 unchanged: −2060 + 350 + 1120


@pytest.mark.parametrize(
    "hand, fields",
    [
        (_with(QUIET, 0, natural_canastas=1), ["sides.0.went_out"]),
        (_with(QUIET, 1, red_threes=-1), ["sides.1.red_threes"]),
        ({"sides": [{"natural_canastas": 2, "went_out": True}, {"natural_canastas": 2, "went_out": True}]}, ["sides"]),
    ],
    ids=["side rule", "negative 3s", "whole hand"],
)
def test_replacing_with_a_hand_that_breaks_the_rules_is_422_and_changes_nothing(client, hand, fields):
    game_id, headers, _ = game_with(client, [EXAMPLE, QUIET])
    before = get(client, game_id)
    response = client.put(f"/api/games/{game_id}/hands/0", json=hand, headers=headers)
    assert error_fields(response, 422) == fields
    assert get(client, game_id) == before


def test_a_replacement_that_would_end_the_game_before_its_last_hand_is_422(client):
    game_id, headers, _ = game_with(client, [EXAMPLE, QUIET, LATE], target=3000)
    before = get(client, game_id)
    assert before["totals"] == [3380, -590]  # finished on the last hand: 3380 ≥ 3000
    assert before["status"] == "finished"
    # BIG_3000 as hand 0 gives side 0 3000 at once: the game would end with two hands still after it.
    response = client.put(f"/api/games/{game_id}/hands/0", json=BIG_3000, headers=headers)
    error_fields(response, 422)
    assert get(client, game_id) == before


@pytest.mark.parametrize(
    "n, hands, cumulatives, totals, next_dealer",
    [
        # Delete EXAMPLE: QUIET, LATE → side 0 1300, 1300+395 = 1695; side 1 350, 350+1120 = 1470.
        (0, [QUIET, LATE], [[1300, 350], [1695, 1470]], [1695, 1470], 2),
        # Delete QUIET: EXAMPLE, LATE → 1685, 1685+395 = 2080; −2060, −2060+1120 = −940.
        (1, [EXAMPLE, LATE], [[1685, -2060], [2080, -940]], [2080, -940], 2),
        # Delete LATE: EXAMPLE, QUIET → 1685, 2985; −2060, −1710.
        (2, [EXAMPLE, QUIET], [[1685, -2060], [2985, -1710]], [2985, -1710], 2),
    ],
)
def test_deleting_a_hand_recomputes_the_later_figures(client, n, hands, cumulatives, totals, next_dealer):
    game_id, headers, body = game_with(client, [EXAMPLE, QUIET, LATE])
    assert body["min_count"] == [155, 125]  # 3380 before the delete
    response = client.delete(f"/api/games/{game_id}/hands/{n}", headers=headers)
    assert response.status_code == 200, response.get_json()
    doc = response.get_json()
    assert inputs(doc) == hands
    assert [[r["cumulative"] for r in hand] for hand in results(doc)] == cumulatives
    assert [[r["min_count_next"] for r in hand] for hand in results(doc)] == [[125, 125], [125, 125]]  # all < 3000
    assert [hand["dealer"] for hand in doc["hands"]] == [0, 1]  # the later hand moves up and is re-dealt
    assert doc["totals"] == totals
    assert doc["min_count"] == [125, 125]
    assert doc["next_dealer"] == next_dealer
    assert doc["status"] == "in_progress"
    assert get(client, game_id) == doc


def test_deleting_the_hand_that_finished_the_game_reopens_it(client):
    game_id, headers, body = game_with(client, [QUIET], target=500)
    assert body["status"] == "finished"
    doc = client.delete(f"/api/games/{game_id}/hands/0", headers=headers).get_json()
    assert doc["hands"] == []
    assert doc["status"] == "in_progress" and doc["winner"] is None
    assert doc["totals"] == [0, 0]
    assert doc["next_dealer"] == 0
    assert client.post(f"/api/games/{game_id}/hands", json=QUIET, headers=headers).status_code == 201


def test_a_delete_that_would_end_the_game_before_its_last_hand_is_422(client):
    swapped = {"sides": list(reversed(EXAMPLE["sides"]))}  # side 0 −2060, side 1 1685
    # Target 3000. Side 0: −2060, −2060+3000 = 940, 940+1300 = 2240; side 1: 1685, 1685, 1685+350 = 2035.
    game_id, headers, body = game_with(client, [swapped, BIG_3000, QUIET], target=3000)
    assert body["totals"] == [2240, 2035]
    assert body["status"] == "in_progress"
    # Without hand 0, BIG_3000 gives side 0 3000 at hand 0, with QUIET still after it.
    response = client.delete(f"/api/games/{game_id}/hands/0", headers=headers)
    error_fields(response, 422)
    assert get(client, game_id) == {k: v for k, v in body.items() if k not in ("edit_token", "links")}


@pytest.mark.parametrize("method", ["put", "delete"])
@pytest.mark.parametrize("n", [3, 4, 99, -1])
def test_an_out_of_range_hand_number_is_404(client, method, n):
    game_id, headers, body = game_with(client, [EXAMPLE, QUIET, LATE])
    call = getattr(client, method)
    kwargs = {"json": QUIET} if method == "put" else {}
    assert_plain_error(call(f"/api/games/{game_id}/hands/{n}", headers=headers, **kwargs), 404)
    assert len(get(client, game_id)["hands"]) == 3


def test_an_empty_game_has_no_hand_0_to_replace_or_delete(client, api_game):
    game_id, _, headers = api_game
    assert_plain_error(client.put(f"/api/games/{game_id}/hands/0", json=QUIET, headers=headers), 404)
    assert_plain_error(client.delete(f"/api/games/{game_id}/hands/0", headers=headers), 404)


@pytest.mark.parametrize("method", ["put", "delete"])
@pytest.mark.parametrize(
    "auth",
    [{}, {"Authorization": "Bearer wrong-token"}, "other game's token"],
    ids=["missing", "wrong", "other game"],
)
def test_replacing_or_deleting_without_the_right_edit_token_is_403(client, method, auth):
    game_id, _, _ = game_with(client, [EXAMPLE, QUIET])
    if auth == "other game's token":
        _, auth, _ = game_with(client, [])
    before = get(client, game_id)
    call = getattr(client, method)
    kwargs = {"json": LATE} if method == "put" else {}
    assert_plain_error(call(f"/api/games/{game_id}/hands/0", headers=auth, **kwargs), 403)
    assert get(client, game_id) == before


@pytest.mark.parametrize("method", ["put", "delete"])
def test_replacing_or_deleting_in_an_unknown_game_is_404(client, method):
    _, headers, _ = game_with(client, [EXAMPLE])
    call = getattr(client, method)
    kwargs = {"json": QUIET} if method == "put" else {}
    assert_plain_error(call("/api/games/no-such-game/hands/0", headers=headers, **kwargs), 404)


def test_replacing_with_malformed_json_is_400(client):
    game_id, headers, _ = game_with(client, [EXAMPLE])
    before = get(client, game_id)
    response = client.put(
        f"/api/games/{game_id}/hands/0", data="not json", content_type="application/json", headers=headers
    )
    assert_plain_error(response, 400)
    assert get(client, game_id) == before


def test_a_delete_that_moves_a_perfect_cut_to_the_wrong_side_is_refused_naming_that_hand(client, api_game):
    game_id, _, auth = api_game
    # Hand 0: Ann deals, Dot (Them) cuts. Hand 1: Bea deals, Ann (Us) cuts and cuts perfectly.
    assert client.post(f"/api/games/{game_id}/hands", json={"sides": [{}, {}]}, headers=auth).status_code == 201
    assert (
        client.post(
            f"/api/games/{game_id}/hands", json={"sides": [{"perfect_cut": True}, {}]}, headers=auth
        ).status_code
        == 201
    )
    # Deleting hand 0 makes that hand the first, dealt by Ann and cut by Dot: Us can't have the cut.
    response = client.delete(f"/api/games/{game_id}/hands/0", headers=auth)
    assert response.status_code == 422
    [error] = response.get_json()["errors"]
    assert error["field"] == "hands.0.sides.0.perfect_cut"
    assert error["message"].startswith("Hand 1: Only the cutter's side (Them)")
    assert len(client.get(f"/api/games/{game_id}").get_json()["hands"]) == 2


def test_an_idempotency_key_longer_than_200_characters_is_refused(client, api_game):
    game_id, _, auth = api_game
    response = client.post(
        f"/api/games/{game_id}/hands", json={"sides": [{}, {}]}, headers={**auth, "Idempotency-Key": "k" * 201}
    )
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["message"] == "An Idempotency-Key has at most 200 characters."


def test_json_nested_too_deep_is_malformed(client):
    response = client.post("/api/games", data="[" * 100000 + "]" * 100000, content_type="application/json")
    assert response.status_code == 400


def test_a_method_the_api_does_not_have_answers_in_json(client, api_game):
    game_id, _, auth = api_game
    response = client.patch(f"/api/games/{game_id}", json={}, headers=auth)
    assert response.status_code == 405
    assert response.get_json()["errors"][0]["field"] == ""


def test_replacing_a_hand_does_not_recheck_the_other_stored_hands(app, client, api_game):
    game_id, _, auth = api_game
    for _ in range(2):
        client.post(
            f"/api/games/{game_id}/hands", json={"sides": [{"mixed_canastas": 1, "count": 50}, {}]}, headers=auth
        )
    # A hand stored before a check existed: put a refused entry into hand 1 behind the API's back.
    with app.app_context():
        record = db.session.get(GameRecord, game_id)
        record.hands[1].sides = [{"mixed_canastas": 1, "count": 53}, {}]  # 53: not a multiple of 5
        db.session.commit()
    response = client.put(
        f"/api/games/{game_id}/hands/0", json={"sides": [{"mixed_canastas": 1, "count": 60}, {}]}, headers=auth
    )
    assert response.status_code == 200
    # Hand 0: mixed 300 + 60 = 360; hand 1 as stored: 300 + 53 = 353 → 713
    assert response.get_json()["totals"] == [713, 0]


def test_the_document_says_when_the_game_was_created_and_last_changed(client):
    created = client.post("/api/games", json=game_document()).get_json()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", created["created"])
    assert created["updated"] >= created["created"]
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    changed = client.post(
        f"/api/games/{created['id']}/hands", json={"sides": [{"count": -50}, {"count": -60}]}, headers=headers
    ).get_json()
    assert changed["created"] == created["created"] and changed["updated"] >= created["updated"]


# ---------------------------------------------------------------------------
# Defects schemathesis found (tests/test_openapi.py), each pinned here
# ---------------------------------------------------------------------------


def test_a_first_minimum_count_band_without_from_is_the_band_from_null(client):
    # "from" left out is "from": null, as for any key left out; the first band covers every lower score.
    body = create(client, game_document(minimum_counts=[{"minimum": 100}, {"from": 3000, "minimum": 150}]))
    assert body["rules"]["minimum_counts"] == [{"from": None, "minimum": 100}, {"from": 3000, "minimum": 150}]
    assert body["min_count"] == [100, 100]


def test_a_later_minimum_count_band_without_from_is_refused_naming_it(client, app):
    response = client.post(
        "/api/games", json=game_document(minimum_counts=[{"from": None, "minimum": 100}, {"minimum": 150}])
    )
    assert error_fields(response, 422) == ["rules.minimum_counts.1.from"]
    assert stored_games(app) == 0


@pytest.mark.parametrize("tag", ['""', 'W/""', '"", "nope"'])
def test_an_empty_etag_in_if_none_match_names_no_revision(client, api_game, tag):
    game_id, _, _ = api_game
    response = client.get(f"/api/games/{game_id}", headers={"If-None-Match": tag})
    assert response.status_code == 200
    assert response.get_json()["id"] == game_id


def test_an_empty_etag_in_if_match_names_no_revision(client, api_game):
    game_id, _, auth = api_game
    assert client.post(f"/api/games/{game_id}/hands", json=QUIET, headers=auth).status_code == 201
    put = client.put(f"/api/games/{game_id}/hands/0", json=LATE, headers={**auth, "If-Match": '""'})
    assert_plain_error(put, 412)
    delete = client.delete(f"/api/games/{game_id}/hands/0", headers={**auth, "If-Match": '""'})
    assert_plain_error(delete, 412)
    assert get(client, game_id)["totals"] == [1300, 350]  # QUIET, unchanged


def test_a_replayed_idempotency_key_answers_with_the_game_now_and_its_etag(client, api_game):
    game_id, _, auth = api_game
    headers = {**auth, "Idempotency-Key": "hand-1"}
    first = client.post(f"/api/games/{game_id}/hands", json=EXAMPLE, headers=headers)
    assert first.status_code == 201 and first.headers["ETag"] == '"2"'  # created at 1, this hand made it 2
    same = client.post(f"/api/games/{game_id}/hands", json=EXAMPLE, headers=headers)  # nothing changed since
    assert same.status_code == 201 and same.headers["ETag"] == '"2"' and same.get_json() == first.get_json()
    assert same.headers["Idempotent-Replayed"] == "true"
    client.post(f"/api/games/{game_id}/hands", json=QUIET, headers=auth)  # the game moves on to revision 3
    again = client.post(f"/api/games/{game_id}/hands", json=EXAMPLE, headers=headers)
    assert again.status_code == 201 and again.headers["ETag"] == '"3"'
    assert again.get_json()["revision"] == 3 and len(again.get_json()["hands"]) == 2  # stored once, QUIET after it
