"""A game moved in from paper mid-way: each side's total brought forward (docs/api.md `brought_forward`,
docs/rules.md "Brought forward").

Every figure was worked out by hand from docs/rules.md (modern values, target 5,000 for a short game):

  Brought forward: Us 3,000, Them 1,500.
    Minimum Counts before hand 1: Us 3,000 is in the 3,000-4,995 band → 155; Them 1,500 is below 3,000 → 125.
  Hand 1 (Ann deals, seat 0)
    Us:   2 natural canastas, went out, count 400 → 3s none; 500 + 500 + out 100 = base 1,100; hand 1,500
          cumulative 3,000 + 1,500 = 4,500 → next Minimum Count 155
    Them: 1 mixed canasta, count 100 → base 300; hand 400; cumulative 1,500 + 400 = 1,900 → 125
  Hand 2 (Bea deals, seat 1)
    Us:   1 natural, 1 mixed, went out, count 200 → 500 + 300 + 100 = 900; hand 1,100; cumulative 5,600 → 180
    Them: 1 mixed, count 50 → 300; hand 350; cumulative 2,250 → 125
  Us reach the target of 5,000 after hand 2 (5,600, counting the 3,000 brought forward): Us win by
  5,600 − 2,250 = 3,350. Without the totals brought forward Us would have 2,600 and the game would go on.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from scorepad import chart, rules
from tests.conftest import game_document, new_game_fields, shown_text

HAND_1 = {"sides": [{"natural_canastas": 2, "went_out": True, "count": 400}, {"mixed_canastas": 1, "count": 100}]}
HAND_2 = {
    "sides": [
        {"natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 200},
        {"mixed_canastas": 1, "count": 50},
    ]
}


def carried(hands=None, brought_forward=(3000, 1500)) -> dict:
    doc = game_document(hands=hands, target=5000)
    doc["brought_forward"] = list(brought_forward)
    return doc


def text(response) -> str:
    return shown_text(response)


def results(doc: dict) -> list[list[tuple[int, int, int]]]:
    """Each hand's (hand total, cumulative, next Minimum Count) for each side."""
    return [
        [(s["result"]["total"], s["result"]["cumulative"], s["result"]["min_count_next"]) for s in hand["sides"]]
        for hand in doc["hands"]
    ]


def test_the_rules_count_the_totals_brought_forward_in_cumulatives_minimum_counts_and_the_end():
    game_rules = rules.make_rules("modern", target=5000)
    table = rules.Table(
        sides=(rules.Side("Us", ("Ann", "Cleo")), rules.Side("Them", ("Bea", "Dot"))), brought_forward=(3000, 1500)
    )
    start = rules.score_game(game_rules, table, [])
    assert start.totals == (3000, 1500) and start.min_count == (155, 125) and not start.finished
    hand = rules.Hand(
        (rules.SideEntry(natural_canastas=2, went_out=True, count=400), rules.SideEntry(mixed_canastas=1, count=100))
    )
    one = rules.score_game(game_rules, table, [hand])
    assert [(s.total, s.cumulative, s.min_count_next) for s in one.hands[0].sides] == [
        (1500, 4500, 155),
        (400, 1900, 125),
    ]
    # One hand at a time gives the same figures as the whole game.
    assert rules.score_next_hand(game_rules, table, start, hand) == one


def test_a_game_brought_forward_through_the_api_worked_out_by_hand(client):
    response = client.post("/api/games", json=carried())
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["brought_forward"] == [3000, 1500]
    assert body["totals"] == [3000, 1500] and body["min_count"] == [155, 125] and body["status"] == "in_progress"
    headers = {"Authorization": f"Bearer {body['edit_token']}"}
    assert client.post(f"/api/games/{body['id']}/hands", json=HAND_1, headers=headers).status_code == 201
    response = client.post(f"/api/games/{body['id']}/hands", json=HAND_2, headers=headers)
    assert response.status_code == 201
    doc = response.get_json()
    assert results(doc) == [[(1500, 4500, 155), (400, 1900, 125)], [(1100, 5600, 180), (350, 2250, 125)]]
    assert doc["totals"] == [5600, 2250] and doc["status"] == "finished" and doc["winner"] == 0
    # No hand can follow the end of the game.
    assert client.post(f"/api/games/{body['id']}/hands", json=HAND_1, headers=headers).status_code == 409
    # The same two hands with nothing brought forward: 2,600 to 750, still short of 5,000.
    plain = client.post("/api/games", json=game_document(hands=[HAND_1, HAND_2], target=5000)).get_json()
    assert plain["totals"] == [2600, 750] and plain["status"] == "in_progress" and "brought_forward" not in plain


