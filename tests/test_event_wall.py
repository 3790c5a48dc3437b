"""The wall screen's answer, made once per revision of the event and language and shared by every wall
(docs/events.md, "The wall screen"); its unchanged poll answered 304 before Flask in one statement; two servers on
one database never answer from what they kept of an older revision; and the standings read from the games' kept
figures (event_store.load_standings) equal to those worked out from the games themselves."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from scorepad import event_store, events_web, web
from scorepad.models import GameRecord, db
from tests.conftest import shown_text, statements
from tests.test_events_api import BIG_3000, BIG_3000_SIDE_1, TIE, create, director, event_document, play

HX = {"HX-Request": "true"}
SPANISH = {**HX, "Accept-Language": "es"}
# Roses (side 0) go out with a natural and a mixed canasta (500 + 300 + 100) and count 200: 1,100; Tulips have a
# natural and a mixed canasta (500 + 300) and count 100: 900. Roses win the hand by 200.
ROSES_AHEAD = {
    "sides": [
        {"natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 200},
        {"natural_canastas": 1, "mixed_canastas": 1, "count": 100},
    ]
}


def live(event_id: str) -> str:
    return f"/events/{event_id}/live"


def test_the_walls_answer_is_made_again_after_a_save_and_kept_until_the_next(client):
    body = create(client, event_document(2, 1, movement="round_robin"))
    first = client.get(live(body["id"]), headers=HX)
    assert first.status_code == 200 and "900 – 900" not in shown_text(first)
    assert "Roses v Tulips 0 not started 0 – 0" in shown_text(first)  # no hand yet: nothing provisional
    play(client, body["tables"][0], TIE)  # Roses and Tulips: 900 each (500 + 300 + 100 and 500 + 300 + 100)
    changed = client.get(live(body["id"]), headers={**HX, "If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]
    assert "Roses v Tulips 1 provisional 900 – 900" in shown_text(changed)
    # A second wall at the same revision gets the same answer, and the first wall's next poll a 304.
    other = client.get(live(body["id"]), headers=HX)
    assert other.get_data() == changed.get_data() and other.headers["ETag"] == changed.headers["ETag"]
    assert client.get(live(body["id"]), headers={**HX, "If-None-Match": changed.headers["ETag"]}).status_code == 304


def test_a_spanish_wall_gets_the_spanish_answer_and_an_english_one_the_english(client):
    body = create(client, event_document(2, 1, movement="round_robin"))
    play(client, body["tables"][0], TIE)
    spanish = client.get(live(body["id"]), headers=SPANISH)
    english = client.get(live(body["id"]), headers=HX)
    assert "provisoria" in spanish.get_data(as_text=True) and "Puesto" in spanish.get_data(as_text=True)
    assert "provisional" in english.get_data(as_text=True) and "Rank" in english.get_data(as_text=True)
    assert "provisoria" not in english.get_data(as_text=True)
    # The Spanish tag is no 304 for an English wall, nor the English one for a Spanish wall.
    assert spanish.headers["ETag"] != english.headers["ETag"]
    assert client.get(live(body["id"]), headers={**HX, "If-None-Match": spanish.headers["ETag"]}).status_code == 200
    asked = {**SPANISH, "If-None-Match": english.headers["ETag"]}
    assert client.get(live(body["id"]), headers=asked).status_code == 200
    # The language chosen on the phone (its cookie) counts before the phone's own, here as in the app.
    client.set_cookie("lang", "es")
    chosen = client.get(live(body["id"]), headers={**HX, "If-None-Match": spanish.headers["ETag"]})
    assert chosen.status_code == 304


@pytest.mark.parametrize(
    ("cookie", "accept", "language"),
    [
        (None, None, "en"),
        (None, "es-AR,es;q=0.9", "es"),
        (None, "pt-PT", "pt_BR"),
        (None, "fr, it;q=0.5", "it"),
        (None, "es;q=0, en", "en"),
        ("it", "es", "it"),
        ("xx", "pt-BR", "pt_BR"),
    ],
)
def test_the_walls_language_before_flask_is_the_apps(app, cookie, accept, language):
    environ: dict = {"PATH_INFO": "/events/x/live"}
    if cookie:
        environ["HTTP_COOKIE"] = f"lang={cookie}"
    if accept:
        environ["HTTP_ACCEPT_LANGUAGE"] = accept
    assert web.language_of_environ(environ) == language
    headers = {"Accept-Language": accept} if accept else {}
    if cookie:
        headers["Cookie"] = environ["HTTP_COOKIE"]
    with app.test_request_context("/events/x/live", headers=headers):
        assert web.pick_language() == language


def test_an_unchanged_wall_poll_is_answered_before_flask_in_one_statement(app, client):
    hooked: list[str] = []
    app.before_request(lambda: hooked.append("flask"))
    body = create(client, event_document(4, 2))
    tag = client.get(live(body["id"]), headers=HX).headers["ETag"]
    assert hooked
    hooked.clear()
    with statements(app) as seen:
        answer = client.get(live(body["id"]), headers={**HX, "If-None-Match": tag})
    assert answer.status_code == 304 and answer.headers["ETag"] == tag
    assert not hooked, "the 304 went through Flask"
    assert len(seen) == 1, seen


def test_a_changed_wall_poll_reads_the_events_glance_once(app, client):
    """The gate before Flask reads the glance (revision, clock, lists' lengths) to compare tags; when they differ,
    the wall's view makes its answer from that same glance instead of asking the database again."""
    body = create(client, event_document(4, 2))
    tag = client.get(live(body["id"]), headers=HX).headers["ETag"]
    play(client, body["tables"][0], TIE)
    with statements(app) as seen:
        changed = client.get(live(body["id"]), headers={**HX, "If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert len([sql for sql in seen if "count(*)" in sql and "event_rounds.started_at" in sql]) == 1, seen


def test_the_walls_glance_reads_the_event_document_once_per_version(app, client):
    """The pairs and the round's minutes come from the event's document, read once per version of the event in this
    process: a poll after a save at a table reads the glance alone; a late pair (a new version, a new document)
    reads the document again, and the wall has one pair more: 5 pairs, then 6."""
    body = create(client, event_document(5, 2))
    client.get(live(body["id"]), headers=HX)
    play(client, body["tables"][0], TIE)
    with app.app_context():
        with statements(app) as seen:
            glance = event_store.wall_glance(body["id"])
        assert glance is not None and glance.pairs == 5 and glance.tables == 2  # 5 pairs: 2 tables, one sits out
        assert not [sql for sql in seen if "events.document" in sql], seen
    late = {"name": "Violets", "players": ["Ivy", "Joy"]}
    assert client.post(f"/api/events/{body['id']}/pairs", json=late, headers=director(body)).status_code == 201
    with app.app_context():
        with statements(app) as seen:
            glance = event_store.wall_glance(body["id"])
        assert glance is not None and glance.pairs == 6 and glance.tables == 2  # joins from the next round
        assert len([sql for sql in seen if "events.document" in sql]) == 1, seen


def test_two_servers_on_one_database_never_answer_an_older_revision(client, make_app):
    other = make_app(RATELIMIT_ENABLED=False, AUTO_CREATE_SCHEMA=False).test_client()  # a second app server
    body = create(client, event_document(2, 1, movement="round_robin"))
    before = other.get(live(body["id"]), headers=HX)  # the other server keeps its answer at this revision
    assert "900 – 900" not in shown_text(before)
    play(client, body["tables"][0], TIE)  # saved through the first server
    after = other.get(live(body["id"]), headers={**HX, "If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and "900 – 900" in shown_text(after)
    assert after.headers["ETag"] == client.get(live(body["id"]), headers=HX).headers["ETag"]


def test_the_standings_from_kept_figures_are_those_of_the_games_whatever_is_kept(app, client):
    body = create(client, event_document(4, 1))
    play(client, body["tables"][0], ROSES_AHEAD)
    play(client, body["tables"][1], TIE)
    from_games = client.get(f"/api/events/{body['id']}").get_json()
    table_zero = from_games["round_results"][0]["tables"][0]
    assert table_zero["points"] == [1100, 900] and table_zero["hands"] == 1
    with app.app_context():  # figures no longer kept for table 1's game (as for a game stored before they were)
        db.session.execute(db.update(GameRecord).where(GameRecord.id == body["tables"][0]["game"]).values(figures=None))
        db.session.commit()
        held = event_store.load_standings(body["id"])
        full = event_store.load_event(body["id"])
        assert held.results() == full.results()
        assert held.revision == full.revision == event_store.event_revision(body["id"])
        assert held.document() == full.document()
    assert client.get(f"/api/events/{body['id']}").get_json() == from_games


def test_the_standings_of_a_deleted_tables_game_count_nothing_as_before(app, client):
    body = create(client, event_document(4, 1))
    play(client, body["tables"][0], ROSES_AHEAD)
    with app.app_context():
        db.session.execute(db.delete(GameRecord).where(GameRecord.id == body["tables"][0]["game"]))
        db.session.commit()
        held = event_store.load_standings(body["id"])
        table = held.results()[0].tables[0]
        assert table.game is None and table.finished and table.points == (0, 0)
        assert held.document()["standings"] == event_store.load_event(body["id"]).document()["standings"]


def test_the_walls_poll_answers_its_board_whoever_asks_and_its_304_keeps_the_200s_headers(client):
    """The poll's address answers the board alone, as the scoreboard's live fragment does: one answer per tag, so a
    tag is never a 304 for a different body; the whole wall is the wall's own address. The 304 says what the 200
    says of how it may be kept (a browser replaces the kept answer's headers with the 304's)."""
    body = create(client, event_document(2, 1, movement="round_robin"))
    play(client, body["tables"][0], TIE)
    board = client.get(live(body["id"]), headers=HX)
    page = client.get(f"/events/{body['id']}")
    assert "<html" not in board.get_data(as_text=True) and "<html" in page.get_data(as_text=True)
    plain = client.get(live(body["id"]))  # no htmx: the same board
    assert plain.get_data() == board.get_data() and plain.headers["ETag"] == board.headers["ETag"]
    again = client.get(live(body["id"]), headers={**HX, "If-None-Match": board.headers["ETag"]})
    assert again.status_code == 304
    assert again.headers["Cache-Control"] == board.headers["Cache-Control"]
    assert set(again.headers["Vary"].split(", ")) == set(board.headers["Vary"].split(", "))


def test_two_changes_of_an_event_at_once_each_raise_its_revision(app, client):
    """Two phones changing the same event at the same moment (a table confirmed, a late pair added): each change
    raises its version, so a revision is never the tag of two different events (a wall, the API's document and the
    results are kept per version). Both read the event before either wrote."""
    body = create(client, event_document(2, 1, movement="round_robin"))
    with app.app_context():
        start = db.session.get(event_store.EventRecord, body["id"]).version
        first = event_store.load_event(body["id"], games=False)
        with app.app_context():  # another request, its own session
            second = event_store.load_event(body["id"], games=False)
            event_store._touch(second.record)
            db.session.commit()
        event_store._touch(first.record)
        db.session.commit()
        assert db.session.get(event_store.EventRecord, body["id"]).version == start + 2


# BIG_3000 (tests/test_events_api.py): side 0 sevens 2500 + natural 500 = 3000, side 1 nothing; after a TIE (900 – 900)
# a table stands at 3900 – 900, over the target of 3000: finished.


def test_the_standings_one_server_keeps_follow_every_change_made_through_another(app, client, make_app):
    """Server B keeps what it read of the event (event_store.load_standings) and reads again only what moved; every
    change made through server A (a save, a confirmation, a correction, a new round) shows in B's next answer, equal
    to the event read afresh with its games loaded and scored."""
    other = make_app(RATELIMIT_ENABLED=False, AUTO_CREATE_SCHEMA=False).test_client()
    body = create(client, event_document(4, 2))
    url = f"/api/events/{body['id']}"

    def kept_and_fresh() -> dict:
        kept = other.get(url).get_json()
        with app.app_context():
            assert kept == event_store.load_event(body["id"]).document()
        return kept

    assert kept_and_fresh()["round_results"][0]["tables"][0]["points"] == [0, 0]
    play(client, body["tables"][0], TIE)
    assert kept_and_fresh()["round_results"][0]["tables"][0]["points"] == [900, 900]
    play(client, body["tables"][0], BIG_3000)
    play(client, body["tables"][1], BIG_3000)
    tables = kept_and_fresh()["round_results"][0]["tables"]
    assert [t["points"] for t in tables] == [[3900, 900], [3000, 0]]
    assert [t["status"] for t in tables] == ["finished", "finished"]
    confirm = client.post(f"{url}/rounds/0/tables/0/confirm", json={}, headers=director(body))
    assert confirm.status_code == 200
    assert kept_and_fresh()["round_results"][0]["tables"][0]["confirmed"] is True
    # The director corrects hand 1 of table 0: the 3,000 was side 1's, so 900 + 0 – 900 + 3000 = 900 – 3900, still
    # finished, no longer confirmed.
    corrected = client.put(f"{url}/rounds/0/tables/0/hands/1", json=BIG_3000_SIDE_1, headers=director(body))
    assert corrected.status_code == 200
    table = kept_and_fresh()["round_results"][0]["tables"][0]
    assert table["points"] == [900, 3900] and table["confirmed"] is False
    assert client.post(f"{url}/rounds", json={}, headers=director(body)).status_code == 201
    assert len(kept_and_fresh()["round_results"]) == 2


def test_a_kept_event_is_checked_in_one_statement_and_only_the_games_that_moved_are_read_again(app, client):
    body = create(client, event_document(4, 1))
    with app.app_context():
        event_store.load_standings(body["id"])  # read afresh, and kept
    with statements(app) as seen, app.app_context():
        held = event_store.load_standings(body["id"])
    assert len(seen) == 1, seen  # the event's version and each table's game's: nothing moved
    assert held.revision == 1 + 2  # the event at version 1, each of its two games at 1 (made with no hand)
    play(client, body["tables"][1], ROSES_AHEAD)
    with statements(app) as seen, app.app_context():
        held = event_store.load_standings(body["id"])
    assert len(seen) == 2, seen  # and the one game that moved
    assert held.results()[0].tables[1].points == (1100, 900)
    with app.app_context():  # table 0's game deleted: it counts nothing, as when read afresh
        db.session.execute(db.delete(GameRecord).where(GameRecord.id == body["tables"][0]["game"]))
        db.session.commit()
        held = event_store.load_standings(body["id"])
        assert held.results()[0].tables[0].game is None
        assert held.results() == event_store.load_event(body["id"]).results()


# --- A wall of many pairs turns its pages ------------------------------------------------------------------------


def test_the_wall_turns_a_page_of_each_list_every_ten_seconds_and_a_single_page_never():
    # 25 pairs fill three pages of ten standings (1-10, 11-20, 21-25); 12 tables two pages of ten (1-10, 11-12).
    glance = event_store.WallGlance(revision=1, ends=None, pairs=25, tables=12)
    assert events_web.wall_pages(glance, 10, now=0) == (0, 0)
    assert events_web.wall_pages(glance, 10, now=9.9) == (0, 0)
    assert events_web.wall_pages(glance, 10, now=10) == (1, 1)
    assert events_web.wall_pages(glance, 10, now=20) == (2, 0)  # the third turn: standings 21-25, tables 1-10
    assert events_web.wall_pages(glance, 10, now=30) == (0, 1)
    # Ten pairs and five tables: one page each, the same at any time.
    small = event_store.WallGlance(revision=1, ends=None, pairs=10, tables=5)
    assert {events_web.wall_pages(small, 10, now=t) for t in range(0, 100, 5)} == {(0, 0)}


def many_pairs(count: int) -> dict:
    doc = event_document(2, 1)
    doc["pairs"] = [{"name": f"Pair {n + 1}", "players": [f"Ann {n + 1}", f"Bea {n + 1}"]} for n in range(count)]
    return doc


def at(monkeypatch, seconds: float) -> None:
    """The server's clock, as the wall's pages read it, at `seconds` since the epoch."""
    monkeypatch.setattr(events_web, "time", SimpleNamespace(time=lambda: seconds))


def test_a_wall_of_25_pairs_shows_ten_at_a_time_turning_and_its_304_holds_while_the_page_stays(client, monkeypatch):
    # A Mitchell of 25 pairs has 13 tables; East-West pair 26 is missing, so in round 1 table 13 (which it would
    # face: 14 + 12) plays no game and Pair 13 sits out: 12 tables play, two pages (tables 1-10, 11-12).
    body = create(client, many_pairs(25))
    at(monkeypatch, 600_000)  # a multiple of 60 s (3 pages by 2): the first page of each list
    first = client.get(live(body["id"]), headers=HX)
    said = shown_text(first)
    assert "Standings 1–10 of 25" in said and "Tables 1–10 of 13" in said
    # Nobody has played: every pair ties at rank 1, in the order they registered.
    assert re.findall(r'class="pair-name">([^<]+)<', first.get_data(as_text=True)) == [
        f"Pair {n}" for n in range(1, 11)
    ]
    assert 'id="table-10"' in first.get_data(as_text=True) and 'id="table-11"' not in first.get_data(as_text=True)
    at(monkeypatch, 600_009)  # the same page 9 s later: nothing changed
    assert client.get(live(body["id"]), headers={**HX, "If-None-Match": first.headers["ETag"]}).status_code == 304
    at(monkeypatch, 600_010)  # turned
    second = client.get(live(body["id"]), headers={**HX, "If-None-Match": first.headers["ETag"]})
    assert second.status_code == 200 and second.headers["ETag"] != first.headers["ETag"]
    said = shown_text(second)
    assert "Standings 11–20 of 25" in said and "Tables 11–12 of 13" in said
    assert re.findall(r'class="pair-name">([^<]+)<', second.get_data(as_text=True)) == [
        f"Pair {n}" for n in range(11, 21)
    ]
    assert 'id="table-11"' in second.get_data(as_text=True) and 'id="table-1"' not in second.get_data(as_text=True)
    at(monkeypatch, 600_020)
    third = shown_text(client.get(live(body["id"]), headers=HX))
    assert "Standings 21–25 of 25" in third and "Tables 1–10 of 13" in third
    # The whole wall (its first load) shows the page of the moment too, and the director's page every row.
    assert "Standings 21–25 of 25" in shown_text(client.get(f"/events/{body['id']}"))
    director_page = shown_text(client.get(f"/events/{body['id']}/director"))
    assert "of 25" not in director_page and "of 12" not in director_page
    assert all(f"Pair {n} " in director_page for n in range(1, 26))


def test_a_walls_page_of_tables_names_the_tables_it_shows_when_an_empty_one_is_not_the_last(client, monkeypatch):
    """Round 2 of a Mitchell of 25 pairs (13 tables): table t (1-based) seats East-West pair 14 + ((t - 2) mod 13),
    so the missing pair 26 (14 + 12) would be at table 1, which plays no game; tables 2 to 13 play. The wall's
    pages of tables name the tables they show, not the rows: 2-11, then 12-13."""
    body = create(client, {**many_pairs(25), "rounds": 2})
    closed = client.post(f"/api/events/{body['id']}/rounds", json={"close": True}, headers=director(body))
    assert closed.status_code == 201, closed.get_json()  # round 2 started, round 1 closed
    at(monkeypatch, 600_000)
    first = client.get(live(body["id"]), headers=HX)
    assert "Tables 2–11 of 13" in shown_text(first) and 'id="table-1"' not in first.get_data(as_text=True)
    assert "Pair 1 sits out this round." in shown_text(first)  # North-South pair 1 faces nobody
    at(monkeypatch, 600_010)
    assert "Tables 12–13 of 13" in shown_text(client.get(live(body["id"]), headers=HX))


def test_a_wall_of_one_page_keeps_its_tag_as_time_goes_by(client, monkeypatch):
    body = create(client, event_document(4, 2))
    at(monkeypatch, 600_000)
    first = client.get(live(body["id"]), headers=HX)
    assert "Standings 1–" not in shown_text(first)  # the whole list: no page to name
    at(monkeypatch, 600_035)
    assert client.get(live(body["id"]), headers={**HX, "If-None-Match": first.headers["ETag"]}).status_code == 304


def test_the_standings_are_ranked_again_only_when_a_table_finishes_or_a_finished_one_changes(client, monkeypatch):
    """A night's wall is asked again after every hand saved anywhere, and only finished tables count in the
    standings: a hand at a table still playing ranks nobody again; the hand that finishes a table does, and the
    wall shows it. Roses (table 1, side 0) tie 900 to 900 with Lilies, then win 3,900 to 900 (BIG_3000)."""
    ranked: list[int] = []
    standings = event_store.events.standings
    monkeypatch.setattr(event_store.events, "standings", lambda *args: ranked.append(1) or standings(*args))
    body = create(client, event_document(4, 1))
    client.get(live(body["id"]), headers=HX)
    assert len(ranked) == 1
    play(client, body["tables"][0], TIE)  # 900 - 900 at table 1: still playing
    assert "900 – 900" in shown_text(client.get(live(body["id"]), headers=HX))
    assert len(ranked) == 1  # nothing finished: the standings as they were
    play(client, body["tables"][0], BIG_3000)  # 3,900 - 900: over 3,000, finished
    finished = shown_text(client.get(live(body["id"]), headers=HX))
    assert len(ranked) == 2 and "3,900 – 900" in finished
    assert re.search(r"1 Roses 2 3,000 1 ", finished), finished  # rank 1, 2 match points, +3,000, 1 played
