"""A club night's clock and its end (docs/events.md): the hand saved after the round's time is up ends its table's
game in the save's own write (one transaction, the revision moved once), recorded as the clock's end, not by
rewriting the table rule; the stored game carries its table explicitly; and the director closes the last round,
which ends the event with its results final, once.

Hands (modern, played to 3,000; docs/rules.md):
  HAND (tests/test_service.py works it): Us 1,585, Them 440.
  TIE (tests/test_events_api.py): natural 500 + mixed 300 + went out 100 + Count 0 = 900 against
    natural 500 + mixed 300 + Count 100 = 900: 900 – 900, the game goes on.
"""

from __future__ import annotations

import pytest

from scorepad import store
from scorepad.models import EventRoundRecord, GameRecord, db
from tests.conftest import game_document
from tests.test_club_nights import CLOSED, move_the_clock, new_event_on_the_page, table_game
from tests.test_events_api import TIE, create, director, event_document, play
from tests.test_games import hand_form, text
from tests.test_service import HAND, MOST_STATEMENTS, statements

# --- The hand after the time is up: one write, the table rule kept ------------------------------------------


@pytest.fixture
def timed_table(app, client):
    """A club night of four pairs, one round of 30 minutes; table 0 has saved HAND in time (1,585 – 440) and the
    clock has moved 31 minutes on. Returns the created body and table 0 (its game and edit token)."""
    body = create(client, event_document(4, 1, round_minutes=30))
    table = body["tables"][0]
    play(client, table, HAND)
    move_the_clock(app, body["id"], 31)
    return body, table


def test_the_hand_after_the_time_is_up_ends_the_game_in_one_write_keeping_the_table_rule(app, client, timed_table):
    body, table = timed_table
    headers = {"Authorization": f"Bearer {table['edit_token']}"}
    before = client.get(f"/api/games/{table['game']}").get_json()
    event_before = client.get(f"/api/events/{body['id']}").get_json()["revision"]
    with statements(app) as sent:
        saved = client.post(f"/api/games/{table['game']}/hands", json=HAND, headers=headers)
    assert saved.status_code == 201, saved.get_json()
    doc = saved.get_json()
    # Two hands of 1,585 – 440: 3,170 – 880 reaches 3,000 anyway; so the game ends: side 0 wins.
    assert doc["status"] == "finished" and doc["winner"] == 0 and doc["totals"] == [3170, 880]
    # One write: the revision moved once, the event's with it; no more statements than any save.
    assert doc["revision"] == before["revision"] + 1
    assert client.get(f"/api/events/{body['id']}").get_json()["revision"] == event_before + 1
    assert len(sent) <= MOST_STATEMENTS, sent


def test_a_hand_that_would_not_end_it_ends_it_all_the_same_and_the_rules_stay(app, client, timed_table):
    body, table = timed_table
    headers = {"Authorization": f"Bearer {table['edit_token']}"}
    # Roses natural 500 + Count 100 = 600, Lilies mixed 300 + Count 50 = 350: 2,185 – 790, short of 3,000.
    small = {"sides": [{"natural_canastas": 1, "count": 100}, {"mixed_canastas": 1, "count": 50}]}
    before = client.get(f"/api/games/{table['game']}").get_json()
    with statements(app) as sent:
        saved = client.post(f"/api/games/{table['game']}/hands", json=small, headers=headers)
    assert saved.status_code == 201
    doc = saved.get_json()
    assert doc["status"] == "finished" and doc["winner"] == 0 and doc["totals"] == [2185, 790]
    assert doc["revision"] == before["revision"] + 1  # one write, not a save and then an end
    assert len(sent) <= MOST_STATEMENTS, sent
    # The table rule is the event's, as it was: the game is not made a game of a fixed number of hands.
    assert doc["rules"].get("hands_per_game") == before["rules"].get("hands_per_game") is None
    with app.app_context():
        assert db.session.get(GameRecord, table["game"]).rules.get("hands_per_game") is None
    # Every door sees it over: the document, the sheet, the scoreboard, the standings; no hand follows.
    again = client.get(f"/api/games/{table['game']}").get_json()
    assert again["status"] == "finished" and len(again["hands"]) == 2
    assert "Roses won" in text(client.get(f"/games/{table['game']}"))
    assert "Roses won" in text(client.get(f"/games/{table['game']}/scoreboard"))
    assert client.post(f"/api/games/{table['game']}/hands", json=small, headers=headers).status_code == 409
    first = client.get(f"/api/events/{body['id']}").get_json()["round_results"][0]["tables"][0]
    assert first["status"] == "finished" and first["points"] == [2185, 790]


