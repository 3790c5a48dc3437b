"""Fixtures shared by the tests: a fresh database (tests/databases.py), the app on it, its client, and a new game."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import event

from scorepad import create_app
from scorepad.models import db

from . import databases


def shown_text(response) -> str:
    """What a page or fragment (a response, or its HTML) says, its tags taken out and its spaces made one."""
    markup = response if isinstance(response, str) else response.get_data(as_text=True)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", markup))).strip()


FOUR_PLAYERS = [{"name": "Us", "players": ["Ann", "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}]


def game_document(preset: str = "modern", hands=None, sides=None, **rules) -> dict:
    """A game document as docs/api.md describes it."""
    return {
        "format": "scorepad-game",
        "version": 1,
        "rules": {"preset": preset, **rules},
        "sides": sides or FOUR_PLAYERS,
        "first_dealer": 0,
        "hands": hands or [],
    }


def new_game_fields(**changes: str) -> dict:
    """The new-game page's fields as the browser posts them: a modern game, Ann & Cleo (Us) against Bea & Dot (Them),
    Ann dealing first; `changes` set or add fields ("target": "5000", "perfect_cut": "y")."""
    return {
        "preset": "modern",
        "players": "4",
        "side0_name": "Us",
        "side1_name": "Them",
        "player0_0": "Ann",
        "player0_1": "Cleo",
        "player1_0": "Bea",
        "player1_1": "Dot",
        "first_dealer": "0",
        **changes,
    }


FIRST_RELEASE = "6f135fe7c877"  # the migration that made the schema of Scorepad's first release


def first_release_game(tmp_path: Path, preset: str, target: int, hand_sides: str) -> Flask:
    """An app on an SQLite file where one game (id "old", Us v Them, one hand: its side entries as JSON text) was
    stored by the first release, with the rules as that release kept them (the preset, the target, the perfect cut
    and seven pairs at 2,500), then migrated to this release."""
    game_rules = {"preset": preset, "target": target, "wipeout": False, "perfect_cut": True}
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url, "AUTO_CREATE_SCHEMA": False})
    with app.app_context():
        upgrade(revision=FIRST_RELEASE)
        db.session.execute(
            db.text(
                "INSERT INTO games (id, edit_token_hash, rules, sides, first_dealer, version, created_at, updated_at) "
                "VALUES ('old', 'x', :rules, :sides, 0, 1, '2026-11-01', '2026-11-01')"
            ),
            {"rules": json.dumps({**game_rules, "special_hands": {"pairs": 2500}}), "sides": json.dumps(FOUR_PLAYERS)},
        )
        db.session.execute(
            db.text("INSERT INTO hands (game_id, position, sides, created_at) VALUES ('old', 0, :sides, '2026-11-01')"),
            {"sides": hand_sides},
        )
        db.session.commit()
        upgrade()
        db.engine.dispose()
    return app


DATABASE = pytest.StashKey[str]()


def pytest_configure(config) -> None:
    """Find out which database this run is on before any test: SQLite, or the PostgreSQL server
    SCOREPAD_TEST_DATABASE_URL names; a server out of reach stops the run at once."""
    config.stash[DATABASE] = databases.describe()


def pytest_collection_modifyitems(config, items) -> None:
    """Mark the browser tests (tests/e2e/) `e2e`: scripts/test.sh runs them apart (-m e2e, -m "not e2e").

    On PostgreSQL a run leaves out what would only do again what the SQLite run did: a test with no database (no
    `database_uri` among its fixtures: the rules, the scripts, the docs) and a browser test not marked
    `both_databases`. What a browser test checks of the server (every page, form and API call) is checked on both
    databases by the tests without a browser; the browser tests marked are those where the database is part of
    what is tested: saves at once (a double tap, two phones), hands replayed from the phone's queue, a lost answer,
    Undo against a later change, revisions and their ETags."""
    browser_tests = Path(__file__).parent / "e2e"
    on_postgresql = databases.server_url() is not None
    kept, left_out = [], []
    for item in items:
        browser = browser_tests in item.path.parents
        if browser:
            item.add_marker(pytest.mark.e2e)
        if on_postgresql and (
            "database_uri" not in item.fixturenames or (browser and not item.get_closest_marker("both_databases"))
        ):
            left_out.append(item)
        else:
            kept.append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


def pytest_report_header(config) -> str:
    """Say which database this run is on."""
    return config.stash[DATABASE]


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """An SQLite file with the schema the migrations make (all of them, as `flask run` does on a fresh file), made
    once per test process: each test gets a copy (database_uri) rather than running a dozen migrations again, which
    took about a third of a test's time. On PostgreSQL each test's schema is migrated as before."""
    path = tmp_path_factory.mktemp("migrated") / "scorepad.sqlite"
    made = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with made.app_context():
        db.engine.dispose()  # the last connection closed: the write-ahead log is folded into the file
    return path


@pytest.fixture
def database_uri(tmp_path, request):
    """A fresh database for one test, gone after it: on SQLite a copy of the migrated file (migrated_sqlite), on
    PostgreSQL an empty schema the app migrates."""
    template = request.getfixturevalue("migrated_sqlite") if databases.server_url() is None else None
    with databases.fresh_database(tmp_path, template) as uri:
        yield uri


@pytest.fixture
def app(database_uri):
    """The app on a fresh database, its schema made by the migrations as in production."""
    # Rate limits are off here: tests/test_security.py makes its own app with them on.
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": database_uri,
            "RATELIMIT_ENABLED": False,
            "AUTO_CREATE_SCHEMA": databases.server_url() is not None,  # SQLite's copy is migrated already
        }
    )
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def api_game(client):
    """A new modern game made through the API: (id, edit token, auth headers)."""
    response = client.post("/api/games", json=game_document())
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["id"], body["edit_token"], {"Authorization": f"Bearer {body['edit_token']}"}


@pytest.fixture
def make_app(database_uri):
    """Apps on the test's database with their own configuration (rate limits on unless it says otherwise), each
    one's connections closed after the test (on PostgreSQL a connection left to the collector warns)."""
    apps = []

    def make(**config) -> Flask:
        made = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_uri, **config})
        apps.append(made)
        return made

    yield make
    for made in apps:
        with made.app_context():
            db.engine.dispose()


@pytest.fixture
def limited(make_app):
    """A client of an app with its rate limits on, as in production."""
    return make_app().test_client()


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """Every statement the app sends the database meanwhile: through SQLAlchemy (its events), and the polls' looks
    sent on the driver's connection (store.glance_rows, which SQLAlchemy's events do not see)."""
    from scorepad import store

    sent: list[str] = []

    def seen(conn, cursor, statement, parameters, context, executemany):
        sent.append(statement)

    with app.app_context():
        engine = db.engine
    glance_rows = store.glance_rows

    def glance_seen(statement, values, engine=None):
        sent.append(str(statement.compile(dialect=(engine or db.engine).dialect)))
        return glance_rows(statement, values, engine)

    event.listen(engine, "before_cursor_execute", seen)
    store.glance_rows = glance_seen
    try:
        yield sent
    finally:
        store.glance_rows = glance_rows
        event.remove(engine, "before_cursor_execute", seen)
