"""One pass per save (issue #16): a hand is read once, checked once, scored once and written once, and the answer is
made from what was written. Statements are counted as the database is sent them (SQLAlchemy's
before_cursor_execute on the engine: a BEGIN IMMEDIATE counts; the driver's own BEGIN and COMMIT do not), on the
database the run uses (SQLite, or PostgreSQL with SCOREPAD_TEST_DATABASE_URL)."""

from __future__ import annotations

import re

import pytest

from scorepad import document, rules

from .conftest import statements
from .test_games import NEW_GAME, hand_form

# docs/rules.md, modern: Us: 2 red 3s with two canastas +300, natural 500, mixed 300, went out 100 = 1,200 Base;
# Count 385: 1,585. Them: one canasta, so its red 3 scores 0; mixed 300 = 300 Base; Count 140: 440.
US = {"red_threes": 2, "natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 385}
THEM = {"red_threes": 1, "mixed_canastas": 1, "count": 140}
HAND = {"sides": [US, THEM]}
FORM_HAND = hand_form(
    {"red_threes": 2, "natural_canastas": 1, "mixed_canastas": 1, "went_out": "y", "count": 385},
    {"red_threes": 1, "mixed_canastas": 1, "count": 140},
)
MOST_STATEMENTS = 5


@pytest.fixture
def calls(monkeypatch):
    """How many times, from here on, a side's entry is parsed, a hand is checked by the rules, a game is scored whole
    and a hand is scored alone."""
    counted = {"parse_side_entry": 0, "check_hand": 0, "score_game": 0, "score_next_hand": 0}

    def counting(module, name):
        real = getattr(module, name)

        def wrapper(*args, **kwargs):
            counted[name] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    counting(document, "parse_side_entry")
    for name in ("check_hand", "score_game", "score_next_hand"):
        counting(rules, name)
    return counted


def api_game(client, hands: int = 0) -> tuple[str, dict]:
    """A modern game made through the API with `hands` hands of HAND already played: its id and auth headers."""
    created = client.post(
        "/api/games",
        json={
            "format": "scorepad-game",
            "version": 1,
            "rules": {"preset": "modern", "target": 100000},
            "sides": [{"name": "Us", "players": ["Ann", "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}],
            "first_dealer": 0,
            "hands": [HAND] * hands,
        },
    )
    assert created.status_code == 201
    body = created.get_json()
    return body["id"], {"Authorization": f"Bearer {body['edit_token']}"}


@pytest.mark.parametrize("key", [None, "hand-4"], ids=["unkeyed", "keyed"])
def test_an_api_save_is_one_read_and_one_write(app, client, calls, key):
    game_id, headers = api_game(client, hands=3)
    for name in calls:
        calls[name] = 0
    with statements(app) as sent:
        answer = client.post(
            f"/api/games/{game_id}/hands", json=HAND, headers={**headers, "Idempotency-Key": key or ""}
        )
    assert answer.status_code == 201, answer.get_json()
    assert len(sent) <= MOST_STATEMENTS, sent
    assert sum(statement.lstrip().upper().startswith("SELECT") for statement in sent) == 1, sent
    # Parsed once (two sides), checked once, scored alone once: the three hands before it are neither parsed nor
    # scored again (their figures were kept), and the answer is made from what was written.
    assert calls == {"parse_side_entry": 2, "check_hand": 1, "score_game": 0, "score_next_hand": 1}
    body = answer.get_json()
    assert len(body["hands"]) == 4
    assert body["totals"] == [4 * 1585, 4 * 440]  # 6,340 and 1,760
    assert [hand["dealer"] for hand in body["hands"]] == [0, 1, 2, 3]
    assert body == client.get(f"/api/games/{game_id}").get_json()


def test_an_api_replay_reads_once_and_writes_nothing(app, client):
    game_id, headers = api_game(client, hands=1)
    keyed = {**headers, "Idempotency-Key": "again"}
    assert client.post(f"/api/games/{game_id}/hands", json=HAND, headers=keyed).status_code == 201
    with statements(app) as sent:
        replay = client.post(f"/api/games/{game_id}/hands", json=HAND, headers=keyed)
    assert replay.status_code == 201 and replay.headers["Idempotent-Replayed"] == "true"
    assert len(sent) == 1, sent
    assert replay.get_json()["totals"] == [2 * 1585, 2 * 440]


@pytest.fixture
def page_game(client):
    """A modern game started from the new-game page, with one hand saved from the form: its id."""
    started = client.post("/games", data=NEW_GAME)
    assert started.status_code == 303
    game_id = started.headers["Location"].rsplit("/", 1)[1]
    assert client.post(f"/games/{game_id}/hands", data=FORM_HAND).status_code == 303
    client.get(f"/games/{game_id}")
    return game_id


@pytest.mark.parametrize("key", [None, "save-2"], ids=["unkeyed", "keyed"])
def test_a_form_save_is_one_read_and_one_write(app, client, page_game, calls, key):
    for name in calls:
        calls[name] = 0
    with statements(app) as sent:
        saved = client.post(f"/games/{page_game}/hands", data=FORM_HAND, headers={"Idempotency-Key": key or ""})
    assert saved.status_code == 303 and saved.headers["Location"] == f"/games/{page_game}"
    assert len(sent) <= MOST_STATEMENTS, sent
    assert sum(statement.lstrip().upper().startswith("SELECT") for statement in sent) == 1, sent
    # The form read once into the API's JSON, parsed once, checked once, scored alone once (no preview thrown away).
    assert calls == {"parse_side_entry": 2, "check_hand": 1, "score_game": 0, "score_next_hand": 1}
    page = client.get(f"/games/{page_game}").get_data(as_text=True)
    assert "Hand 2 saved." in page and "Undo: take back hand 2" in page
    # Us 1,585 a hand, Them 440 (above), two hands.
    assert "3,170" in page and "880" in page


def test_the_scoresheet_after_a_save_reads_its_game_once(app, client, page_game):
    assert client.post(f"/games/{page_game}/hands", data=FORM_HAND).status_code == 303
    with statements(app) as sent:
        page = client.get(f"/games/{page_game}")
    assert page.status_code == 200 and "Undo: take back hand 2" in page.get_data(as_text=True)
    reads_of_the_game = [statement for statement in sent if re.search(r"\bFROM games\b", statement)]
    assert len(reads_of_the_game) == 1, sent
    # That read, and who holds the handover link (the scorekeeper's page alone asks).
    assert len(sent) <= 2, sent


def test_a_save_racing_another_is_done_again_on_the_game_as_the_other_left_it(app, client, monkeypatch):
    """A change that comes in between a save's read and its write (no lock is taken before the write) is found by
    the write, which is then done again, held, on the game as it now is: both hands are stored, in turn."""
    from scorepad import service, store

    game_id, headers = api_game(client)
    other = app.test_client()
    read = store.read_for_change

    def read_then_another_save(*args, **kwargs):
        held = read(*args, **kwargs)
        monkeypatch.setattr(store, "read_for_change", read)
        them_out = {"sides": [THEM, US]}
        assert other.post(f"/api/games/{game_id}/hands", json=them_out, headers=headers).status_code == 201
        return held

    monkeypatch.setattr(store, "read_for_change", read_then_another_save)
    assert service.game_to_change.__module__ == "scorepad.service"
    answer = client.post(f"/api/games/{game_id}/hands", json=HAND, headers={**headers, "Idempotency-Key": "mine"})
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert [hand["dealer"] for hand in body["hands"]] == [0, 1]
    assert body["totals"] == [440 + 1585, 1585 + 440]  # both hands, the other phone's first
    again = client.post(f"/api/games/{game_id}/hands", json=HAND, headers={**headers, "Idempotency-Key": "mine"})
    assert again.headers["Idempotent-Replayed"] == "true" and len(again.get_json()["hands"]) == 2
