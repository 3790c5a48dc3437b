"""Fixtures shared by the tests: a fresh database (tests/databases.py), the app on it, its client, and a new game."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorepad import create_app
from scorepad.models import db

from . import databases

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


DATABASE = pytest.StashKey[str]()


def pytest_configure(config) -> None:
    """Find out which database this run is on before any test: SQLite, or the PostgreSQL server
    SCOREPAD_TEST_DATABASE_URL names; a server out of reach stops the run at once."""
    config.stash[DATABASE] = databases.describe()


def pytest_collection_modifyitems(config, items) -> None:
    """Mark the browser tests (tests/e2e/) `e2e`: scripts/test.sh runs them apart (-m e2e, -m "not e2e")."""
    browser_tests = Path(__file__).parent / "e2e"
    for item in items:
        if browser_tests in item.path.parents:
            item.add_marker(pytest.mark.e2e)


def pytest_report_header(config) -> str:
    """Say which database this run is on."""
    return config.stash[DATABASE]


@pytest.fixture
def database_uri(tmp_path):
    """A fresh, empty database for one test (an SQLite file, or a PostgreSQL schema), gone after it."""
    with databases.fresh_database(tmp_path) as uri:
        yield uri


@pytest.fixture
def app(database_uri):
    """The app on a fresh database, its schema made by the migrations as in production."""
    # Rate limits are off here: tests/test_security.py makes its own app with them on.
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_uri, "RATELIMIT_ENABLED": False}
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