def test_the_clocks_end_holds_when_the_figures_are_worked_out_again_and_after_a_correction(app, client, timed_table):
    body, table = timed_table
    headers = {"Authorization": f"Bearer {table['edit_token']}"}
    small = {"sides": [{"natural_canastas": 1, "count": 100}, {"mixed_canastas": 1, "count": 50}]}
    assert client.post(f"/api/games/{table['game']}/hands", json=small, headers=headers).status_code == 201
    with app.app_context():  # figures kept by an older format: scored again on the next read
        record = db.session.get(GameRecord, table["game"])
        record.figures = {**record.figures, "format": 0}
        db.session.commit()
    assert client.get(f"/api/games/{table['game']}").get_json()["status"] == "finished"
    # The director corrects hand 1: Lilies' Count 140 becomes 100 (440 − 40 = 400; 400 + 350 = 750). Still over
    # after hand 2, as the clock ended it.
    corrected = {
        "sides": [
            HAND["sides"][0],
            {**HAND["sides"][1], "count": 100},
        ]
    }
    url = f"/api/events/{body['id']}/rounds/0/tables/0/hands/0"
    answer = client.put(url, json=corrected, headers=director(body))
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["status"] == "finished" and answer.get_json()["totals"] == [2185, 750]


def test_the_stored_game_carries_its_table_as_a_field_of_its_own(app, client, timed_table):
    body, table = timed_table
    plain = client.post("/api/games", json=game_document()).get_json()
    with app.app_context():
        stored = store.load_game(table["game"])
        assert stored.at_event is not None and (stored.at_event.event_id, stored.at_event.table) == (body["id"], 0)
        assert "at_event" not in stored.record.__dict__  # kept by Stored, not poked into the ORM's object
        assert store.load_game(plain["id"]).at_event is None


# --- The director closes the last round -----------------------------------------------------------------------


def test_the_director_closes_the_last_round_through_the_api_and_a_second_close_is_refused(app, client):
    body = create(client, event_document(4, 1))
    for seated in body["tables"]:
        play(client, seated, TIE)  # 900 – 900 at both tables: still playing
    url = f"/api/events/{body['id']}/rounds"
    waiting = client.post(url, json={}, headers=director(body))
    assert waiting.status_code == 409
    assert waiting.get_json()["errors"][0]["message"] == (
        "2 tables are still playing: table 1 (Roses against Lilies, 1 hand played) and table 2 (Tulips against "
        "Daisies, 1 hand played). Wait for them to finish, or close the round."
    )
    closed = client.post(url, json={"close": True}, headers=director(body))
    assert closed.status_code == 200, closed.get_json()
    doc = closed.get_json()
    assert doc["status"] == "finished" and doc["tables"] == [] and len(doc["round_results"]) == 1
    # Each table a tie at 900: 1 match point each, difference 0, 900 points: all four rank 1.
    assert [(s["rank"], s["match_points"], s["points"]) for s in doc["standings"]] == [(1, 1, 900)] * 4
    assert all(t["status"] == "finished" for t in doc["round_results"][0]["tables"])
    # Its tables take no new hand.
    refused = client.post(
        f"/api/games/{body['tables'][0]['game']}/hands",
        json=TIE,
        headers={"Authorization": f"Bearer {body['tables'][0]['edit_token']}"},
    )
    assert refused.status_code == 422 and CLOSED in refused.get_json()["errors"][0]["message"]
    again = client.post(url, json={"close": True}, headers=director(body))
    assert again.status_code == 409
    assert again.get_json()["errors"][0]["message"] == (
        "The last round is closed already: the event is over, and its results are final."
    )
    plain = client.post(url, json={}, headers=director(body))
    assert plain.status_code == 409
    assert plain.get_json()["errors"][0]["message"] == "All 1 rounds have been played: the event is over."
    assert client.get(f"/api/events/{body['id']}").get_json()["status"] == "finished"


