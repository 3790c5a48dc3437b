"""Club nights' gaps closed (issue #19, docs/events.md): a closed round takes no new hand at any door, Confirm gives
way to who confirmed it, the wall's ETag follows a deleted game, a table's game names its event, the scoresheet
shows the event, round, table and clock, and the hand saved after the time is up is the table's last.

Hands (modern, played to 3,000, a table rule; docs/rules.md):
  HAND (tests/test_service.py works it): Us 1,585, Them 440. Two of them: 3,170 ≥ 3,000, over after hand 2.
  BIG_3000 (tests/test_api.py): side 0 sevens 2,500 + natural 500 = 3,000 at once: over after one hand.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from scorepad.models import EventRoundRecord, EventTableRecord, GameRecord, db
from tests.conftest import game_document
from tests.test_api import BIG_3000
from tests.test_events_api import create, director, event_document, play
from tests.test_games import hand_form, text
from tests.test_service import FORM_HAND, HAND
from tests.test_sync import send

CLOSED = "This round is closed: ask the director to correct a hand."
NEW_EVENT = {
    "name": "Tuesday club night",
    "preset": "modern",
    "target": "3000",
    "movement": "mitchell",
    "rounds": "2",
    "round_minutes": "",
    "scoring": "match_points",
    "bye": "average",
    "pair-0-name": "Roses",
    "pair-0-p1": "Ann",
    "pair-0-p2": "Cleo",
    "pair-1-name": "Tulips",
    "pair-1-p1": "Bea",
    "pair-1-p2": "Dot",
    "pair-2-name": "Lilies",
    "pair-2-p1": "Eve",
    "pair-2-p2": "Fay",
    "pair-3-name": "Daisies",
    "pair-3-p1": "Gil",
    "pair-3-p2": "Hal",
}


def new_event_on_the_page(client, **changes: str) -> str:
    """A club night started on the director's phone (`client`): four pairs, Mitchell, two tables; its id."""
    made = client.post("/events/new", data={**NEW_EVENT, **changes})
    assert made.status_code == 303, text(made)
    return made.headers["Location"].split("/")[-2]


def table_game(client, event_id: str, round: int, table: int) -> str:
    doc = client.get(f"/api/events/{event_id}").get_json()
    return next(t["game"] for t in doc["round_results"][round]["tables"] if t["table"] == table)


def version(game_id: str) -> int:
    return db.session.get(GameRecord, game_id).version


# --- 1. A closed round takes no new hand ------------------------------------------------------------------


@pytest.fixture
def closed_round(app, client):
    """Round 1 of a club night started with table 1 still playing (one hand saved: Roses 1,585, Lilies 440) and the
    round closed; table 2 finished (Tulips 3,000). `keeper`: the phone that scanned table 1's card. Returns the event
    id, table 1's game of round 1, and the keeper's client."""
    event_id = new_event_on_the_page(client)
    keeper = app.test_client()
    assert keeper.get(f"/events/{event_id}/tables/0").status_code == 303  # the first to scan it keeps its score
    first, second = table_game(client, event_id, 0, 0), table_game(client, event_id, 0, 1)
    assert keeper.post(f"/games/{first}/hands", data=FORM_HAND).status_code == 303
    big = hand_form({"sevens_canasta": "y", "natural_canastas": 1}, {})
    assert client.post(f"/games/{second}/hands", data=big).status_code == 303
    refused = client.post(f"/events/{event_id}/rounds", data={})
    assert "still playing" in text(client.get(refused.headers["Location"]))
    assert client.post(f"/events/{event_id}/rounds", data={"close": "yes"}).status_code == 303
    assert len(client.get(f"/api/events/{event_id}").get_json()["round_results"]) == 2
    return event_id, first, keeper


def test_the_hand_form_of_a_closed_rounds_table_is_refused_in_words_nothing_typed_lost(app, closed_round):
    event_id, game_id, keeper = closed_round
    with app.app_context():
        before = version(game_id)
    typed = hand_form({"natural_canastas": 1, "count": 215}, {"mixed_canastas": 1, "count": 95})
    answer = keeper.post(f"/games/{game_id}/hands", data=typed)
    assert answer.status_code == 422
    assert CLOSED in text(answer)
    page = answer.get_data(as_text=True)
    assert 'value="215"' in page and 'value="95"' in page  # what was typed is still in the form
    with app.app_context():
        assert version(game_id) == before
    assert len(keeper.get(f"/api/games/{game_id}").get_json()["hands"]) == 1