@pytest.mark.parametrize(
    ("sent", "field", "words"),
    [
        (
            [3002, 1500],
            "brought_forward.0",
            "Us's total brought forward is 3,002: canasta scores go in 5s, like 3,000.",
        ),
        ([0, 5000], "brought_forward.1", "at or past the target of 5,000: that game is already over."),
        ([-200000, 0], "brought_forward.0", "that is far too low for a game."),
        ([3000], "brought_forward", "Give one total brought forward for each of the 2 sides."),
        ([3000, "1500"], "brought_forward", "one whole number of points for each side"),
        ("3000", "brought_forward", "one whole number of points for each side"),
    ],
)
def test_a_bad_total_brought_forward_is_refused_in_words(client, sent, field, words):
    doc = carried()
    doc["brought_forward"] = sent
    response = client.post("/api/games", json=doc)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert [e["field"] for e in errors] == [field] and words in errors[0]["message"]


NEW_GAME = new_game_fields(target="5000", perfect_cut="y")


def test_the_new_game_page_starts_from_totals_brought_forward_and_the_sheet_shows_them_first(client):
    page = client.get("/games/new")
    assert "Moving a game from paper" in text(page) and 'name="brought_forward0"' in page.get_data(as_text=True)
    response = client.post("/games", data={**NEW_GAME, "brought_forward0": "3,000", "brought_forward1": "1500"})
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Brought forward 3,000 Total 1,500" not in sheet  # the words are laid out per side
    assert re.search(r"Brought forward Total 3,000 Total 1,500", sheet)
    assert "Minimum Count 155" in sheet and "Minimum Count 125" in sheet
    doc = client.get(f"/api/games/{game_id}").get_json()
    token_free = client.get(f"/games/{game_id}/export.json").get_json()
    assert doc["brought_forward"] == token_free["brought_forward"] == [3000, 1500]


def test_the_brought_forward_line_comes_before_hand_1_on_the_sheet_and_scoreboard(client):
    body = client.post("/api/games", json=carried(hands=[HAND_1])).get_json()
    for page in (f"/games/{body['id']}", f"/games/{body['id']}/scoreboard"):
        sheet = client.get(page).get_data(as_text=True)
        assert 'class="brought-forward"' in sheet, page
    sheet = client.get(f"/games/{body['id']}").get_data(as_text=True)
    assert sheet.index('class="brought-forward"') < sheet.index('id="hand-1"')


def test_a_blank_total_on_the_new_game_page_starts_a_plain_game(client):
    response = client.post("/games", data={**NEW_GAME, "brought_forward0": "", "brought_forward1": ""})
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    doc = client.get(f"/api/games/{game_id}").get_json()
    assert "brought_forward" not in doc and doc["totals"] == [0, 0]


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("3002", "Us's total brought forward is 3,002: canasta scores go in 5s, like 3,000."),
        ("9000", "Us's total brought forward is 9,000, at or past the target of 5,000: that game is already over."),
        ("lots", "Enter a whole number, like 3000."),
    ],
)
def test_a_bad_total_on_the_new_game_page_is_said_in_words_and_nothing_typed_is_lost(client, typed, words):
    response = client.post("/games", data={**NEW_GAME, "player0_0": "Zoë", "brought_forward0": typed})
    assert response.status_code in (200, 422)
    page = text(response)
    assert words in page
    body = response.get_data(as_text=True)
    assert 'value="Zoë"' in body and f'value="{typed}"' in body


def test_the_chart_starts_each_line_at_its_total_brought_forward(client):
    game_rules = rules.make_rules("modern", target=5000)
    table = rules.Table(
        sides=(rules.Side("Us", ("Ann", "Cleo")), rules.Side("Them", ("Bea", "Dot"))), brought_forward=(3000, 1500)
    )
    hand = rules.Hand(
        (rules.SideEntry(natural_canastas=2, went_out=True, count=400), rules.SideEntry(mixed_canastas=1, count=100))
    )
    drawn = chart.scoresheet_chart(rules.score_game(game_rules, table, [hand]), table, 5000, str)
    assert drawn is not None
    lines = {line.side: line.coordinates for line in drawn.lines}
    # The plot is linear: 0 at zero_y; Us's last point is 4,500, which gives the scale.
    scale = (drawn.zero_y - lines[0][-1][1]) / 4500
    assert lines[0][0][1] == pytest.approx(drawn.zero_y - 3000 * scale, abs=0.2)
    assert lines[1][0][1] == pytest.approx(drawn.zero_y - 1500 * scale, abs=0.2)
    assert lines[1][-1][1] == pytest.approx(drawn.zero_y - 1900 * scale, abs=0.2)
    assert lines[0][0][1] != drawn.zero_y


