"""The hand loop's pages through the Flask client (issue 17): the next hand's form on the scorekeeper's sheet, the
preview that keeps every side's figures it can tell, and the hand's note box.

Figures are worked out by hand from docs/rules.md (modern preset: natural canasta 500; a Count is a multiple of 5).
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import game_document
from tests.test_games import NEW_GAME, hand_form


@pytest.fixture
def game(client):
    response = client.post("/games", data=NEW_GAME)
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[1]


def version_of(page: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', page)
    assert found, "no form with a version"
    return found.group(1)


def test_the_scorekeepers_sheet_carries_the_next_hands_form(client, app, game):
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert f'<form method="post" action="/games/{game}/hands" class="hand-form"' in page
    assert re.search(r'id="next-hand-heading"[^>]*>Hand 1</h2>', page)
    assert "Save hand 1" in page and "Enter hand 1 on its own page" in page
    assert 'data-position="0"' in page  # the phone's own figures know which hand it is
    # Saved from the sheet: back on the sheet, with hand 2's form at the game's new version.
    # Us: a natural canasta 500 + 120 = 620; Them: no canasta, Count −30.
    data = hand_form({"natural_canastas": 1, "count": 120}, {"count": 30, "count_sign": "-"}, version=version_of(page))
    response = client.post(f"/games/{game}/hands", data=data)
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game}"
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert re.search(r'id="next-hand-heading"[^>]*>Hand 2</h2>', page) and "Save hand 2" in page
    # The same post again (a second tap with no script) stores nothing more.
    assert client.post(f"/games/{game}/hands", data=data).status_code == 303
    assert len(client.get(f"/api/games/{game}").get_json()["hands"]) == 1
    # An empty form sent from the sheet is refused, not stored.
    empty = client.post(f"/games/{game}/hands", data={"version": version_of(page)})
    assert empty.status_code == 422 and "Nothing has been entered for this hand" in empty.get_data(as_text=True)
    assert len(client.get(f"/api/games/{game}").get_json()["hands"]) == 1
    # Another phone reads the sheet: no form.
    watcher = app.test_client().get(f"/games/{game}").get_data(as_text=True)
    assert "hand-form" not in watcher and "Save hand" not in watcher


def test_a_finished_game_has_no_next_hands_form(client):
    # Us: Seven pairs 2,500 with 8,000 brought forward: 10,500, past 8,500: the game is over.
    hands = [{"sides": [{"special_hand": "pairs"}, {"count": 0}]}]
    document = game_document(hands=hands, special_hands={"pairs": 2500})
    document["brought_forward"] = [8000, 0]
    response = client.post("/api/games", json=document)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["status"] == "finished"
    client.post(f"/games/{body['id']}/claim", data={"key": body["edit_token"]})
    page = client.get(f"/games/{body['id']}").get_data(as_text=True)
    assert "Rematch" in page and "hand-form" not in page


def preview(client, game, us: dict, them: dict) -> str:
    data = hand_form(us, them)
    response = client.post(f"/games/{game}/hands/preview", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_a_problem_on_one_side_leaves_the_other_sides_figures_in_the_preview(client, game):
    # Us: a natural canasta 500, Count 120: 620. Them: Count 123, not a multiple of 5.
    body = preview(client, game, {"natural_canastas": 1, "count": 120}, {"count": 123})
    assert re.search(r'id="s1-count-error"[^>]*>The Count must be a multiple of 5\.<', body)
    us_figures = r'id="side-figures-0"[^>]*>Base <span class="base">500</span> · Count <span class="count">120<'
    assert re.search(us_figures, body)
    assert re.search(r'id="side-figures-1"[^>]*></p>', body)  # Them's wait until fixed
    us_row = re.search(r'<tr data-side="0">(.*?)</tr>', body, re.S)
    them_row = re.search(r'<tr data-side="1">(.*?)</tr>', body, re.S)
    assert us_row and them_row
    assert re.findall(r'class="(?:hand-total|cumulative)">([^<]*)<', us_row.group(1)) == ["620", "620"]
    assert "fix the entry marked above" in them_row.group(1) and "hand-total" not in them_row.group(1)


def test_no_figures_are_told_when_every_side_with_entries_has_a_problem(client, game):
    # Us went out with one canasta (two are needed); Them's Count is not a multiple of 5.
    body = preview(client, game, {"natural_canastas": 1, "went_out": "y", "count": 100}, {"count": 123})
    assert "preview-table" not in body and 'class="preview-problem"' in body
    # Them alone in question, Us with nothing entered: nothing to tell either.
    body = preview(client, game, {}, {"count": 123})
    assert "preview-table" not in body and 'class="preview-problem"' in body


def test_a_wipeout_game_tells_no_figures_while_a_side_is_in_question(client):
    response = client.post("/games", data={**NEW_GAME, "wipeout": "y"})
    game = response.headers["Location"].rsplit("/", 1)[1]
    body = preview(client, game, {"natural_canastas": 1, "count": 120}, {"count": 123})
    assert "The Count must be a multiple of 5." in body and "preview-table" not in body


def test_the_hand_form_has_a_note_box_out_of_the_way(client, game):
    page = client.get(f"/games/{game}/hands/new").get_data(as_text=True)
    disclosure = r'<details class="hand-note-entry"[^>]*>\s*<summary>Add a note to this hand</summary>(.*?)</details>'
    box = re.search(disclosure, page, re.S)
    assert box, "no 'Add a note' disclosure"
    assert '<label for="hand-note">Note on this hand</label>' in box.group(1)
    assert re.search(r'<input id="hand-note" name="note" type="text" maxlength="500"', box.group(1))
    assert '<details class="hand-note-entry" open' not in page  # closed until wanted
