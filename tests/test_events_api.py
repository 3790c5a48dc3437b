"""The club nights' API and pages (docs/events.md, docs/api.md): storing events, rounds, confirmation, corrections,
a late pair, results. Every seating and figure below is worked out by hand (the working beside it).

Hands (modern values, the table rule target 3000 so that a game ends in a few hands; tests/test_api.py works them):
  EXAMPLE, QUIET, LATE: side 0 1685, 1300, 395 → 3380; side 1 −2060, 350, 1120 → −590; 3380 ≥ 3000 ends it.
  BIG_3000: side 0 sevens 2500 + natural 500 = 3000, side 1 nothing: 3000 – 0, over at once.
  TIE: side 0 natural 500 + mixed 300 + out 100 (two canastas) + count 0 = 900; side 1 natural 500 + mixed 300
       + count 100 = 900: 900 – 900, the game goes on.
"""

from __future__ import annotations

import csv
import io
import re

from scorepad.models import EventCorrection, db
from tests.conftest import game_document, shown_text
from tests.test_api import BIG_3000, EXAMPLE, LATE, QUIET

BIG_3000_SIDE_1 = {"sides": [{}, BIG_3000["sides"][0]]}
TIE = {
    "sides": [
        {"natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 0},
        {"natural_canastas": 1, "mixed_canastas": 1, "count": 100},
    ]
}
NAMES = ["Roses", "Tulips", "Lilies", "Daisies", "Irises", "Poppies"]
PLAYERS = [("Ann", "Cleo"), ("Bea", "Dot"), ("Eve", "Fay"), ("Gil", "Hal"), ("Ida", "Jo"), ("Kim", "Lu")]


def event_document(pairs: int, rounds: int, movement: str = "mitchell", **more) -> dict:
    return {
        "format": "scorepad-event",
        "version": 1,
        "name": "Tuesday club night",
        "rules": {"preset": "modern", "target": 3000},
        "pairs": [{"name": NAMES[i], "players": list(PLAYERS[i])} for i in range(pairs)],
        "movement": movement,
        "rounds": rounds,
        "round_minutes": None,
        **more,
    }


def create(client, doc) -> dict:
    response = client.post("/api/events", json=doc)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def director(body: dict) -> dict:
    return {"Authorization": f"Bearer {body['director_token']}"}


def play(client, table: dict, *hands: dict) -> dict:
    headers = {"Authorization": f"Bearer {table['edit_token']}"}
    doc: dict = {}
    for hand in hands:
        response = client.post(f"/api/games/{table['game']}/hands", json=hand, headers=headers)
        assert response.status_code == 201, response.get_json()
        doc = response.get_json()
    return doc


def seats(body: dict, round: int) -> list[tuple[int, list[int]]]:
    return [(t["table"], t["pairs"]) for t in body["round_results"][round]["tables"]]


def standings(body: dict) -> list[tuple[int, int, int, int, int, int]]:
    return [
        (s["rank"], s["pair"], s["match_points"], s["difference"], s["points"], s["played"]) for s in body["standings"]
    ]


def test_a_club_night_of_five_pairs_mitchell_two_rounds(client):
    body = create(client, event_document(5, 2))
    # 5 pairs: T = 3 tables, the phantom is pair 5. Round 0: table t has NS pair t and EW pair 3 + t:
    # table 0 Roses(0)–Daisies(3), table 1 Tulips(1)–Irises(4), table 2 Lilies(2)–phantom: Lilies sit out.
    assert seats(body, 0) == [(0, [0, 3]), (1, [1, 4])]
    assert body["round_results"][0]["bye"] == 2
    assert [t["table"] for t in body["tables"]] == [0, 1]
    assert body["status"] == "in_progress" and len(body["room_code"]) == 6
    game = client.get(f"/api/games/{body['tables'][0]['game']}").get_json()
    assert [side["name"] for side in game["sides"]] == ["Roses", "Daisies"]
    assert game["rules"]["target"] == 3000

    play(client, body["tables"][0], EXAMPLE, QUIET)
    # Table 0 still plays (2 hands): the next round is refused in words, naming it.
    refused = client.post(f"/api/events/{body['id']}/rounds", json={}, headers=director(body))
    assert refused.status_code == 409
    message = refused.get_json()["errors"][0]["message"]
    assert "table 1 (Roses against Daisies, 2 hands played)" in message and "table 2" in message
    assert "close the round" in message

    play(client, body["tables"][0], LATE)  # 3380 – −590: over
    play(client, body["tables"][1], BIG_3000)  # 3000 – 0: over
    doc = client.get(f"/api/events/{body['id']}").get_json()
    assert [t["points"] for t in doc["round_results"][0]["tables"]] == [[3380, -590], [3000, 0]]
    assert [t["status"] for t in doc["round_results"][0]["tables"]] == ["finished", "finished"]
    # Round 0's average: (3380 − 590 + 3000 + 0) / 4 = 1447.5 → 1450 (halves up); Lilies' bye: 1450, 1 match point.
    # Roses win by 3380 + 590 = 3970, Tulips by 3000: both 2 match points, Roses ahead on difference.
    assert standings(doc) == [
        (1, 0, 2, 3970, 3380, 1),
        (2, 1, 2, 3000, 3000, 1),
        (3, 2, 1, 0, 1450, 1),
        (4, 4, 0, -3000, 0, 1),
        (5, 3, 0, -3970, -590, 1),
    ]

    started = client.post(f"/api/events/{body['id']}/rounds", json={}, headers=director(body))
    assert started.status_code == 201, started.get_json()
    second = started.get_json()
    # Round 1: table t has EW pair 3 + ((t − 1) mod 3): table 0 the phantom (Roses sit out), table 1 Tulips–Daisies,
    # table 2 Lilies–Irises.
    assert seats(second, 1) == [(1, [1, 3]), (2, [2, 4])]
    assert second["round_results"][1]["bye"] == 0
    tables = {t["table"]: t for t in second["tables"]}
    play(client, tables[1], BIG_3000)  # Tulips 3000, Daisies 0
    play(client, tables[2], BIG_3000_SIDE_1)  # Lilies 0, Irises 3000
    final = client.get(f"/api/events/{body['id']}").get_json()
    # Round 1's average: (3000 + 0 + 0 + 3000) / 4 = 1500: Roses' bye.
    # Roses 2 + 1 = 3 MP, diff 3970, points 3380 + 1500 = 4880; Tulips 4 MP, 6000, 6000; Irises 0 + 2 = 2 MP,
    # −3000 + 3000 = 0, 3000; Lilies 1 + 0 = 1 MP, −3000, 1450; Daisies 0 MP, −6970, −590.
    assert standings(final) == [
        (1, 1, 4, 6000, 6000, 2),
        (2, 0, 3, 3970, 4880, 2),
        (3, 4, 2, 0, 3000, 2),
        (4, 2, 1, -3000, 1450, 2),
        (5, 3, 0, -6970, -590, 2),
    ]
    assert final["status"] == "finished"
    last = client.post(f"/api/events/{body['id']}/rounds", json={}, headers=director(body))
    assert last.status_code == 409 and "All 2 rounds have been played" in last.get_json()["errors"][0]["message"]


def test_closing_a_round_ends_its_tables_as_they_stand_and_equal_pairs_share_a_rank(client):
    body = create(client, event_document(4, 2))
    # 4 pairs, T = 2: round 0 seats Roses(0)–Lilies(2) at table 0 and Tulips(1)–Daisies(3) at table 1.
    assert seats(body, 0) == [(0, [0, 2]), (1, [1, 3])]
    for table in body["tables"]:
        play(client, table, TIE)  # 900 – 900, the game goes on
    refused = client.post(f"/api/events/{body['id']}/rounds", json={}, headers=director(body))
    assert refused.status_code == 409
    assert refused.get_json()["errors"][0]["message"].startswith("2 tables are still playing")
    closed = client.post(f"/api/events/{body['id']}/rounds", json={"close": True}, headers=director(body))
    assert closed.status_code == 201
    doc = closed.get_json()
    # Round 1: table t has EW pair 2 + ((t − 1) mod 2): table 0 Roses–Daisies, table 1 Tulips–Lilies.
    assert seats(doc, 1) == [(0, [0, 3]), (1, [1, 2])]
    # Round 0 closed: each table a tie at 900: 1 match point each, difference 0, 900 points: all four rank 1.
    assert standings(doc) == [(1, p, 1, 0, 900, 1) for p in range(4)]


def test_a_round_robin_of_four_pairs_seats_every_pair_against_every_other_once(client):
    body = create(client, event_document(4, 3, movement="round_robin"))
    met = set()
    for r in range(3):
        tables = body["tables"]
        for table in tables:
            play(client, table, BIG_3000)
        doc = client.get(f"/api/events/{body['id']}").get_json()
        met |= {frozenset(pairs) for _, pairs in seats(doc, r)}
        if r < 2:
            body = {
                **client.post(f"/api/events/{body['id']}/rounds", json={}, headers=director(body)).get_json(),
                "director_token": body["director_token"],
            }
    # Circle method, F = 3: round 0 (3, 0), (1, 2); round 1 (3, 1), (2, 0); round 2 (3, 2), (0, 1): six meetings.
    assert met == {frozenset(pair) for pair in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]}


