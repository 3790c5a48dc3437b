"""A note on a game ("at Ann's") and on a hand ("misdeal"): docs/api.md `note`. Kept, shown and exported, never
scored; at most 500 characters.

The hands (modern values, docs/rules.md), so a note is seen not to change a figure:
  Us:   2 natural canastas, went out, count 200 → 500 + 500 + out 100 = base 1,100; hand total 1,300
  Them: 1 mixed canasta, count 50 → 300; hand total 350
"""

from __future__ import annotations

import csv
import html
import io
import json
import re

from scorepad import store
from scorepad.games import hands
from tests.conftest import game_document, new_game_fields, shown_text

from .test_games import FIRST_HAND, NEW_GAME, SECOND_HAND, THIRD_HAND, offered

HAND = {"sides": [{"natural_canastas": 2, "went_out": True, "count": 200}, {"mixed_canastas": 1, "count": 50}]}


def text(response) -> str:
    return shown_text(response)


def noted(note="at Ann's", hand_note="misdeal") -> dict:
    doc = game_document(hands=[{**HAND, "note": hand_note}, HAND])
    doc["note"] = note
    return doc


def read_csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))


def restore(client, raw: bytes):
    return client.post(
        "/games/import", data={"document": (io.BytesIO(raw), "game.json")}, content_type="multipart/form-data"
    )


def test_notes_are_kept_and_given_back_and_never_scored(client):
    body = client.post("/api/games", json=noted()).get_json()
    assert body["note"] == "at Ann's"
    assert [hand.get("note") for hand in body["hands"]] == ["misdeal", None]
    assert body["totals"] == [2600, 700]  # 1,300 + 1,300 and 350 + 350: the notes count for nothing
    plain = client.post("/api/games", json=game_document(hands=[HAND])).get_json()
    assert "note" not in plain and "note" not in plain["hands"][0]


def test_a_note_round_trips_through_export_and_restore(app, client):
    body = client.post("/api/games", json=noted()).get_json()
    exported = client.get(f"/games/{body['id']}/export.json").get_data()
    response = restore(client, exported)
    assert response.status_code == 303
    copy = client.get(f"/api/games/{response.headers['Location'].rsplit('/', 1)[1]}").get_json()
    assert copy["note"] == "at Ann's" and copy["hands"][0]["note"] == "misdeal" and "note" not in copy["hands"][1]
    # And through the file of every game, to a fresh phone.
    every = client.get("/history/export.json").get_data()
    assert [game["note"] for game in json.loads(every)["games"]] == ["at Ann's"]
    phone = app.test_client()
    assert restore(phone, every).status_code == 303
    [again] = json.loads(phone.get("/history/export.json").get_data())["games"]
    assert again["note"] == "at Ann's" and [hand.get("note") for hand in again["hands"]] == ["misdeal", None]


def test_a_hand_sent_with_a_note_keeps_it_and_a_correction_replaces_it(client):
    body = client.post("/api/games", json=game_document()).get_json()
    headers = {"Authorization": f"Bearer {body['edit_token']}"}
    added = client.post(
        f"/api/games/{body['id']}/hands", json={**HAND, "note": "Dot dealt out of turn"}, headers=headers
    )
    assert added.status_code == 201 and added.get_json()["hands"][0]["note"] == "Dot dealt out of turn"
    assert client.get(f"/api/games/{body['id']}").get_json()["hands"][0]["note"] == "Dot dealt out of turn"
    corrected = client.put(f"/api/games/{body['id']}/hands/0", json={**HAND, "note": "misdeal"}, headers=headers)
    assert corrected.status_code == 200, corrected.get_json()
    assert client.get(f"/api/games/{body['id']}").get_json()["hands"][0]["note"] == "misdeal"


def test_a_note_too_long_is_refused_in_words(client):
    response = client.post("/api/games", json=noted(note="x" * 501))
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {"field": "note", "message": "The game's note is 501 characters long: a note has at most 500. Shorten it."}
    ]
    response = client.post("/api/games", json=noted(hand_note=["misdeal"]))
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "hands.0.note"
    assert "The hand's note is text" in response.get_json()["errors"][0]["message"]
    # 500 characters exactly, with spaces around that are trimmed, is a note.
    assert client.post("/api/games", json=noted(note="  " + "x" * 500 + "  ")).status_code == 201