def test_a_queued_hand_for_a_closed_rounds_table_is_refused_with_the_reason(app, closed_round):
    event_id, game_id, keeper = closed_round
    with app.app_context():
        base = version(game_id)
    answer = send(keeper, game_id, key="late-1", hand=HAND, base_version=base, position=1)
    assert answer.status_code == 422
    body = answer.get_json()
    assert body["outcome"] == "refused" and CLOSED in body["reason"]  # the phone keeps the hand, with the reason
    assert len(keeper.get(f"/api/games/{game_id}").get_json()["hands"]) == 1


def test_the_directors_correction_of_a_closed_rounds_table_still_goes_through(app, client, closed_round):
    event_id, game_id, keeper = closed_round
    # The director's phone corrects hand 1: Roses' Count 385 becomes 300 (1,585 − 85 = 1,500).
    corrected = hand_form(
        {"red_threes": 2, "natural_canastas": 1, "mixed_canastas": 1, "went_out": "y", "count": 300},
        {"red_threes": 1, "mixed_canastas": 1, "count": 140},
    )
    assert client.post(f"/games/{game_id}/hands/1", data=corrected).status_code == 303
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [1500, 440]
    # ... and a new hand is refused on the director's phone too: the round ended as it stood.
    assert CLOSED in text(client.post(f"/games/{game_id}/hands", data=FORM_HAND))


def test_the_api_refuses_a_hand_for_a_closed_rounds_table_and_takes_the_directors_correction(client):
    body = create(client, event_document(4, 2))
    tables = {t["table"]: t for t in body["tables"]}
    play(client, tables[0], HAND)  # 1,585 – 440: still playing
    play(client, tables[1], BIG_3000)  # 3,000 – 0: over
    started = client.post(f"/api/events/{body['id']}/rounds", json={"close": True}, headers=director(body))
    assert started.status_code == 201, started.get_json()
    game = tables[0]["game"]
    refused = client.post(
        f"/api/games/{game}/hands", json=HAND, headers={"Authorization": f"Bearer {tables[0]['edit_token']}"}
    )
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["message"] == CLOSED
    assert len(client.get(f"/api/games/{game}").get_json()["hands"]) == 1
    # The director corrects hand 1 (Roses' Count 385 → 300): 1,500 – 440.
    fixed = {"sides": [{**HAND["sides"][0], "count": 300}, HAND["sides"][1]]}
    answer = client.put(f"/api/events/{body['id']}/rounds/0/tables/0/hands/0", json=fixed, headers=director(body))
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["totals"] == [1500, 440]


# --- 2. Once confirmed, the scoreboard says by whom and when ---------------------------------------------------

BIG = hand_form({"sevens_canasta": "y", "natural_canastas": 1}, {})  # 3,000 – 0: over after one hand


def revision(client, event_id: str) -> int:
    return client.get(f"/api/events/{event_id}").get_json()["revision"]


def test_a_confirmed_tables_scoreboard_says_who_confirmed_it_and_a_second_confirm_records_nothing(app, client):
    event_id = new_event_on_the_page(client)
    game = table_game(client, event_id, 0, 1)  # table 2: Tulips against Daisies
    assert client.post(f"/games/{game}/hands", data=BIG).status_code == 303  # the director's phone keeps it
    other = app.test_client()  # a phone of the other pair, watching the scoreboard
    board = other.get(f"/games/{game}/scoreboard").get_data(as_text=True)
    box = f"/events/games/{game}/confirmation"
    assert f'hx-get="{box}"' in board  # asked for afresh each time the scoreboard is shown
    assert "Confirm this result" in text(other.get(box))

    confirm = f"/events/{event_id}/rounds/0/tables/1/confirm"
    first = other.post(confirm, data={"back": "scoreboard"})
    assert first.status_code == 200 and "Confirmed: Tulips 3,000, Daisies 0." in text(first)
    with app.app_context():
        seated = db.session.get(EventTableRecord, (event_id, 0, 1))
        at = seated.confirmed_at
    shown = text(other.get(box))
    assert "Confirm this result" not in shown
    assert f"Confirmed by the other pair at {at:%H:%M} UTC." in shown
    # Tapped again (an old page, a second phone): answered plainly, nothing recorded a second time.
    before = revision(client, event_id)
    again = other.post(confirm, data={"back": "scoreboard"})
    assert again.status_code == 200
    assert f"Already confirmed by the other pair at {at:%H:%M} UTC." in text(again)
    assert revision(client, event_id) == before
    with app.app_context():
        assert db.session.get(EventTableRecord, (event_id, 0, 1)).confirmed_at == at
    # The director's Confirm on the director's page says the same, and records nothing either.
    assert client.post(confirm, data={}).status_code == 303
    assert revision(client, event_id) == before
    assert "Confirmed by the other pair at" in text(client.get(box))