def test_confirmation_and_a_correction_that_clears_it(client):
    body = create(client, event_document(2, 1, movement="round_robin"))
    table = body["tables"][0]
    url = f"/api/events/{body['id']}/rounds/0/tables/0"
    play(client, table, EXAMPLE, QUIET)
    early = client.post(f"{url}/confirm", json={}, headers=director(body))
    assert early.status_code == 409 and "still playing (2 hands saved)" in early.get_json()["errors"][0]["message"]
    play(client, table, LATE)
    assert client.post(f"{url}/confirm", json={}).status_code == 403  # no director's token
    confirmed = client.post(f"{url}/confirm", json={}, headers=director(body))
    assert confirmed.status_code == 200
    assert confirmed.get_json()["round_results"][0]["tables"][0]["confirmed"] is True
    revision = confirmed.get_json()["revision"]

    # The director corrects hand 2 (LATE): side 0 now mixed 1 + count 195 = 495, so 2985 + 495 = 3480.
    corrected = {"sides": [{"mixed_canastas": 1, "count": 195}, LATE["sides"][1]]}
    changed = client.put(f"{url}/hands/2", json=corrected, headers=director(body))
    assert changed.status_code == 200, changed.get_json()
    assert changed.get_json()["totals"] == [3480, -590]
    doc = client.get(f"/api/events/{body['id']}").get_json()
    assert doc["round_results"][0]["tables"][0]["confirmed"] is False
    assert doc["round_results"][0]["tables"][0]["points"] == [3480, -590]
    assert doc["revision"] > revision
    recorded = client.get(f"/api/events/{body['id']}/corrections").get_json()["corrections"]
    assert len(recorded) == 1
    assert recorded[0]["who"] == "director" and (recorded[0]["round"], recorded[0]["table"], recorded[0]["hand"]) == (
        0,
        0,
        2,
    )
    assert recorded[0]["before"] == LATE["sides"] and recorded[0]["after"][0]["count"] == 195
    # A hand the rules refuse is refused in words and nothing is recorded.
    bad = client.put(f"{url}/hands/0", json={"sides": [{"count": 7}, {}]}, headers=director(body))
    assert bad.status_code == 422
    with client.application.app_context():
        assert db.session.query(EventCorrection).count() == 1