def test_the_note_is_typed_on_the_scoresheet_and_shown_on_the_scoreboard_and_printed_sheet(client):
    response = client.post("/games", data=new_game_fields())
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'name="note"' in sheet and "Add a note to this game" in sheet
    response = client.post(f"/games/{game_id}/note", data={"note": "at Ann's"})
    assert response.status_code == 303
    assert "Note saved." in text(client.get(f"/games/{game_id}"))
    for page in (f"/games/{game_id}", f"/games/{game_id}/scoreboard"):
        assert "Note: at Ann's" in text(client.get(page)), page
    # A note too long: refused in words, the text typed still in its box, the note kept as it was.
    long = "We played at Ann's " + "and it rained " * 40
    response = client.post(f"/games/{game_id}/note", data={"note": long})
    assert response.status_code == 422
    page = text(response)
    assert f"The note is {len(long.strip()):,} characters long: a note has at most 500. Shorten it." in page
    assert html.escape(long.strip(), quote=False) in html.unescape(response.get_data(as_text=True))
    assert client.get(f"/api/games/{game_id}").get_json()["note"] == "at Ann's"
    # Another phone, without the right to keep score, can't change it.
    assert client.application.test_client().post(f"/games/{game_id}/note", data={"note": "hi"}).status_code == 403


def test_the_notes_are_in_the_csv_files(client):
    body = client.post("/api/games", json=noted()).get_json()
    rows = read_csv(client.get(f"/games/{body['id']}/export.csv"))
    assert rows[0][-1] == "Note" and [row[-1] for row in rows[1:]] == ["misdeal", "misdeal", "", ""]
    facts = read_csv(client.get(f"/games/{body['id']}/game.csv"))
    assert facts[0][-1] == "Note" and [row[-1] for row in facts[1:]] == ["at Ann's", "at Ann's"]
    plain = client.post("/api/games", json=game_document(hands=[HAND])).get_json()
    assert "Note" not in read_csv(client.get(f"/games/{plain['id']}/export.csv"))[0]


def test_the_history_search_finds_a_game_by_its_note(client):
    body = client.post("/api/games", json=noted(note="Tuesday at Ann's")).get_json()
    other = client.post("/api/games", json=game_document()).get_json()
    for game in (body, other):
        assert client.post(f"/games/{game['id']}/claim", data={"key": game["links"]["scoresheet"]}).status_code == 303
    found = client.get("/history?q=ann%E2%80%99s").get_data(as_text=True)  # a phone's curly apostrophe, any case
    assert f"/games/{body['id']}" in found and f"/games/{other['id']}" not in found
    assert "1 game with" in text(client.get("/history?q=Ann's"))


# --- A hand's note typed on the hand form -------------------------------------------------------------------------
# The hands of tests/test_games.py, worked out there by hand: hand 1 Us 1,585, Them 440; hand 2 Us 400 (1,985),
# Them −50 (390); hand 3 Us 700 (2,685), Them 360 (750).


def page_game(client) -> str:
    """A game started on the new-game page: its id (this client keeps score of it)."""
    response = client.post("/games", data=NEW_GAME)
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[1]


def hand_notes(client, game: str) -> list[str | None]:
    return [hand.get("note") for hand in client.get(f"/api/games/{game}").get_json()["hands"]]


def row_of(page: str, number: int) -> str:
    """The sheet's row (two sides) of hand `number`, as HTML."""
    found = re.search(rf'<tr id="hand-{number}">.*?</tr>', page, re.S)
    assert found, f"no row for hand {number}"
    return found.group(0)


def test_a_hand_saved_on_the_hand_form_keeps_its_note_on_the_sheet_scoreboard_and_csv(client):
    game = page_game(client)
    response = client.post(f"/games/{game}/hands", data={**FIRST_HAND, "note": "  misdeal: dealt again\r\n "})
    assert response.status_code == 303
    assert client.post(f"/games/{game}/hands", data={**SECOND_HAND, "note": "   "}).status_code == 303
    assert hand_notes(client, game) == ["misdeal: dealt again", None]  # trimmed; a blank box is no note
    assert client.get(f"/api/games/{game}").get_json()["totals"] == [1985, 390]  # never scored
    for address in (f"/games/{game}", f"/games/{game}/scoreboard"):
        page = client.get(address).get_data(as_text=True)
        assert '<span class="hand-note">misdeal: dealt again</span>' in row_of(page, 1), address
        assert "hand-note" not in row_of(page, 2), address
    rows = read_csv(client.get(f"/games/{game}/export.csv"))
    assert rows[0][-1] == "Note" and [row[-1] for row in rows[1:]] == ["misdeal: dealt again"] * 2 + ["", ""]


def test_a_correction_on_the_hand_form_changes_its_note_and_a_form_without_the_box_leaves_it(app, client):
    game = page_game(client)
    client.post(f"/games/{game}/hands", data={**FIRST_HAND, "note": "misdeal"})
    with app.test_request_context():  # the form a correction opens is filled with the hand's note
        assert hands._hand_form(store.load_game(game), 0).note.data == "misdeal"
    # A form kept on the phone from before the hand form had a note: the figures change, the note stays.
    assert client.post(f"/games/{game}/hands/1", data={**FIRST_HAND, "s0-count": "485"}).status_code == 303
    assert hand_notes(client, game) == ["misdeal"]
    assert client.get(f"/api/games/{game}").get_json()["totals"] == [1685, 440]  # 1,200 + 485
    client.post(f"/games/{game}/hands/1", data={**FIRST_HAND, "note": "Dot dealt out of turn"})
    assert hand_notes(client, game) == ["Dot dealt out of turn"]
    client.post(f"/games/{game}/hands/1", data={**FIRST_HAND, "note": ""})  # the box emptied: the note goes
    assert hand_notes(client, game) == [None]