def test_the_director_closes_the_last_round_on_the_page_and_a_second_close_is_refused(app, client):
    event_id = new_event_on_the_page(client, rounds="1")
    first = table_game(client, event_id, 0, 0)
    tie = hand_form(
        {"natural_canastas": 1, "mixed_canastas": 1, "went_out": "y", "count": 0},
        {"natural_canastas": 1, "mixed_canastas": 1, "count": 100},
    )
    assert client.post(f"/games/{first}/hands", data=tie).status_code == 303  # 900 – 900: still playing
    page = text(client.get(f"/events/{event_id}/director"))
    assert "Start round 2" not in page
    assert "Close round 1 and end the event" in page
    closed = client.post(f"/events/{event_id}/rounds", data={"close": "yes"})
    assert closed.status_code == 303
    after = text(client.get(closed.headers["Location"]))
    assert "Round 1 is closed: the event is over, and its results are final." in after
    assert "Close round 1 and end the event" not in after
    assert client.get(f"/api/events/{event_id}").get_json()["status"] == "finished"
    with app.app_context():
        assert db.session.get(EventRoundRecord, (event_id, 0)).closed
    # The same form sent again (an old page, a second tap): refused in words, nothing changes.
    twice = client.post(f"/events/{event_id}/rounds", data={"close": "yes"})
    assert "The last round is closed already: the event is over, and its results are final." in text(
        client.get(twice.headers["Location"])
    )


def test_the_migration_adds_the_clocks_end_and_a_game_stored_before_it_loads_as_it_was(app, client):
    """Migration b8e4d2a6f0c7 on a database of the release before it: a game of no event and a club night's table
    whose clock ended it the old way (its rules rewritten to 1 hand) load as they were; the new column is empty."""
    from flask_migrate import downgrade, upgrade

    body = create(client, event_document(4, 1, round_minutes=30))
    table = body["tables"][0]
    plain = client.post("/api/games", json=game_document()).get_json()
    with app.app_context():
        downgrade(revision="a3d5f7b9c1e2")  # the games table as the club nights' first release kept it
        games = GameRecord.__table__
        assert "clock_ended_after" not in {c["name"] for c in db.inspect(db.engine).get_columns("games")}
        old_rules = db.session.execute(db.select(games.c.rules).where(games.c.id == table["game"])).scalar_one()
        db.session.execute(
            games.update().where(games.c.id == table["game"]).values(rules={**old_rules, "hands_per_game": 1})
        )
        db.session.commit()
        upgrade()
        assert db.session.get(GameRecord, plain["id"]).clock_ended_after is None
    play(client, table, HAND)  # 1,585 – 440 and its (old) rules' one hand: over
    doc = client.get(f"/api/games/{table['game']}").get_json()
    assert doc["status"] == "finished" and doc["totals"] == [1585, 440]
    assert client.get(f"/api/games/{plain['id']}").get_json()["status"] == "in_progress"


def test_two_phones_closing_the_last_round_at_once_close_it_once(app, client):
    """Both read the event before either closed it: the second close finds it closed and is refused in words."""
    from sqlalchemy.orm.attributes import set_committed_value

    from scorepad import event_service, event_store, events

    body = create(client, event_document(4, 1))
    for seated in body["tables"]:
        play(client, seated, TIE)
    before = client.get(f"/api/events/{body['id']}").get_json()["revision"]
    with app.app_context():
        assert event_service.start_round(event_store.load_event(body["id"]), close=True).ended
    with app.app_context():
        second = event_store.load_event(body["id"])
        set_committed_value(second.rounds[-1], "closed", False)  # as read before the first close
        with pytest.raises(events.EventConflict, match="closed already"):
            event_service.start_round(second, close=True)
    assert client.get(f"/api/events/{body['id']}").get_json()["revision"] == before + 1  # closed once