def test_the_event_poll_is_304_until_a_table_saves(client):
    body = create(client, event_document(2, 1, movement="round_robin"))
    first = client.get(f"/api/events/{body['id']}")
    tag = first.headers["ETag"]
    assert client.get(f"/api/events/{body['id']}", headers={"If-None-Match": tag}).status_code == 304
    play(client, body["tables"][0], TIE)
    again = client.get(f"/api/events/{body['id']}", headers={"If-None-Match": tag})
    assert again.status_code == 200 and again.get_json()["round_results"][0]["tables"][0]["hands"] == 1


def test_a_late_pair_takes_the_seat_of_the_pair_that_sits_out(client):
    body = create(client, event_document(3, 2))
    # 3 pairs, T = 2: round 0 Roses(0)–Lilies(2), Tulips(1) sit out (table 1 meets the phantom, pair 3).
    assert seats(body, 0) == [(0, [0, 2])] and body["round_results"][0]["bye"] == 1
    late = client.post(
        f"/api/events/{body['id']}/pairs", json={"name": "Poppies", "players": ["Kim", "Lu"]}, headers=director(body)
    )
    assert late.status_code == 201, late.get_json()
    assert late.get_json()["pairs"][3]["name"] == "Poppies"
    again = client.post(
        f"/api/events/{body['id']}/pairs", json={"name": "Asters", "players": ["Mo", "Ned"]}, headers=director(body)
    )
    assert again.status_code == 409 and "every seat is taken" in again.get_json()["errors"][0]["message"]
    play(client, body["tables"][0], BIG_3000)
    doc = client.post(f"/api/events/{body['id']}/rounds", json={}, headers=director(body)).get_json()
    # Round 1: table t has EW pair 2 + ((t − 1) mod 2): table 0 Roses–Poppies(3), table 1 Tulips–Lilies.
    assert seats(doc, 1) == [(0, [0, 3]), (1, [1, 2])]