def test_a_hand_note_too_long_on_the_form_is_refused_in_words_and_nothing_typed_is_lost(client):
    game = page_game(client)
    long = "Bea dealt thirteen cards to Dot " * 20
    response = client.post(f"/games/{game}/hands", data={**FIRST_HAND, "note": long})
    assert response.status_code == 422
    words = f"The hand's note is {len(long.strip()):,} characters long: a note has at most 500. Shorten it."
    page = response.get_data(as_text=True)
    assert words in text(response) and 'value="385"' in page  # said, and the entries still on the form
    assert hand_notes(client, game) == []


# --- Undo and Redo keep a hand's note ----------------------------------------------------------------------------


def undo(client, game: str, words: str) -> None:
    """Tap the Undo (or Redo) the scoresheet offers, after checking its words."""
    said, form, _ = offered(client, game)
    assert said == words
    assert client.post(f"/games/{game}/undo", data=form).status_code == 303


def test_undo_of_a_deleted_hand_brings_it_back_with_its_note(client):
    game = page_game(client)
    for hand, note in ((FIRST_HAND, ""), (SECOND_HAND, "misdeal"), (THIRD_HAND, "")):
        client.post(f"/games/{game}/hands", data={**hand, "note": note})
    client.post(f"/games/{game}/hands/2/delete")
    assert hand_notes(client, game) == [None, None]
    undo(client, game, "Undo: bring back hand 2")
    assert hand_notes(client, game) == [None, "misdeal", None]
    assert client.get(f"/api/games/{game}").get_json()["totals"] == [2685, 750]  # as before the delete
    undo(client, game, "Redo: delete hand 2 again")
    assert hand_notes(client, game) == [None, None]
    undo(client, game, "Undo: bring back hand 2")
    assert hand_notes(client, game) == [None, "misdeal", None]


def test_undo_of_a_correction_puts_its_note_back_and_redo_makes_it_again(client):
    game = page_game(client)
    client.post(f"/games/{game}/hands", data={**FIRST_HAND, "note": "misdeal"})
    client.post(f"/games/{game}/hands/1", data={**FIRST_HAND, "s0-count": "485", "note": "Dot dealt out of turn"})
    undo(client, game, "Undo the change to hand 1")
    assert hand_notes(client, game) == ["misdeal"]
    assert client.get(f"/api/games/{game}").get_json()["totals"] == [1585, 440]
    undo(client, game, "Redo the change to hand 1")
    assert hand_notes(client, game) == ["Dot dealt out of turn"]
    assert client.get(f"/api/games/{game}").get_json()["totals"] == [1685, 440]
    # A note added by a correction goes again with its Undo.
    client.post(f"/games/{game}/hands", data=SECOND_HAND)
    client.post(f"/games/{game}/hands/2", data={**SECOND_HAND, "note": "Cleo revoked"})
    undo(client, game, "Undo the change to hand 2")
    assert hand_notes(client, game) == ["Dot dealt out of turn", None]


def test_redo_of_a_hand_taken_back_brings_its_note_too(client):
    game = page_game(client)
    client.post(f"/games/{game}/hands", data={**FIRST_HAND, "note": "at Ann's, first hand"})
    undo(client, game, "Undo: take back hand 1")
    assert hand_notes(client, game) == []
    undo(client, game, "Redo: put hand 1 back")
    assert hand_notes(client, game) == ["at Ann's, first hand"]


def varied(start: int) -> str:
    """500 different characters (rare Chinese ones, each two UTF-16 units), as little alike as text gets: they
    hardly compress."""
    return "".join(chr(0x20000 + (start + n * 7919) % 40000) for n in range(500))


def test_notes_too_big_to_keep_for_undo_are_saved_and_no_undo_is_offered(client):
    """The Undo offer lives in the phone's session cookie, which a browser drops whole over 4 KB: two long notes
    that hardly compress would not fit. The change is saved, and Undo is not offered rather than lost."""
    game = page_game(client)
    client.post(f"/games/{game}/hands", data={**FIRST_HAND, "note": varied(0)})
    response = client.post(f"/games/{game}/hands/1", data={**FIRST_HAND, "note": varied(1)})
    assert response.status_code == 303
    cookie = response.headers.get("Set-Cookie", "")
    assert len(cookie) < 4093, len(cookie)
    assert hand_notes(client, game) == [varied(1)]
    page = client.get(f"/games/{game}")
    assert "Hand 1 saved." in text(page) and "/undo" not in page.get_data(as_text=True)  # said; no Undo
