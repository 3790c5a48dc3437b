"""Stored games are trusted: they load and score as stored, whatever the catalogue or the checks became since."""

from __future__ import annotations

from scorepad.models import GameRecord, HandRecord, db

from .conftest import first_release_game, game_document


def _store_as_of_old(app, game_id: str, rules_change: dict, hand_sides: list) -> None:
    """Write into the database what an older Scorepad stored: rules and a hand that today's checks refuse."""
    with app.app_context():
        record = db.session.get(GameRecord, game_id)
        record.rules = {**record.rules, **rules_change}
        record.hands.append(HandRecord(position=len(record.hands), sides=hand_sides))
        record.figures = record.figures_version = None  # an older Scorepad kept no figures
        db.session.commit()


def test_a_game_with_a_special_hand_since_taken_out_of_the_catalogue_still_loads(app, client):
    created = client.post("/api/games", json=game_document()).get_json()
    # An older catalogue had "garbage" worth 3,000; the game stored it and one hand that used it.
    _store_as_of_old(
        app,
        created["id"],
        {"special_hands": {"pairs": 2500, "garbage": 3000}},
        [{"special_hand": "garbage"}, {"natural_canastas": 1, "count": 120}],
    )

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

    refused = client.post(f"/api/games/{created['id']}/hands", headers=headers, json={"sides": [{"count": 7}, {}]})
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["field"] == "sides.0.count"


def test_games_stored_before_table_rules_keep_the_values_they_were_played_with(tmp_path):
    """The migration to complete table rules fills a stored game's values from the presets of its day."""
    hand = '[{"natural_canastas": 1, "threes_in_hand": 1, "count": 100}, {}]'
    app = first_release_game(tmp_path, "modern", 5000, hand)
    body = app.test_client().get("/api/games/old").get_json()
    with app.app_context():
        db.engine.dispose()
    # Its own overrides stay; the rest is modern as it was played then: a 3 left in hand cost 100.
    assert body["rules"]["target"] == 5000 and body["rules"]["special_hands"] == {"pairs": 2500}
    assert body["rules"]["values"]["three_in_hand"] == 100
    assert body["rules"]["minimum_counts"][1] == {"from": 3000, "minimum": 155}
    # Us: one natural canasta 500, 3s none, a 3 left in hand −100, Count 100: 500.
    assert body["totals"] == [500, 0]


def test_a_stored_game_keeps_its_values_when_a_preset_changes(app, client, monkeypatch):
    from dataclasses import replace

    from scorepad import rules

    created = client.post("/api/games", json=game_document()).get_json()
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    client.post(
        f"/api/games/{created['id']}/hands",
        headers=headers,
        json={"sides": [{"natural_canastas": 2, "went_out": True, "count": 100}, {}]},
    )
    changed = replace(
        rules.PRESETS["modern"],
        rules=replace(
            rules.PRESETS["modern"].rules, values=replace(rules.PRESETS["modern"].rules.values, natural_canasta=700)
        ),
    )
    monkeypatch.setitem(rules.PRESETS, "modern", changed)  # a later Scorepad values a natural canasta at 700
    body = client.get(f"/api/games/{created['id']}").get_json()
    # Still 2 × 500 + going out 100 + Count 100 = 1,200, as the game was played.
    assert body["rules"]["values"]["natural_canasta"] == 500 and body["totals"] == [1200, 0]


def test_the_migration_to_small_answers_forgets_old_keys_and_shrinks_remembered_documents(app, client):
    """Migration e5a7c9d1f3b4: keys older than a day go; a remembered whole document becomes its hand's reference."""
    from datetime import UTC, datetime, timedelta

    from flask_migrate import downgrade, upgrade

    from scorepad.models import IdempotentRequest

    created = client.post("/api/games", json=game_document()).get_json()
    game_id = created["id"]
    with app.app_context():
        downgrade(revision="c4e8a2f6d0b3")  # the table as an older Scorepad kept it
        keys = IdempotentRequest.__table__
        document = {"format": "scorepad-game", "hands": [{"sides": []}, {"sides": []}, {"sides": []}]}
        old = datetime.now(UTC) - timedelta(days=3)
        db.session.execute(
            keys.insert(),
            [
                {"game_id": game_id, "key": "young", "status": 201, "body": document, "created_at": datetime.now(UTC)},
                {"game_id": game_id, "key": "old", "status": 201, "body": document, "created_at": old},
            ],
        )
        db.session.commit()
        upgrade()
        rows = db.session.execute(db.select(keys.c.key, keys.c.body, keys.c.request_hash)).all()
    assert [tuple(row) for row in rows] == [("young", {"hand": 2}, None)]  # three hands: it was hand 2


def test_one_hand_under_one_key_in_two_spellings_is_stored_once(app, client):
    """Save's own post and the phone's copy of it race: the copy (a 0 spelled out) is stored first, then the
    post (the form's JSON) reaches the store under the same key. The same hand: stored once, answered as stored."""
    from scorepad import store

    created = client.post("/api/games", json=game_document()).get_json()
    hand = {"sides": [{"natural_canastas": 2, "went_out": True, "count": 150}, {"mixed_canastas": 1, "count": 60}]}
    copy = {"sides": [{**hand["sides"][0], "red_threes": 0}, {**hand["sides"][1], "black_threes": 0}]}
    with app.app_context():
        first = store.add_hand_once(store.load_game(created["id"]), copy, "save-1")
        assert (first.status, first.replayed) == (201, False)
    with app.app_context():
        stale = store.load_game(created["id"])  # as the post read the game: the copy already stored
        post = store.append_hand(stale, hand, "save-1", follow=False)
        assert (post.status, post.replayed) == (201, True)
        # Us 2 naturals 1,000 + out 100 + Count 150 = 1,250; Them 1 mixed 300 + 60 = 360: one hand.
        assert post.body["totals"] == [1250, 360] and len(post.body["hands"]) == 1
