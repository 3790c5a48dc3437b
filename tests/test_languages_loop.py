"""The hand loop in the phone's language (issue 18): what the page says after Save, Undo and Delete, the Undo
button's words, and the marks of a scoresheet row (who went out, the canastas, the red 3s), in Spanish, Brazilian
Portuguese and Italian; English stays word for word as it was (tests/test_games.py reads it)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import shown_text
from tests.test_games import NEW_GAME, hand_form

HEADERS = {
    "es": {"Accept-Language": "es-UY,es;q=0.9"},
    "pt_BR": {"Accept-Language": "pt-BR,pt;q=0.9"},
    "it": {"Accept-Language": "it-IT,it;q=0.9"},
}
ENGLISH = {"Accept-Language": "en-US"}
UNDO_FORM = re.compile(  # as tests/test_games.py reads it
    r'action="/games/[^/]+/undo"[^>]*>\s*<input type="hidden" name="version" value="(\d+)">'
    r'\s*<input type="hidden" name="token" value="([\w-]+)">\s*<button[^>]*>([^<]+)</button>'
)
# Us went out with 2 natural canastas and all 4 red 3s; Them melded one mixed canasta.
MARKED_HAND = hand_form(
    {"red_threes": 4, "natural_canastas": 2, "went_out": "y", "count": 200},
    {"mixed_canastas": 1, "count": 50},
)


def text(response) -> str:
    return shown_text(response)


def started(client) -> str:
    response = client.post("/games", data=NEW_GAME)
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[1]


def test_a_hand_saved_in_spanish_is_said_saved_in_spanish_and_its_undo_too(client):
    game = started(client)
    es = HEADERS["es"]
    assert client.post(f"/games/{game}/hands", data=MARKED_HAND, headers=es).status_code == 303
    page = client.get(f"/games/{game}", headers=es)
    said = text(page)
    assert "Mano 1 guardada." in said and "Hand 1 saved." not in said
    found = UNDO_FORM.search(page.get_data(as_text=True))
    assert found is not None and found.group(3) == "Deshacer: quitar la mano 1"
    form = {"version": found.group(1), "token": found.group(2)}
    assert client.post(f"/games/{game}/undo", data=form, headers=es).status_code == 303
    said = text(client.get(f"/games/{game}", headers=es))
    assert "Mano 1 deshecha." in said and "Rehacer: volver a poner la mano 1" in said


def test_a_deleted_hand_and_a_note_are_said_in_italian(client):
    game = started(client)
    it = HEADERS["it"]
    client.post(f"/games/{game}/hands", data=MARKED_HAND, headers=it)
    client.get(f"/games/{game}", headers=it)  # the page that follows the save: its flash said
    assert client.post(f"/games/{game}/hands/1/delete", headers=it).status_code == 303
    said = text(client.get(f"/games/{game}", headers=it))
    assert "Mano 1 eliminata." in said and "Annulla: riporta la mano 1" in said


def test_the_old_link_is_refused_in_portuguese(client):
    game = started(client)
    said = text(client.get(f"/games/{game}?key=old", headers=HEADERS["pt_BR"], follow_redirects=True))
    assert "Este link é de um tipo antigo" in said and "older kind" not in said


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", ["cerró", "2 limpias", "2 canastas limpias", "4 3 rojos", "1 sucia", "1 canasta sucia"]),
        ("pt_BR", ["bateu", "2 limpas", "2 canastras limpas", "4 3 vermelhos", "1 suja", "1 canastra suja"]),
        ("it", ["ha chiuso", "2 pulite", "2 canaste pulite", "4 3 rossi", "1 sporca", "1 canasta sporca"]),
    ],
)
def test_a_rows_marks_are_in_the_pages_language(client, language, words):
    game = started(client)
    client.post(f"/games/{game}/hands", data=MARKED_HAND)
    client.get(f"/games/{game}")  # the page that follows the save, in English: its Undo and flash used up
    said = text(client.get(f"/games/{game}", headers=HEADERS[language]))
    for word in words:
        assert word in said, (language, word)
    assert "went out" not in said and "natural canastas" not in said and "red 3s" not in said
    english = text(client.get(f"/games/{game}", headers=ENGLISH))
    for word in ["went out", "2 natural", "2 natural canastas", "4 red 3s", "1 mixed", "1 mixed canasta"]:
        assert word in english, word


def test_a_single_red_3_and_a_plural_of_each_language(app):
    from scorepad import sheet, web
    from scorepad.rules import PRESETS, SideEntry

    entry = SideEntry(red_threes=1, natural_canastas=1, went_out=True, concealed=True)
    marks = sheet.side_marks(PRESETS["modern"].rules, entry)
    assert [str(m.said) for m in marks] == ["went out concealed", "1 natural canasta", "1 red 3"]
    with app.test_request_context("/", headers=HEADERS["es"]):
        assert [web.translated(m.said) for m in marks] == ["cerró de mano", "1 canasta limpia", "1 3 rojo"]


def test_a_preset_chosen_without_javascript_is_said_in_spanish(client):
    data = {**NEW_GAME, "preset": "classic", "rules_from": "modern", "target": "8500"}
    response = client.post("/games", data=data, headers=HEADERS["es"])
    assert response.status_code == 200
    said = text(response)
    assert "Las reglas de la mesa ahora son las de Clásica: revisalas y después empezá la partida." in said


def test_saved_rules_renamed_and_deleted_are_said_in_portuguese(client):
    from tests.test_rule_sets import TUESDAY

    pt = HEADERS["pt_BR"]
    saved = client.post("/games", data=TUESDAY, headers=pt)
    assert saved.status_code == 303
    assert "Regras salvas como \u201cTuesday club\u201d" in text(client.get(saved.location, headers=pt))
    set_id = re.search(r"rule_set=(\d+)", saved.location).group(1)
    assert client.post(f"/rules/{set_id}/rename", data={"name": "Quinta"}, headers=pt).status_code == 303
    assert "\u201cTuesday club\u201d agora se chama \u201cQuinta\u201d." in text(client.get("/rules", headers=pt))
    assert client.post(f"/rules/{set_id}/delete", headers=pt).status_code == 303
    assert "\u201cQuinta\u201d apagadas." in text(client.get("/rules", headers=pt))
