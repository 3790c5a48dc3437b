"""What an operator sees: one log line for each refused or replayed change, never a token; errors in the API's shape."""

from __future__ import annotations

import logging

import pytest

from .test_games import FIRST_HAND, NEW_GAME, hand_form, version_of


@pytest.fixture
def logs(app, caplog):
    caplog.set_level(logging.INFO, logger=app.logger.name)
    return caplog


@pytest.fixture
def game(client):
    response = client.post("/games", data=NEW_GAME)
    return response.headers["Location"].rsplit("/", 1)[1]


def lines(logs) -> list[str]:
    return [record.getMessage() for record in logs.records]


def test_a_refused_hand_from_the_page_is_one_log_line(client, game, logs):
    response = client.post(f"/games/{game}/hands", data=hand_form({"count": 7}, {}))
    assert response.status_code == 422
    refused = [line for line in lines(logs) if line.startswith("Refused hand 1")]
    assert len(refused) == 1 and game in refused[0]


def test_a_refused_hand_from_the_api_is_one_log_line_without_the_token(client, api_game, logs):
    game_id, token, headers = api_game
    response = client.post(f"/api/games/{game_id}/hands", json={"sides": [{"count": 7}, {}]}, headers=headers)
    assert response.status_code == 422
    refused = [line for line in lines(logs) if line.startswith("Refused POST")]
    assert len(refused) == 1 and "sides.0.count" in refused[0]
    assert all(token not in line for line in lines(logs))


def test_an_idempotent_replay_is_logged_without_the_token(client, api_game, logs):
    game_id, token, headers = api_game
    headers = {**headers, "Idempotency-Key": "hand-1"}
    hand = {"sides": [{"natural_canastas": 2, "went_out": True, "count": 100}, {"count": -50}]}
    assert client.post(f"/api/games/{game_id}/hands", json=hand, headers=headers).status_code == 201
    assert client.post(f"/api/games/{game_id}/hands", json=hand, headers=headers).status_code == 201
    assert [line for line in lines(logs) if line.startswith("Idempotent replay")] == [
        f"Idempotent replay of a hand for game {game_id}"
    ]
    assert all(token not in line for line in lines(logs))


def test_an_edit_conflict_is_logged(client, game, logs):
    stale = version_of(client, game)
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    response = client.post(f"/games/{game}/hands", data={**hand_form({"count": 100}, {}), "version": stale})
    assert response.status_code == 409
    assert [line for line in lines(logs) if line.startswith("Edit conflict")] == [
        f"Edit conflict on hand 2 of game {game}: the form was for version {stale}"
    ]


def test_a_cross_site_post_is_refused_and_logged(client, game, logs):
    response = client.post(f"/games/{game}/hands", data=FIRST_HAND, headers={"Origin": "https://evil.example"})
    assert response.status_code == 403
    warned = [r for r in logs.records if r.levelno == logging.WARNING and "cross-site" in r.getMessage()]
    assert len(warned) == 1


def test_the_api_answers_an_unknown_address_in_json(client):
    response = client.get("/api/nothing-here")
    assert response.status_code == 404
    assert response.is_json and response.get_json()["errors"][0]["message"]


def test_an_unexpected_error_is_a_json_500_on_the_api_and_a_page_elsewhere(app, client, monkeypatch):
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production: the 500 handler answers

    def broken(game_id):
        raise RuntimeError("a bug")

    monkeypatch.setattr("scorepad.store.load_game", broken)
    monkeypatch.setattr("scorepad.store.game_revision", broken)  # the API's GET asks for the revision first
    monkeypatch.setattr("scorepad.rights.glance", broken)  # and the scoresheet for the revision and the right
    api = client.get("/api/games/abc")
    assert api.status_code == 500 and api.is_json
    assert "Something went wrong on the server" in api.get_json()["errors"][0]["message"]
    page = client.get("/games/abc")
    assert page.status_code == 500 and page.mimetype == "text/html"
    assert "Something went wrong on the server" in page.get_data(as_text=True)


def test_a_body_that_is_not_json_is_a_json_400(client):
    response = client.post("/api/games", data="preset=modern", content_type="application/json")
    assert response.status_code == 400 and response.is_json
    # Sent as text/plain (what a page of another site can post without asking), it is refused before it is read.
    response = client.post("/api/games", data="preset=modern", content_type="text/plain")
    assert response.status_code == 415 and response.is_json


@pytest.mark.parametrize(
    "path",
    ["/games/a%00b", "/api/games/a%00b", "/games/x%00/scoreboard", "/games/x%00/export.csv", "/games/" + "a" * 40],
)
def test_an_address_that_cannot_be_a_game_is_a_404_on_every_database(client, path):
    response = client.get(path)
    assert response.status_code == 404


def test_an_idempotency_key_with_a_control_character_is_a_400(client, api_game):
    game_id, _, headers = api_game
    response = client.post(
        f"/api/games/{game_id}/hands", json={"sides": [{}, {}]}, headers={**headers, "Idempotency-Key": "a\x00b"}
    )
    assert response.status_code == 400 and response.is_json
