"""Sending less and paying once per change: compression, static files kept for good, ETags from the game's
revision, and a game's figures kept with it until its next change."""

from __future__ import annotations

import gzip

import brotli
import pytest

from scorepad import document, rules
from scorepad.delivery import squeezed
from scorepad.models import GameRecord, db

from .conftest import game_document

# Hands of a modern game whose figures are worked out by hand (docs/rules.md §3):
# Us: two natural canastas 1,000 + going out 100 = Base 1,100, Count 200: 1,300.
# Them: one mixed canasta 300, Count 50: 350.
FIRST = {"sides": [{"natural_canastas": 2, "went_out": True, "count": 200}, {"mixed_canastas": 1, "count": 50}]}
# Us: one mixed canasta 300, Count 95: 395.
# Them: one red 3 with two canastas +100, natural 500 + mixed 300, going out 100 = Base 1,000, Count 120: 1,120.
SECOND = {
    "sides": [
        {"mixed_canastas": 1, "count": 95},
        {"red_threes": 1, "natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 120},
    ]
}
# FIRST with a Count of 300 for Us: 1,100 + 300 = 1,400.
FIRST_CORRECTED = {
    "sides": [{"natural_canastas": 2, "went_out": True, "count": 300}, {"mixed_canastas": 1, "count": 50}]
}


@pytest.fixture
def api_game(client):
    """A modern game made through the API: (id, auth headers)."""
    body = client.post("/api/games", json=game_document()).get_json()
    return body["id"], {"Authorization": f"Bearer {body['edit_token']}"}


@pytest.fixture
def scorings(monkeypatch):
    """How many times the whole game is scored (rules.score_game) from here on."""
    calls = []
    real = rules.score_game

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(rules, "score_game", counting)
    return calls


def _totals_row(doc: dict) -> list:
    return [[side["result"]["total"] for side in hand["sides"]] for hand in doc["hands"]]


# --- Compression -----------------------------------------------------------------------------------


def test_pages_and_json_are_compressed_with_brotli_or_gzip(client, api_game):
    game_id, _ = api_game
    plain = client.get(f"/api/games/{game_id}")
    assert "Content-Encoding" not in plain.headers  # a client that takes no compression gets none

    br = client.get(f"/api/games/{game_id}", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert br.headers["Content-Encoding"] == "br"
    assert brotli.decompress(br.data) == plain.data
    assert "Accept-Encoding" in br.headers["Vary"]

    page = client.get(f"/games/{game_id}/rules", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    assert b"</html>" in gzip.decompress(page.data)


def test_static_files_are_precompressed_and_kept_for_good_at_their_hashed_address(app, client):
    version = app.config["STATIC_VERSIONS"]["js/htmx-2.0.11.min.js"]
    url = f"/static/js/htmx-2.0.11.min.js?v={version}"
    plain = client.get(url, buffered=True)
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    cache = plain.headers["Cache-Control"]
    assert "immutable" in cache and "max-age=315360000" in cache

    br = client.get(url, headers={"Accept-Encoding": "br, gzip"}, buffered=True)
    assert br.headers["Content-Encoding"] == "br"
    assert brotli.decompress(br.data) == plain.data
    assert len(br.data) < len(plain.data) / 3
    gz = client.get(url, headers={"Accept-Encoding": "gzip"}, buffered=True)
    assert gz.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(gz.data) == plain.data


def test_a_static_file_without_its_current_hash_is_checked_again_each_time(app, client):
    for url in ("/static/css/scorepad.css", "/static/css/scorepad.css?v=0ld0ld0ld0ld"):
        response = client.get(url, buffered=True)
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "no-cache"
        assert "immutable" not in response.headers["Cache-Control"]


def test_pages_link_static_files_by_their_hash(app, client):
    page = client.get("/").get_data(as_text=True)
    version = app.config["STATIC_VERSIONS"]["css/scorepad.css"]
    assert f"/static/css/scorepad.css?v={version}" in page


def test_the_service_worker_is_never_kept_for_good(client):
    response = client.get("/sw.js", headers={"Accept-Encoding": "br"})
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["Content-Encoding"] == "br"
    assert b"addEventListener" in brotli.decompress(response.data)


# --- ETags from the game's revision ------------------------------------------------------------------


def test_an_unchanged_game_page_is_answered_304_without_scoring(client, scorings):
    game_id = client.post("/api/games", json=game_document(hands=[FIRST])).get_json()["id"]
    first = client.get(f"/games/{game_id}")
    assert first.status_code == 200
    tag = first.headers["ETag"]
    assert tag.startswith('W/"')
    assert {"Cookie", "HX-Request"} <= set(first.headers["Vary"].replace(" ", "").split(","))

    scorings.clear()
    again = client.get(f"/games/{game_id}", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == tag
    assert scorings == []

    # The fragment htmx asks for is another answer: another tag.
    fragment = client.get(f"/games/{game_id}", headers={"HX-Request": "true", "HX-Target": "scoresheet"})
    assert fragment.headers["ETag"] != tag


def test_the_game_page_tag_follows_the_game(client, api_game):
    game_id, headers = api_game
    tag = client.get(f"/games/{game_id}").headers["ETag"]
    assert client.post(f"/api/games/{game_id}/hands", json=FIRST, headers=headers).status_code == 201

    changed = client.get(f"/games/{game_id}", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert "1,300" in changed.get_data(as_text=True)


def test_json_get_carries_the_revision_and_answers_304(client, api_game, scorings):
    game_id, headers = api_game
    first = client.get(f"/api/games/{game_id}")
    revision = first.get_json()["revision"]
    assert first.headers["ETag"] == f'"{revision}"'

    scorings.clear()
    for tag in (f'"{revision}"', f'"{revision}:br"', f'"{revision}:gzip"', f'W/"{revision}"'):
        again = client.get(f"/api/games/{game_id}", headers={"If-None-Match": tag})
        assert again.status_code == 304, tag
    assert scorings == []

    compressed = client.get(f"/api/games/{game_id}", headers={"Accept-Encoding": "br"})
    assert compressed.headers["ETag"] == f'"{revision}:br"'
    again = client.get(
        f"/api/games/{game_id}", headers={"Accept-Encoding": "br", "If-None-Match": compressed.headers["ETag"]}
    )
    assert again.status_code == 304

    client.post(f"/api/games/{game_id}/hands", json=FIRST, headers=headers)
    changed = client.get(f"/api/games/{game_id}", headers={"If-None-Match": f'"{revision}"'})
    assert changed.status_code == 200
    assert changed.get_json()["totals"] == [1300, 350]


# --- Figures kept until the next change --------------------------------------------------------------


def test_a_games_figures_are_reused_until_it_changes(client, api_game, scorings):
    game_id, headers = api_game
    scorings.clear()
    # A new hand is scored alone, from the totals before it: the whole game is not scored again.
    assert client.post(f"/api/games/{game_id}/hands", json=FIRST, headers=headers).status_code == 201
    added = client.post(f"/api/games/{game_id}/hands", json=SECOND, headers={**headers, "Idempotency-Key": "k"})
    assert added.status_code == 201
    assert scorings == []

    for _ in range(3):
        doc = client.get(f"/api/games/{game_id}").get_json()
        assert client.get(f"/games/{game_id}").status_code == 200
        assert client.get(f"/games/{game_id}/export.csv").status_code == 200
    assert scorings == []
    assert _totals_row(doc) == [[1300, 350], [395, 1120]]
    assert doc["totals"] == [1695, 1470]  # 1,300 + 395; 350 + 1,120
    assert doc["min_count"] == [125, 125]  # both below 3,000
    assert [hand["dealer"] for hand in doc["hands"]] == [0, 1]
    assert doc["next_dealer"] == 2
    assert added.get_json() == doc

    # A corrected hand: the game is scored once, and every later figure follows.
    corrected = client.put(f"/api/games/{game_id}/hands/0", json=FIRST_CORRECTED, headers=headers)
    assert corrected.status_code == 200
    assert len(scorings) == 1
    doc = client.get(f"/api/games/{game_id}").get_json()
    assert len(scorings) == 1
    assert _totals_row(doc) == [[1400, 350], [395, 1120]]
    assert doc["totals"] == [1795, 1470]
    assert [[side["result"]["cumulative"] for side in hand["sides"]] for hand in doc["hands"]] == [
        [1400, 350],
        [1795, 1470],
    ]

    # A deleted hand: scored once again; the second hand is now the first, dealt by seat 0.
    assert client.delete(f"/api/games/{game_id}/hands/0", headers=headers).status_code == 200
    assert len(scorings) == 2
    doc = client.get(f"/api/games/{game_id}").get_json()
    assert len(scorings) == 2
    assert doc["totals"] == [395, 1120]
    assert [hand["dealer"] for hand in doc["hands"]] == [0]


def test_a_game_stored_without_figures_is_scored_once_then_reused(client, app, api_game, scorings):
    game_id, headers = api_game
    client.post(f"/api/games/{game_id}/hands", json=FIRST, headers=headers)
    client.post(f"/api/games/{game_id}/hands", json=SECOND, headers=headers)
    with app.app_context():  # as an older Scorepad left it: no figures kept
        record = db.session.get(GameRecord, game_id)
        record.figures = record.figures_version = None
        db.session.commit()
        version = record.version

    scorings.clear()
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [1695, 1470]
    assert len(scorings) == 1
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [1695, 1470]
    assert len(scorings) == 1
    with app.app_context():  # kept without changing the game's revision
        record = db.session.get(GameRecord, game_id)
        assert (record.version, record.figures_version) == (version, version)


def test_figures_kept_by_an_older_format_are_worked_out_again(client, app, api_game, scorings):
    game_id, headers = api_game
    client.post(f"/api/games/{game_id}/hands", json=FIRST, headers=headers)
    with app.app_context():
        record = db.session.get(GameRecord, game_id)
        version = record.version
        table = GameRecord.__table__
        db.session.execute(table.update().where(table.c.id == game_id).values(figures={"format": 0, "totals": [1, 2]}))
        db.session.commit()
    scorings.clear()
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [1300, 350]
    assert len(scorings) == 1
    with app.app_context():
        assert db.session.get(GameRecord, game_id).version == version


def test_the_next_hand_alone_gives_the_same_figures_as_the_whole_game():
    game_rules = rules.make_rules("modern", target=1500)
    table = rules.Table(sides=(rules.Side("Us", ("Ann", "Cy")), rules.Side("Them", ("Bo", "Dot"))), first_dealer=1)
    first, second = document.hand_from_json(FIRST), document.hand_from_json(SECOND)
    one = rules.score_game(game_rules, table, [first], check=False)
    two = rules.score_next_hand(game_rules, table, one, second)
    # 1,695 passes 1,500: Us win after hand 2; seat 1 dealt hand 1, seat 2 hand 2, seat 3 deals next.
    assert two.totals == (1695, 1470) and two.winners == (0,) and two.finished and two.ended_after == 1
    assert [h.dealer for h in two.hands] == [1, 2] and two.next_dealer == 3
    assert two == rules.score_game(game_rules, table, [first, second], check=False)
    assert rules.score_from_json(rules.score_json(two)) == two


def test_if_match_takes_the_etag_as_compression_marks_it(client, api_game):
    game_id, headers = api_game
    client.post(f"/api/games/{game_id}/hands", json=FIRST, headers=headers)
    tag = client.get(f"/api/games/{game_id}", headers={"Accept-Encoding": "br"}).headers["ETag"]
    assert tag.endswith(':br"')
    stale = client.put(f"/api/games/{game_id}/hands/0", json=FIRST_CORRECTED, headers={**headers, "If-Match": '"1:br"'})
    assert stale.status_code == 412
    put = client.put(f"/api/games/{game_id}/hands/0", json=FIRST_CORRECTED, headers={**headers, "If-Match": tag})
    assert put.status_code == 200
    assert put.get_json()["totals"] == [1400, 350]


# --- Answers made once per revision, and the scoreboard's 304 before Flask --------------------------------


@pytest.fixture
def renders(app):
    """The templates rendered from here on (Flask's template_rendered signal)."""
    from flask import template_rendered

    seen: list[str] = []

    def record(sender, template, context, **extra):
        seen.append(template.name)

    template_rendered.connect(record, app)
    yield seen
    template_rendered.disconnect(record, app)


def not_loaded(game_id):
    raise AssertionError("the game was loaded again")


def test_a_second_look_at_an_unchanged_game_page_renders_nothing(client, api_game, renders, monkeypatch):
    game_id, headers = api_game
    assert client.post(f"/api/games/{game_id}/hands", json=FIRST, headers=headers).status_code == 201
    first = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "br"})
    assert first.status_code == 200 and first.headers["Content-Encoding"] == "br"
    assert renders == ["games/show.html"]

    renders.clear()
    with monkeypatch.context() as patched:
        patched.setattr("scorepad.store.load_game", not_loaded)  # nor is the game loaded: its revision is enough
        again = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "br"})
    assert renders == []
    assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"]
    assert "Accept-Encoding" in again.headers["Vary"] and "Cookie" in again.headers["Vary"]
    plain = client.get(f"/games/{game_id}")  # a browser that takes no compression gets the same page, plain
    assert "Content-Encoding" not in plain.headers
    assert plain.data == brotli.decompress(first.data)
    assert renders == []

    # The next hand makes a new page: Us 1,300 + 395 = 1,695.
    assert client.post(f"/api/games/{game_id}/hands", json=SECOND, headers=headers).status_code == 201
    changed = client.get(f"/games/{game_id}")
    assert renders == ["games/show.html"]
    assert "1,695" in changed.get_data(as_text=True)


def test_a_kept_page_is_never_shown_to_a_phone_that_sees_it_another_way(app, client, monkeypatch):
    """The scorekeeper's page (with Enter hand) and a stranger's (read-only) are kept apart."""
    from .test_games import NEW_GAME

    response = client.post("/games", data=NEW_GAME)
    game_id = response.headers["Location"].rsplit("/", 1)[-1]
    keeper = client.get(f"/games/{game_id}").get_data(as_text=True)
    stranger = app.test_client().get(f"/games/{game_id}").get_data(as_text=True)
    assert "Enter hand 1" in keeper
    assert "Enter hand 1" not in stranger and "Us" in stranger
    monkeypatch.setattr("scorepad.store.load_game", not_loaded)  # each kept: this phone's right decides which
    assert "Enter hand 1" in client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Enter hand 1" not in app.test_client().get(f"/games/{game_id}").get_data(as_text=True)


def test_the_json_document_is_made_once_per_revision(client, api_game, monkeypatch):
    game_id, headers = api_game
    assert client.post(f"/api/games/{game_id}/hands", json=FIRST, headers=headers).status_code == 201
    first = client.get(f"/api/games/{game_id}", headers={"Accept-Encoding": "gzip"})
    revision = first.headers["ETag"].strip('"').split(":")[0]
    assert first.headers["ETag"] == f'"{revision}:gzip"'

    monkeypatch.setattr("scorepad.store.load_game", not_loaded)
    again = client.get(f"/api/games/{game_id}", headers={"Accept-Encoding": "gzip"})
    assert again.status_code == 200 and again.data == first.data
    assert json_of(again)["totals"] == [1300, 350]
    monkeypatch.undo()

    assert client.post(f"/api/games/{game_id}/hands", json=SECOND, headers=headers).status_code == 201
    changed = client.get(f"/api/games/{game_id}", headers={"Accept-Encoding": "gzip"})
    assert json_of(changed)["totals"] == [1695, 1470]  # Them: 350 + 1,120


def json_of(response) -> dict:
    import json

    return json.loads(gzip.decompress(response.data))


def test_an_unchanged_poll_is_answered_before_flask(app, client, api_game):
    from flask import request_started

    game_id, headers = api_game
    revision = client.get(f"/api/games/{game_id}").get_json()["revision"]
    started: list[object] = []

    def record(sender, **extra):
        started.append(sender)

    request_started.connect(record, app)
    try:
        unchanged = client.get(f"/games/{game_id}/scoreboard/live", headers={"If-None-Match": f'W/"{revision}"'})
        assert started == []  # no Flask request was built: no session, no hook
        assert unchanged.status_code == 304 and unchanged.data == b""
        assert unchanged.headers["ETag"] == f'W/"{revision}"'
        assert unchanged.headers["Cache-Control"] == "no-cache, private"  # as its 200 says: a 304 replaces it
        assert "default-src 'self'" in unchanged.headers["Content-Security-Policy"]

        assert client.post(f"/api/games/{game_id}/hands", json=FIRST, headers=headers).status_code == 201
        started.clear()
        changed = client.get(f"/games/{game_id}/scoreboard/live", headers={"If-None-Match": f'W/"{revision}"'})
        assert changed.status_code == 200 and "1,300" in changed.get_data(as_text=True)
        assert len(started) == 1  # the app made the new figures
        assert changed.headers["ETag"] == f'W/"{revision + 1}"'
    finally:
        request_started.disconnect(record, app)
    assert client.get("/games/nope/scoreboard/live", headers={"If-None-Match": 'W/"1"'}).status_code == 404


# --- Pooled connections: checked when they were idle, not on every request -------------------------


def _pooled_entry(engine):
    """The one idle connection in the pool (SQLAlchemy's QueuePool keeps them in a queue)."""
    entries = list(engine.pool._pool.queue)
    assert len(entries) == 1
    return entries[0]


def test_a_connection_idle_for_a_while_is_checked_and_a_dead_one_replaced(app):
    import time

    from sqlalchemy import select
    from sqlalchemy.exc import DBAPIError

    from scorepad.delivery import PING_AFTER_IDLE_SECONDS

    with app.app_context():
        engine = db.engine
        engine.dispose()
        with engine.connect() as connection:
            assert connection.execute(select(1)).scalar() == 1
        # The server went away while the connection sat in the pool for longer than the idle time.
        entry = _pooled_entry(engine)
        entry.dbapi_connection.close()
        entry.info["scorepad_returned_at"] = time.monotonic() - PING_AFTER_IDLE_SECONDS - 1
        with engine.connect() as connection:  # checked, found dead, replaced: the request never sees it
            assert connection.execute(select(1)).scalar() == 1

        # A connection used a moment ago is not checked (no round trip): a dead one then fails once.
        entry = _pooled_entry(engine)
        entry.dbapi_connection.close()
        entry.info["scorepad_returned_at"] = time.monotonic()
        with pytest.raises(DBAPIError), engine.connect() as connection:
            connection.execute(select(1))
        with engine.connect() as connection:  # and the pool has thrown it away
            assert connection.execute(select(1)).scalar() == 1


def test_a_live_connection_checked_after_a_while_can_then_read_in_autocommit(app, api_game):
    """The check must leave no transaction open: the revision lookup then puts the connection in autocommit
    (psycopg refuses that inside a transaction)."""
    import time

    from scorepad import store
    from scorepad.delivery import PING_AFTER_IDLE_SECONDS

    game_id, _ = api_game
    with app.app_context():
        engine = db.engine
        engine.dispose()
        assert store.game_revision(game_id) == 1
        _pooled_entry(engine).info["scorepad_returned_at"] = time.monotonic() - PING_AFTER_IDLE_SECONDS - 1
        assert store.game_revision(game_id) == 1  # pinged, then read in autocommit on the same connection


def test_a_kept_page_is_sent_without_its_indentation_but_a_note_as_typed(client, app, api_game):
    """Whitespace that starts a line is one newline in a kept page (a browser shows any run of it as one space),
    except inside <pre> and <textarea>: a game's note keeps its own line breaks and spaces."""
    game_id, headers = api_game
    assert client.post(f"/api/games/{game_id}/hands", json=FIRST, headers=headers).status_code == 201
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "1,300" in page  # Us: 1,100 + 200
    assert "\n " not in page and "\n\n" not in page and "\n\t" not in page

    note = "At Ann's:\n    Dot dealt out of turn in hand 4"
    typed = f'<form>\n    <textarea name="note">{note}</textarea>\n  <pre>\n  as\n   typed</pre>\n</form>'
    assert squeezed(typed.encode()).decode() == (
        f'<form>\n<textarea name="note">{note}</textarea>\n<pre>\n  as\n   typed</pre>\n</form>'
    )


def test_a_revision_glance_gives_its_connection_back_as_it_was_and_throws_a_dead_one_away(app, api_game):
    """The poll's look (store.scoreboard_revision, in autocommit on a connection of its own) hands the connection back
    out of autocommit (a request's session then writes in a transaction on it), and a connection it finds dead is
    thrown away, so it fails once."""
    import time

    from scorepad import store

    game_id, _ = api_game
    with app.app_context():
        engine = db.engine
        engine.dispose()
        assert store.scoreboard_revision(game_id, engine) == (1, None)
        entry = _pooled_entry(engine)
        assert getattr(entry.dbapi_connection, "autocommit", False) is False  # psycopg's; sqlite3 3.11 has none
        assert not getattr(entry.dbapi_connection, "in_transaction", False)
        entry.dbapi_connection.close()
        entry.info["scorepad_returned_at"] = time.monotonic()  # used a moment ago: not checked before use
        with pytest.raises(Exception):  # noqa: B017 (the driver's own error: psycopg's or sqlite3's)
            store.scoreboard_revision(game_id, engine)
        assert store.scoreboard_revision(game_id, engine) == (1, None)  # on a new connection
        assert store.scoreboard_revision("no-such-game", engine) is None


def test_a_glance_that_fails_never_hands_back_a_connection_in_autocommit(app, api_game):
    """A look that fails for any reason but a dead connection (a statement the database refuses, as during a deploy
    whose code asks for a column not there yet) must not leave its connection in autocommit in the pool: a request's
    session would then write each statement as its own commit, its lock on the game let go at once. The connection
    is thrown away instead, and the next look reads on a good one."""
    from sqlalchemy import bindparam, text

    from scorepad import store

    game_id, _ = api_game
    refused = (
        db.select(GameRecord.version).where(GameRecord.id == bindparam("game_id")).where(text("no_such_column = 1"))
    )
    with app.app_context():
        engine = db.engine
        engine.dispose()
        assert store.game_revision(game_id, engine) == 1
        with pytest.raises(Exception):  # noqa: B017 (the driver's own error: psycopg's or sqlite3's)
            store.glance_rows(refused, {"game_id": game_id}, engine)
        for entry in list(engine.pool._pool.queue):
            assert getattr(entry.dbapi_connection, "autocommit", False) is False
        with engine.connect() as connection:  # what a request's session gets next: in a transaction, as ever
            assert getattr(connection.connection.driver_connection, "autocommit", False) is False
        assert store.game_revision(game_id, engine) == 1