def read_csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))


def test_the_csv_files_carry_the_totals_brought_forward(client):
    body = client.post("/api/games", json=carried(hands=[HAND_1, HAND_2])).get_json()
    rows = read_csv(client.get(f"/games/{body['id']}/export.csv"))
    header = rows[0]
    assert [row[:4] for row in rows[1:3]] == [
        ["Brought forward", "", "Us", "Ann & Cleo"],
        ["Brought forward", "", "Them", "Bea & Dot"],
    ]
    running = header.index("Running total")
    assert [row[running] for row in rows[1:]] == ["3000", "1500", "4500", "1900", "5600", "2250"]
    assert rows[3][0] == "1"
    facts = read_csv(client.get(f"/games/{body['id']}/game.csv"))
    assert facts[0][-1] == "Brought forward"
    assert [(row[5], row[7], row[-1]) for row in facts[1:]] == [("Us", "5600", "3000"), ("Them", "2250", "1500")]


def test_a_game_brought_forward_round_trips_through_export_and_restore(client):
    body = client.post("/api/games", json=carried(hands=[HAND_1])).get_json()
    exported = client.get(f"/games/{body['id']}/export.json").get_data()
    restored = client.post(
        "/games/import", data={"document": (io.BytesIO(exported), "game.json")}, content_type="multipart/form-data"
    )
    assert restored.status_code == 303
    copy_id = restored.headers["Location"].rsplit("/", 1)[1]
    copy = client.get(f"/api/games/{copy_id}").get_json()
    assert copy_id != body["id"] and copy["brought_forward"] == [3000, 1500]
    assert results(copy) == [[(1500, 4500, 155), (400, 1900, 125)]] and copy["totals"] == [4500, 1900]
    # And through the file of every game.
    client.post(f"/games/{copy_id}/claim")
    every = json.loads(client.get("/history/export.json").get_data())
    assert all(game["brought_forward"] == [3000, 1500] for game in every["games"])


def test_a_rematch_starts_from_nothing(client):
    body = client.post("/api/games", json=carried(hands=[HAND_1, HAND_2])).get_json()
    client.post(f"/games/{body['id']}/claim", data={"key": body["links"]["scoresheet"]})
    response = client.post(f"/games/{body['id']}/rematch")
    assert response.status_code == 303
    rematch = client.get(f"/api/games/{response.headers['Location'].rsplit('/', 1)[1]}").get_json()
    assert "brought_forward" not in rematch and rematch["totals"] == [0, 0]


def test_a_side_below_zero_on_paper_can_be_typed_on_the_new_game_page(client):
    """A side can be behind on paper (−200 after a hand of penalties): its field takes a minus sign, a real one too,
    and the game starts from it. Modern: 3,000 is in the 3,000-4,995 band (Minimum Count 155); -200 is below 3,000,
    negative too (125)."""
    page = client.get("/games/new").get_data(as_text=True)
    field = re.search(r'<input id="brought_forward1"[^>]*>', page).group(0)
    assert 'inputmode="numeric"' not in field  # that keyboard has no minus on many phones
    pattern = re.search(r'pattern="([^"]*)"', field).group(1)
    assert re.fullmatch(pattern, "\u2212200") and re.fullmatch(pattern, "-200") and re.fullmatch(pattern, "3,000")
    response = client.post("/games", data={**NEW_GAME, "brought_forward0": "3000", "brought_forward1": "\u2212200"})
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    doc = client.get(f"/api/games/{game_id}").get_json()
    assert doc["brought_forward"] == [3000, -200] and doc["totals"] == [3000, -200]
    sheet = text(client.get(f"/games/{game_id}"))
    assert re.search(r"Brought forward Total 3,000 Total \u2212200", sheet)
    assert "Minimum Count 155" in sheet and "Minimum Count 125" in sheet


def test_a_game_started_offline_reaches_the_server_with_its_totals_brought_forward(client):
    """The new-game page's fields as the phone kept them (a minus sign as a phone types it, thousands with a comma),
    read by the server's own form when the game reaches it. By hand (modern): Us 3,000 is in the 3,000-4,995 band
    (155); Them −1,500 is below 3,000 (125)."""
    fields = {**NEW_GAME, "brought_forward0": "3,000", "brought_forward1": "\u22121,500"}
    answer = client.post("/sync/games", data=fields, headers={"Idempotency-Key": "offline-game-1"})
    assert answer.status_code == 201 and answer.get_json()["outcome"] == "created"
    game = client.get(f"/api/games/{answer.get_json()['id']}").get_json()
    assert game["brought_forward"] == [3000, -1500] and game["totals"] == [3000, -1500]
    assert game["min_count"] == [155, 125]