def test_refusals_in_words(client):
    doc = event_document(5, 4)
    response = client.post("/api/events", json=doc)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "rounds"
    assert "at most 3 rounds" in response.get_json()["errors"][0]["message"]
    assert client.post("/api/events", json={"format": "scorepad-game"}).status_code == 400
    assert client.get("/api/events/nothing").status_code == 404
    body = create(client, event_document(2, 1, movement="round_robin"))
    forged = client.post(f"/api/events/{body['id']}/rounds", json={}, headers={"Authorization": "Bearer no"})
    assert forged.status_code == 403


def test_results_as_csv_and_json(client):
    body = create(client, event_document(2, 1, movement="round_robin"))
    play(client, body["tables"][0], BIG_3000)
    rows = list(csv.reader(io.StringIO(client.get(f"/api/events/{body['id']}/results.csv").get_data(as_text=True))))
    # Round-robin of 2: the fixed pair F = 1 meets pair 0 in round 0; the even pair (0) has side 0.
    assert rows[1] == ["1", "Roses", "Ann & Cleo", "2", "3000", "3000", "1"]
    assert rows[2] == ["2", "Tulips", "Bea & Dot", "0", "0", "-3000", "1"]
    assert ["1", "1", "Roses", "Tulips", "3000", "0", "1", "finished", ""] in rows
    exported = client.get(f"/api/events/{body['id']}/results.json")
    assert "attachment" in exported.headers["Content-Disposition"]
    assert exported.get_json()["standings"][0]["pair"] == 0


def test_a_correction_through_the_game_itself_is_recorded_and_clears_the_confirmation(client):
    body = create(client, event_document(2, 1, movement="round_robin"))
    table = body["tables"][0]
    play(client, table, BIG_3000)  # 3000 – 0: over
    url = f"/api/events/{body['id']}/rounds/0/tables/0"
    assert client.post(f"{url}/confirm", json={}, headers=director(body)).status_code == 200
    # The table's own token corrects hand 0 through the game API: sevens 2500 + natural 500 + Count 50 = 3050.
    changed = {"sides": [{**BIG_3000["sides"][0], "count": 50}, {}]}
    headers = {"Authorization": f"Bearer {table['edit_token']}"}
    assert client.put(f"/api/games/{table['game']}/hands/0", json=changed, headers=headers).status_code == 200
    doc = client.get(f"/api/events/{body['id']}").get_json()
    assert doc["round_results"][0]["tables"][0]["confirmed"] is False
    assert doc["round_results"][0]["tables"][0]["points"] == [3050, 0]
    recorded = client.get(f"/api/events/{body['id']}/corrections").get_json()["corrections"]
    assert [(c["who"], c["hand"], c["before"], c["after"][0]["count"]) for c in recorded] == [
        ("scorekeeper", 0, BIG_3000["sides"], 50)
    ]
    # A game of no event: nothing recorded anywhere.
    other = client.post("/api/games", json=game_document(hands=[BIG_3000], target=5000)).get_json()
    auth = {"Authorization": f"Bearer {other['edit_token']}"}
    assert client.put(f"/api/games/{other['id']}/hands/0", json=changed, headers=auth).status_code == 200
    with client.application.app_context():
        assert db.session.query(EventCorrection).count() == 1


# --- The pages ------------------------------------------------------------------------------------------------


def test_room_codes_lead_to_the_wall_and_to_a_table_whose_card_its_first_phone_keeps(app, client):
    body = create(client, event_document(4, 1))
    wall = client.get(f"/join?code={body['room_code'].lower()}")
    assert wall.status_code == 303 and wall.headers["Location"].endswith(f"/events/{body['id']}")
    with app.app_context():
        from scorepad.models import EventSeatRecord

        code = db.session.query(EventSeatRecord).filter_by(event_id=body["id"], table=1).one().room_code
    card = client.get(f"/join?code={code}")
    assert card.status_code == 303 and card.headers["Location"].endswith(f"/events/{body['id']}/tables/1")
    # The first phone to open table 2's card keeps its score: the scoresheet of Tulips v Daisies; another watches.
    keeper = client.get(f"/events/{body['id']}/tables/1")
    game = body["tables"][1]["game"]
    assert keeper.status_code == 303 and keeper.headers["Location"].endswith(f"/games/{game}")
    sheet = client.get(f"/games/{game}").get_data(as_text=True)
    assert "Tulips v Daisies" in sheet and "Enter hand 1" in sheet
    assert "This phone now keeps table 2&#39;s score (the first phone to open a table&#39;s card does)." in sheet
    again = client.get(client.get(f"/events/{body['id']}/tables/1").headers["Location"])  # said once only
    assert "This phone keeps table" not in again.get_data(as_text=True)
    watcher = app.test_client().get(f"/events/{body['id']}/tables/1")
    assert watcher.status_code == 303 and watcher.headers["Location"].endswith(f"/games/{game}/scoreboard")