def test_the_directors_second_confirm_through_the_api_records_nothing(client):
    body = create(client, event_document(4, 1))
    play(client, body["tables"][1], BIG_3000)
    url = f"/api/events/{body['id']}/rounds/0/tables/1/confirm"
    first = client.post(url, json={}, headers=director(body))
    assert first.status_code == 200 and first.get_json()["round_results"][0]["tables"][1]["confirmed"] is True
    again = client.post(url, json={}, headers=director(body))
    assert again.status_code == 200
    assert again.get_json()["revision"] == first.get_json()["revision"]


# --- 3. The wall's ETag follows a deleted game -----------------------------------------------------------------


def wall_tag(client, event_id: str) -> str:
    answer = client.get(f"/events/{event_id}/live")
    assert answer.status_code == 200
    return answer.headers["ETag"]


def test_the_walls_etag_changes_when_a_tables_game_is_deleted(client):
    event_id = new_event_on_the_page(client)
    first, second = table_game(client, event_id, 0, 0), table_game(client, event_id, 0, 1)
    old = wall_tag(client, event_id)  # both games at their first version, no hand
    assert client.get(f"/events/{event_id}/live", headers={"If-None-Match": old}).status_code == 304
    # Table 2 saves a hand (its game one version on), then table 1's game is deleted (one version less in the sum
    # of the games' versions): the wall must not be told that nothing changed.
    big = hand_form({"sevens_canasta": "y", "natural_canastas": 1}, {})
    assert client.post(f"/games/{second}/hands", data=big).status_code == 303
    assert client.post(f"/games/{first}/delete").status_code == 303
    answer = client.get(f"/events/{event_id}/live", headers={"If-None-Match": old})
    assert answer.status_code == 200
    assert answer.headers["ETag"] != old
    shown = text(answer)
    assert "3,000" in shown  # Tulips' 3,000 at table 2 is on the wall now
    # And the API's revision moved on too: the same ETag there is no 304 either.
    doc = client.get(f"/api/events/{event_id}")
    assert client.get(f"/api/events/{event_id}", headers={"If-None-Match": doc.headers["ETag"]}).status_code == 304


def test_the_walls_etag_changes_when_a_hand_of_a_tables_game_is_deleted(client):
    event_id = new_event_on_the_page(client)
    game = table_game(client, event_id, 0, 0)
    assert client.post(f"/games/{game}/hands", data=FORM_HAND).status_code == 303
    old = wall_tag(client, event_id)
    assert client.post(f"/games/{game}/hands/1/delete").status_code == 303
    answer = client.get(f"/events/{event_id}/live", headers={"If-None-Match": old})
    assert answer.status_code == 200 and answer.headers["ETag"] != old


# --- 4. A table's game names its event -------------------------------------------------------------------------


def test_a_tables_game_document_names_its_event_round_and_table(client):
    body = create(client, event_document(4, 2))
    table = body["tables"][1]
    doc = client.get(f"/api/games/{table['game']}").get_json()
    assert doc["event"] == {"id": body["id"], "round": 0, "table": 1}
    saved = play(client, table, BIG_3000)  # the save's answer is the same document
    assert saved["event"] == {"id": body["id"], "round": 0, "table": 1}
    play(client, body["tables"][0], BIG_3000)
    second = client.post(f"/api/events/{body['id']}/rounds", json={}, headers=director(body)).get_json()
    later = next(t for t in second["tables"] if t["table"] == 0)
    assert client.get(f"/api/games/{later['game']}").get_json()["event"] == {"id": body["id"], "round": 1, "table": 0}
    # The exported file names it too; restored, the copy is a game of its own, of no event.
    exported = client.get(f"/games/{table['game']}/export.json").get_json()
    assert exported["event"] == {"id": body["id"], "round": 0, "table": 1}
    restored = client.post("/api/games", json=exported)
    assert restored.status_code == 201, restored.get_json()
    assert "event" not in restored.get_json()
    # A game of no event has no such member.
    plain = client.post("/api/games", json=game_document()).get_json()
    assert "event" not in client.get(f"/api/games/{plain['id']}").get_json()


