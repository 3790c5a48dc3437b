"""Fixtures shared by the Flask-client tests: an app on a fresh SQLite file, its client, and a new game."""

from __future__ import annotations

import pytest

from scorepad import create_app
from scorepad.models import db

FOUR_PLAYERS = [{"name": "Us", "players": ["Ann", "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}]


def game_document(preset: str = "modern", hands=None, sides=None, **rules) -> dict:
    """A game document as docs/api.md describes it."""
    return {"format": "scorepad-game", "version": 1, "rules": {"preset": preset, **rules},
            "sides": sides or FOUR_PLAYERS, "first_dealer": 0, "hands": hands or []}


@pytest.fixture
def app(tmp_path):
    """The app on a fresh SQLite file, its schema made by the migrations as in production."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'scorepad.sqlite'}"})
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