def test_the_wall_poll_is_304_until_something_changes(client):
    body = create(client, event_document(2, 1, movement="round_robin"))
    page = client.get(f"/events/{body['id']}")
    assert page.status_code == 200 and "Roses" in page.get_data(as_text=True)
    tag = re.search(r'"If-None-Match": "(W/\\"[^\\]+\\")"', page.get_data(as_text=True)).group(1).replace('\\"', '"')
    live = f"/events/{body['id']}/live"
    assert client.get(live, headers={"If-None-Match": tag, "HX-Request": "true"}).status_code == 304
    play(client, body["tables"][0], TIE)
    changed = client.get(live, headers={"If-None-Match": tag, "HX-Request": "true"})
    assert changed.status_code == 200
    assert '<td class="table-state">provisional</td>' in changed.get_data(as_text=True)
    assert "900 – 900" in shown_text(changed)


def test_the_new_event_form_refuses_in_words_and_keeps_what_was_typed(client):
    form = {"name": "Tuesday", "pair-0-name": "Roses", "pair-0-p1": "Ann", "pair-0-p2": "Cleo", "rounds": "1"}
    refused = client.post("/events/new", data=form)
    assert refused.status_code == 422
    text = refused.get_data(as_text=True)
    assert "List the pairs, at least two" in text and 'value="Cleo"' in text
    form.update({"pair-1-name": "Tulips", "pair-1-p1": "Bea", "pair-1-p2": "Ann"})
    refused = client.post("/events/new", data=form)
    assert "Pair 2: Ann already plays in Roses" in refused.get_data(as_text=True)
    form["pair-1-p2"] = "Dot"
    started = client.post("/events/new", data=form)
    assert started.status_code == 303 and started.headers["Location"].endswith("/director")
    director_page = client.get(started.headers["Location"]).get_data(as_text=True)
    assert "Start round" not in director_page  # one round only
    assert "Roses v Tulips" in shown_text(director_page)


def test_the_new_event_form_left_without_rounds_plays_every_round_the_pairs_allow(client):
    """Rounds left empty: as many as the movement seats without two pairs meeting again. A Mitchell of 4 pairs has
    2 tables, so 2 rounds (each East-West pair visits both); a round-robin of 5 pairs has each pair meet the 4
    others, one sitting out each round: 5 rounds."""
    four = {"name": "Tuesday", "rounds": "", "movement": "mitchell"}
    for i, (name, first, second) in enumerate([("Roses", "Ann", "Cleo"), ("Tulips", "Bea", "Dot")] * 2):
        four.update({f"pair-{i}-name": f"{name} {i}", f"pair-{i}-p1": f"{first} {i}", f"pair-{i}-p2": f"{second} {i}"})
    started = client.post("/events/new", data=four)
    assert started.status_code == 303
    event_id = started.headers["Location"].split("/")[-2]
    assert client.get(f"/api/events/{event_id}").get_json()["rounds"] == 2
    five = {**four, "movement": "round_robin", "pair-4-name": "Lilies", "pair-4-p1": "Eve", "pair-4-p2": "Fay"}
    started = client.post("/events/new", data=five)
    assert started.status_code == 303
    assert client.get(f"/api/events/{started.headers['Location'].split('/')[-2]}").get_json()["rounds"] == 5
    # A number typed is kept to, and one too many still refused in words.
    one = client.post("/events/new", data={**four, "rounds": "1"})
    assert client.get(f"/api/events/{one.headers['Location'].split('/')[-2]}").get_json()["rounds"] == 1
    refused = client.post("/events/new", data={**four, "rounds": "3"})
    assert refused.status_code == 422
    assert "A Mitchell of 4 pairs has at most 2 rounds" in shown_text(refused)