# --- 5. The table's scoresheet shows its event, round, table and clock -----------------------------------------


def round_start(app, event_id: str, round: int = 0) -> datetime:
    with app.app_context():
        started = db.session.get(EventRoundRecord, (event_id, round)).started_at
    return started if started.tzinfo else started.replace(tzinfo=UTC)


def move_the_clock(app, event_id: str, minutes: int) -> None:
    """The round started `minutes` earlier than it did: the clock moved on, no waiting."""
    with app.app_context():
        held = db.session.get(EventRoundRecord, (event_id, 0))
        held.started_at = round_start(app, event_id) - timedelta(minutes=minutes)
        db.session.commit()


def shows_the_table_and_its_clock(app, phone, event_id: str, page) -> str:
    """`page` (a 45-minute round's table 2, round 1) names the event, round and table and when the round ends, and
    asks for the minutes left, as the wall does: 45 at the start. The clock's address."""
    ends = round_start(app, event_id) + timedelta(minutes=45)
    shown = text(page)
    assert "Tuesday club night · round 1 · table 2" in shown
    assert f"The round ends at {ends:%H:%M} UTC." in shown
    clock = f"/events/games/{page.request.path.split('/')[2]}/clock"  # /games/<game>/...
    assert f'hx-get="{clock}"' in page.get_data(as_text=True)
    assert "45 min left in round 1" in text(phone.get(clock))
    return clock


def test_a_tables_scoresheet_shows_its_event_round_table_and_clock(app, client):
    event_id = new_event_on_the_page(client, round_minutes="45")
    game = table_game(client, event_id, 0, 1)
    clock = shows_the_table_and_its_clock(app, client, event_id, client.get(f"/games/{game}"))
    move_the_clock(app, event_id, 30)  # 15 minutes left
    assert "15 min left in round 1" in text(client.get(clock))
    # A game of no event shows none of it.
    plain = client.post("/api/games", json=game_document()).get_json()
    assert "round 1" not in text(client.get(f"/games/{plain['id']}"))


def test_a_tables_scoreboard_shows_the_watchers_its_event_round_table_and_clock(app, client):
    """The players and anyone else at the table watch its scoreboard: it names the event, round and table as the
    scorekeeper's sheet does, and asks for the minutes left in the round."""
    event_id = new_event_on_the_page(client, round_minutes="45")
    game = table_game(client, event_id, 0, 1)
    watcher = app.test_client()  # another phone: no right to the game
    shows_the_table_and_its_clock(app, watcher, event_id, watcher.get(f"/games/{game}/scoreboard"))
    plain = client.post("/api/games", json=game_document()).get_json()
    assert "round 1" not in text(watcher.get(f"/games/{plain['id']}/scoreboard"))


def test_a_tables_scoreboard_that_follows_a_rematch_drops_the_tables_line_and_clock(app, client):
    """A finished table's scorekeeper may start a rematch, played at no table of the night: the scoreboard that
    follows it must not go on naming the round and asking the old game's clock."""
    event_id = new_event_on_the_page(client, round_minutes="45", hands_per_game="1")
    game = table_game(client, event_id, 0, 0)
    watcher = app.test_client()
    page = watcher.get(f"/games/{game}/scoreboard").get_data(as_text=True)
    # The line and its clock are in the heading, which the rematch's heading replaces (out of band).
    heading = page.split('<div id="scoreboard-heading"', 1)[1].split('class="js-only share-line"', 1)[0]
    assert "round 1 · table 1" in heading and f"/events/games/{game}/clock" in heading
    assert client.post(f"/games/{game}/hands", data=FORM_HAND).status_code == 303  # its one hand: finished
    with app.app_context():
        revision = version(game)
    started = client.post(f"/games/{game}/rematch")
    assert started.status_code == 303, text(started)
    followed = watcher.get(
        f"/games/{game}/scoreboard/live", headers={"HX-Request": "true", "If-None-Match": f'W/"{revision}"'}
    )
    assert followed.status_code == 200 and "HX-Replace-Url" in followed.headers
    heading = followed.get_data(as_text=True).split('<div id="scoreboard-heading"', 1)[1]
    assert "Rematch started" in heading
    assert "round 1" not in heading and "/clock" not in heading


