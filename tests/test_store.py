"""Stored games are trusted: they load and score as stored, whatever the catalogue or the checks became since."""

from __future__ import annotations

from scorepad.models import GameRecord, HandRecord, db

from .conftest import game_document


def _store_as_of_old(app, game_id: str, rules_change: dict, hand_sides: list) -> None:
    """Write into the database what an older Scorepad stored: rules and a hand that today's checks refuse."""
    with app.app_context():
        record = db.session.get(GameRecord, game_id)
        record.rules = {**record.rules, **rules_change}
        record.hands.append(HandRecord(position=len(record.hands), sides=hand_sides))
        db.session.commit()


def test_a_game_with_a_special_hand_since_taken_out_of_the_catalogue_still_loads(app, client):
    created = client.post("/api/games", json=game_document()).get_json()
    # An older catalogue had "garbage" worth 3,000; the game stored it and one hand that used it.
    _store_as_of_old(app, created["id"], {"special_hands": {"pairs": 2500, "garbage": 3000}},
                     [{"special_hand": "garbage"}, {"natural_canastas": 1, "count": 120}])

    document = client.get(f"/api/games/{created['id']}")
    assert document.status_code == 200
    body = document.get_json()
    # Us: the special hand's stored value 3,000 and Count 0. Them: one natural canasta 500 + 120 = 620.
    assert body["hands"][0]["sides"][0]["result"]["total"] == 3000
    assert body["hands"][0]["sides"][1]["result"]["total"] == 620
    assert body["totals"] == [3000, 620]
    assert body["rules"]["special_hands"]["garbage"] == 3000

    page = client.get(f"/games/{created['id']}")
    assert page.status_code == 200
    assert "Garbage" in page.get_data(as_text=True)
    assert "3,000" in page.get_data(as_text=True)


def test_a_stored_hand_that_a_stricter_check_would_refuse_still_loads(app, client):
    created = client.post("/api/games", json=game_document()).get_json()
    # Today a Count must be a multiple of 5 and a side with no canasta can't count above 0; this hand
    # was stored before (say) those checks: it loads and scores as stored.
    _store_as_of_old(app, created["id"], {}, [{"count": 42}, {"red_threes": 1, "count": 0}])

    body = client.get(f"/api/games/{created['id']}").get_json()
    # Us: Count 42 as stored. Them: one red 3 with no canasta is −100.
    assert body["totals"] == [42, -100]
    assert client.get(f"/games/{created['id']}").status_code == 200
    assert client.get(f"/games/{created['id']}/scoreboard").status_code == 200
    assert client.get(f"/games/{created['id']}/export.csv").status_code == 200


def test_a_new_hand_is_still_checked_in_an_old_game(app, client):
    created = client.post("/api/games", json=game_document()).get_json()
    _store_as_of_old(app, created["id"], {"special_hands": {"garbage": 3000}}, [{"count": 0}, {"count": 0}])
    headers = {"Authorization": f"Bearer {created['edit_token']}"}

    refused = client.post(f"/api/games/{created['id']}/hands", headers=headers,
                          json={"sides": [{"count": 7}, {}]})
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["field"] == "sides.0.count"