def test_a_tables_scoresheet_costs_no_statement_more(app, client):
    """As tests/test_service.py holds a game of no event to: the sheet that follows a save reads its game once, and
    sends at most two statements (that read, and who holds the handover link)."""
    from tests.test_service import statements

    event_id = new_event_on_the_page(client, round_minutes="45")
    game = table_game(client, event_id, 0, 0)
    assert client.post(f"/games/{game}/hands", data=FORM_HAND).status_code == 303
    with statements(app) as sent:
        page = client.get(f"/games/{game}")
    assert "Tuesday club night · round 1 · table 1" in text(page)
    reads_of_the_game = [statement for statement in sent if re.search(r"\bFROM games\b", statement)]
    assert len(reads_of_the_game) == 1 and len(sent) <= 2, sent
    with statements(app) as sent:  # and seen again, unchanged: glanced at, then read once
        again = client.get(f"/games/{game}")
    assert "Tuesday club night · round 1 · table 1" in text(again)
    assert len([statement for statement in sent if re.search(r"\bFROM games\b", statement)]) <= 2, sent


# --- 6. The next hand after the time is up is the last ---------------------------------------------------------


def test_the_hand_saved_after_the_time_is_up_is_the_tables_last(app, client):
    event_id = new_event_on_the_page(client, round_minutes="45")
    game, other = table_game(client, event_id, 0, 0), table_game(client, event_id, 0, 1)
    clock = f"/events/games/{game}/clock"
    assert client.post(f"/games/{game}/hands", data=FORM_HAND).status_code == 303  # in time: 1,585 – 440
    move_the_clock(app, event_id, 46)  # the 45 minutes are up
    assert "Time is up: this is the last hand." in text(client.get(clock))
    # The sheet asks for its clock line afresh each time it is shown, and every minute while it is open.
    assert f'hx-get="{clock}"' in client.get(f"/games/{game}").get_data(as_text=True)
    # Hand 2 (1,585 – 440 again: 3,170 – 880, which reaches 3,000 anyway) would end it by the target; the hand saved
    # here is one that does not: Roses natural 500 + Count 100 = 600, Lilies mixed 300 + Count 50 = 350.
    small = hand_form({"natural_canastas": 1, "count": 100}, {"mixed_canastas": 1, "count": 50})
    assert client.post(f"/games/{game}/hands", data=small).status_code == 303
    doc = client.get(f"/api/games/{game}").get_json()
    # 1,585 + 600 = 2,185 against 440 + 350 = 790: short of 3,000, but the game is over after this hand.
    assert doc["totals"] == [2185, 790]
    assert doc["status"] == "finished" and doc["winner"] == 0
    assert len(doc["hands"]) == 2
    refused = client.post(f"/games/{game}/hands", data=small, follow_redirects=True)
    assert "This game is over: no more hands can be added." in text(refused)
    assert len(client.get(f"/api/games/{game}").get_json()["hands"]) == 2
    event = client.get(f"/api/events/{event_id}").get_json()
    first = event["round_results"][0]["tables"][0]
    assert first["status"] == "finished" and first["points"] == [2185, 790]
    # The other table, no hand saved yet: its first hand after the time is its last too (3,000 – 0 ends it anyway:
    # a game ended by its target stays as it is).
    assert client.post(f"/games/{other}/hands", data=BIG).status_code == 303
    assert client.get(f"/api/games/{other}").get_json()["status"] == "finished"


def test_through_the_api_the_hand_after_the_time_is_up_ends_the_game_in_its_answer(app, client):
    body = create(client, event_document(4, 1, round_minutes=30))
    table = body["tables"][0]
    move_the_clock(app, body["id"], 31)
    # HAND: 1,585 – 440, short of 3,000, and the game is over: side 0 wins.
    saved = play(client, table, HAND)
    assert saved["status"] == "finished" and saved["winner"] == 0 and saved["totals"] == [1585, 440]
    headers = {"Authorization": f"Bearer {table['edit_token']}"}
    assert client.post(f"/api/games/{table['game']}/hands", json=HAND, headers=headers).status_code == 409
