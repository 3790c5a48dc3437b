"""The club night in the phone's language (issue #18, docs/i18n.md): the director's page, the wall, the table cards,
the new-event form, a table's clock and Confirm, the refusals of the pages, the API and the offline queue, in Spanish
(Accept-Language, and the language chosen on the phone: the cookie `lang`), with its figures as Spanish players write
them; and the check that keeps the club night's templates free of words left out of the catalogue.

The figures, worked out by hand (docs/rules.md; the hands are tests/test_service.py's and tests/test_club_nights.py's):
  Four pairs in a Mitchell (Roses, Tulips, Lilies, Daisies): two tables, table 1 Roses against Lilies, table 2 Tulips
  against Daisies (the first half of the pairs sit North–South, each facing the pair two after it).
  FORM_HAND at table 1 (tests/test_service.py): Roses 2 red 3s with two canastas 300, natural 500, mixed 300, going
  out 100 = 1,200 Base, Count 385: 1,585; Lilies one canasta, so its red 3 scores 0, mixed 300, Count 140: 440.
  Written 1.585 and 440 in Spanish; the game goes on (3,000 to win).
  BIG at table 2: Tulips a sevens canasta 2,500 and a natural canasta 500 = 3,000, Daisies nothing: 0. At 3,000 the
  game is over: Tulips win, 2 match points and a difference of +3,000, Daisies 0 and −3,000 (written 3.000 and
  −3.000, a real minus sign).
"""

from __future__ import annotations

import csv
import html
import io
import re
from pathlib import Path

import pytest
from flask_babel import force_locale
from jinja2 import Environment

from scorepad import rules, sheet
from scorepad.rules import SideEntry
from scorepad.web import translated
from tests.conftest import shown_text
from tests.test_club_nights import NEW_EVENT, table_game, version
from tests.test_events_api import create, event_document, play
from tests.test_games import hand_form
from tests.test_service import FORM_HAND, HAND
from tests.test_sync import send

SPANISH = {"Accept-Language": "es-AR,es;q=0.9"}
BIG = hand_form({"sevens_canasta": "y", "natural_canastas": 1}, {})
MINUS = "\u2212"

# Sentences and words the club night's pages said in English before they were translated: none may be left.
ENGLISH = [
    "Round 1 of 2",
    "min left in round",
    "pairs ·",
    "wall screen room",
    "Only the director's phone",
    "Close this round",
    "Start round",
    "Standings",
    "Table cards",
    "Wall screen",
    "Results (CSV)",
    "Rank",
    "Match points",
    "Difference",
    "Played",
    "provisional",
    "finished",
    "Scoresheet",
    "Confirm table",
    "Print them",
    "Room code",
    "QR code of the table's link",
    "sits out",
    "Time is up",
    "still playing",
    "Wait for it",
    "This round is closed",
    "New club night",
    "Pairs, in the order",
    "Play to",
    "Start the club night",
]


def text(response) -> str:
    """The page's text with tags and repeated white space removed (attributes' words kept apart: `attributes`)."""
    return shown_text(response)


def attributes(response) -> str:
    """Every aria-label and placeholder of the page, one after another."""
    found = re.findall(r'(?:aria-label|placeholder)="([^"]*)"', response.get_data(as_text=True))
    return html.unescape(" | ".join(found))


def no_english(said: str) -> None:
    left = [sentence for sentence in ENGLISH if sentence in said]
    assert not left, f"still in English: {left}"


@pytest.fixture
def spanish_night(app, client):
    """A club night started on the director's phone (`client`, its Accept-Language Spanish): four pairs, two rounds of
    75 minutes, to 3,000; table 1 has FORM_HAND saved (1,585 – 440, still playing), table 2 BIG (3,000 – 0,
    finished). Returns the event id."""
    made = client.post("/events/new", data={**NEW_EVENT, "round_minutes": "75"}, headers=SPANISH)
    assert made.status_code == 303
    event_id = made.headers["Location"].split("/")[-2]
    first, second = table_game(client, event_id, 0, 0), table_game(client, event_id, 0, 1)
    assert client.post(f"/games/{first}/hands", data=FORM_HAND, headers=SPANISH).status_code == 303
    assert client.post(f"/games/{second}/hands", data=BIG, headers=SPANISH).status_code == 303
    return event_id


def test_the_directors_page_in_spanish_with_spanish_figures(client, spanish_night):
    page = client.get(f"/events/{spanish_night}/director", headers=SPANISH)
    assert page.status_code == 200 and page.headers["Content-Language"] == "es"
    said = text(page)
    assert "Ronda 1 de 2 · 4 parejas · Mitchell · sala de la pantalla" in said
    assert re.search(r"Quedan 7[45] min de la ronda 1", said)  # the clock, a minute at most after the start
    assert "Mesa Parejas Manos Estado Puntos" in said  # the tables' headings
    assert "Roses vs Lilies 1 provisoria 1.585 – 440" in said
    assert "Tulips vs Daisies 1 terminada 3.000 – 0" in said
    assert "Confirmar la mesa 2" in said and "Planilla de la mesa 1" in said
    assert "Cerrar esta ronda: las mesas que siguen jugando terminan como están" in said
    assert "Empezar la ronda 2" in said
    # The standings by match points: Tulips 2 and +3,000; Daisies 0 and −3,000 (the module's docstring).
    assert "Puesto Pareja Puntos de partido Diferencia Jugadas" in said
    assert "Tulips 2 3.000 1" in said and f"Daisies 0 {MINUS}3.000 1" in said
    assert "Tarjetas de mesa Pantalla de sala Resultados (CSV) Resultados (JSON)" in said
    no_english(said)


def test_the_wall_in_the_language_chosen_on_the_phone(app, client, spanish_night):
    wall = app.test_client()
    assert wall.get(f"/language/es?next=/events/{spanish_night}").status_code in (302, 303)
    page = wall.get(f"/events/{spanish_night}", headers={"Accept-Language": "en-US"})  # the choice wins
    said = text(page)
    assert "Ronda 1 de 2" in said and re.search(r"Quedan 7[45] min de la ronda 1", said)
    assert "Roses vs Lilies 1 provisoria 1.585 – 440" in said
    assert "Tulips 2 3.000 1" in said and f"Daisies 0 {MINUS}3.000 1" in said
    assert 'aria-label="Posiciones"' in page.get_data(as_text=True)
    assert "Mesas de la ronda 1" in attributes(page)
    no_english(said + attributes(page))
    live = wall.get(f"/events/{spanish_night}/live")  # the poll's fragment: the same words
    assert "Ronda 1 de 2" in text(live) and "1.585 – 440" in text(live)
    no_english(text(live))


def test_the_table_cards_in_spanish(client, spanish_night):
    page = client.get(f"/events/{spanish_night}/cards", headers=SPANISH)
    said = text(page)
    assert "Tarjetas de mesa" in said and "Imprimilas, o mostrá una en un teléfono." in said
    assert "Mesa 1" in said and "Mesa 2" in said and said.count("Código de la sala") == 2
    assert "Código QR del enlace de la mesa" in attributes(page)
    no_english(said + attributes(page))


def test_a_round_not_ready_to_start_and_a_hand_refused_at_a_closed_round_in_spanish(app, client, spanish_night):
    refused = client.post(f"/events/{spanish_night}/rounds", data={}, headers=SPANISH)
    said = text(client.get(refused.headers["Location"], headers=SPANISH))
    assert (
        "Todavía se juega en una mesa: mesa 1 (Roses contra Lilies, 1 mano jugada). "
        "Esperá a que termine, o cerrá la ronda." in said
    )
    closed = client.post(f"/events/{spanish_night}/rounds", data={"close": "yes"}, headers=SPANISH)
    assert "Empezó la ronda 2." in text(client.get(closed.headers["Location"], headers=SPANISH))
    game_id = table_game(client, spanish_night, 0, 0)
    typed = hand_form({"natural_canastas": 1, "count": 215}, {"mixed_canastas": 1, "count": 95})
    answer = client.post(f"/games/{game_id}/hands", data=typed, headers=SPANISH)  # the director's phone too
    assert answer.status_code == 422
    assert "Esta ronda está cerrada: pedile al director que corrija la mano." in text(answer)
    assert 'value="215"' in answer.get_data(as_text=True)  # nothing typed is lost
    no_english(text(answer))
    # The offline queue's copy of it: the reason in the phone's language, for the phone to show.
    with app.app_context():
        base = version(game_id)
    queued = send(client, game_id, key="late-es", hand=HAND, base_version=base, position=1, **SPANISH)
    assert queued.status_code == 422
    assert queued.get_json()["reason"] == "Esta ronda está cerrada: pedile al director que corrija la mano."


def test_the_new_event_form_in_spanish_keeps_what_was_typed(client):
    page = client.get("/events/new", headers=SPANISH)
    said = text(page)
    assert "Nuevo torneo del club" in said and "Se juega a (vacío: 8.500)" in said
    assert "Mitchell: las parejas Este–Oeste pasan a la mesa siguiente en cada ronda" in said
    assert "Nombre de la pareja 1" in attributes(page)
    no_english(said + attributes(page))
    typed = {**NEW_EVENT, "rounds": "9", "pair-1-p2": "Bea"}
    refused = client.post("/events/new", data=typed, headers=SPANISH)
    assert refused.status_code == 422
    said = text(refused)
    assert "Revisá esto y empezá de nuevo: no se pierde nada de lo que escribiste." in said
    assert "Pareja 2: Bea está dos veces en Pareja 2: poné el nombre del compañero." in said
    # Four pairs in a Mitchell: two tables, so two rounds at most.
    assert "Un Mitchell de 4 parejas tiene como mucho 2 rondas (2 mesas)" in said
    assert 'value="Tuesday club night"' in refused.get_data(as_text=True)


def test_the_event_api_answers_in_spanish_with_its_fields_unchanged(client):
    pairs = [{"name": f"P{i}", "players": ["A", "B"]} for i in range(2001)]
    refused = client.post("/api/events", json=event_document(2, 1) | {"pairs": pairs}, headers=SPANISH)
    assert refused.status_code == 422
    assert refused.get_json()["errors"] == [
        {"field": "pairs", "message": "Un torneo tiene como mucho 2.000 parejas; este tiene 2.001."}
    ]
    body = create(client, event_document(4, 2))
    auth = {"Authorization": f"Bearer {body['director_token']}"}
    table = body["tables"][0]
    play(client, table, HAND)
    early = client.post(f"/api/events/{body['id']}/rounds/0/tables/0/confirm", json={}, headers={**auth, **SPANISH})
    assert early.status_code == 409
    assert early.get_json()["errors"][0]["message"] == (
        "La mesa 1 todavía está jugando (1 mano anotada): un resultado se confirma cuando termina la partida."
    )
    closing = {**auth, **SPANISH}
    assert client.post(f"/api/events/{body['id']}/rounds", json={"close": True}, headers=closing).status_code == 201
    assert client.post(f"/api/events/{body['id']}/rounds", json={"close": True}, headers=closing).status_code == 200
    over = client.post(f"/api/events/{body['id']}/rounds", json={"close": True}, headers=closing)
    assert over.status_code == 409
    assert over.get_json()["errors"][0]["message"] == (
        "La última ronda ya está cerrada: el torneo terminó y sus resultados son definitivos."
    )
    missing = client.get("/api/events/nothing-here", headers=SPANISH)
    assert missing.get_json()["errors"][0]["message"] == "No hay ningún torneo con ese id."


def test_a_tables_clock_and_confirm_in_spanish(app, client, spanish_night):
    game_id = table_game(client, spanish_night, 0, 0)
    assert re.search(
        r"Quedan 7[45] min de la ronda 1", text(client.get(f"/events/games/{game_id}/clock", headers=SPANISH))
    )
    finished = table_game(client, spanish_night, 0, 1)
    other_pair = app.test_client()
    box = text(other_pair.get(f"/events/games/{finished}/confirmation", headers=SPANISH))
    assert "ronda 1, mesa 2: Tulips contra Daisies. La otra pareja confirma el resultado acá." in box
    confirmed = other_pair.post(
        f"/events/{spanish_night}/rounds/0/tables/1/confirm", data={"back": "scoreboard"}, headers=SPANISH
    )
    said = text(confirmed)
    assert "Confirmado: Tulips 3.000, Daisies 0." in said
    assert "Si después se corrige la partida, la confirmación se borra." in said
    again = other_pair.post(
        f"/events/{spanish_night}/rounds/0/tables/1/confirm", data={"back": "scoreboard"}, headers=SPANISH
    )
    assert re.search(r"Ya lo confirmó la otra pareja a las \d\d:\d\d UTC\. Tulips 3\.000, Daisies 0\.", text(again))
    no_english(said + text(again))


def test_a_room_code_refused_in_spanish(client):
    said = text(client.get("/join", query_string={"code": "KXT 4MO"}, headers=SPANISH))
    assert "Eso no es un código de sala: un código de sala nunca tiene “O”." in said
    said = text(client.get("/join", query_string={"code": "KXT"}, headers=SPANISH))
    assert "un código de sala tiene 6 letras y números, y este tiene 3." in said


# --- A special hand's short name on a row ----------------------------------------------------------------------


@pytest.mark.parametrize("language", ["es", "pt_BR", "it"])
def test_a_special_hands_short_name_is_its_full_name_without_the_shape_in_every_language(app, language):
    with app.test_request_context(), force_locale(language):
        for key, name in rules.SPECIAL_HAND_NAMES.items():
            (mark,) = sheet.side_marks(rules.PRESETS["modern"].rules, SideEntry(special_hand=key))
            full, short = str(translated(mark.said)), str(translated(mark.shown))
            assert full == str(translated(name)) and full != name, (language, key)
            assert short == full.split(" (")[0], (language, key, short, full)


def test_a_special_hands_short_name_in_english_is_its_name_without_the_shape(app):
    for key, name in rules.SPECIAL_HAND_NAMES.items():
        (mark,) = sheet.side_marks(rules.PRESETS["modern"].rules, SideEntry(special_hand=key))
        assert mark.shown == name.split(" (")[0] and mark.said == name


# --- Kept complete: no visible word of a template outside the catalogue ----------------------------------------

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
_JINJA = Environment(extensions=["jinja2.ext.i18n"])
_MARKUP = re.compile(r"<(script|style)\b.*?</\1>|<!--.*?-->|<[^>]*>", re.S)
_SAID_IN_ATTRIBUTES = re.compile(r'\b(?:aria-label|placeholder|title|alt)="([^"]*)"')
_WORD = re.compile(r"[A-Za-z][A-Za-z']+")
# Words a template may show as they are (besides the app's own name, Scorepad): _forms.html's macro bodies write pieces
# of a tag's attributes outside any tag (data-..., aria-invalid), and the " canastas" of a label split in two (the
# label's own translation is split where it has the word).
SHOWN_AS_THEY_ARE = {
    "_forms.html": {"data", "aria invalid true aria describedby hint error", "canastas"},
}


def words_outside_the_catalogue(source: str) -> list[str]:
    """What a template shows that is no translation: its text (Jinja's own lexer tells text from {{ }}, {% %} and
    the insides of {% trans %}), with the markup taken out, and the words of its aria-labels, placeholders, titles
    and alts."""
    kept, inside_trans, before = [], 0, None
    for _line, kind, value in _JINJA.lex(source):
        if kind == "name" and before == "block_begin" and value in ("trans", "endtrans"):
            inside_trans += 1 if value == "trans" else -1
        if kind != "whitespace":
            before = kind
        if kind == "data":
            kept.append("\x00" if inside_trans else value)
        elif kind in ("variable_begin", "block_begin"):
            kept.append("\x00")  # an expression's place: its words are the catalogue's or data
    plain = "".join(kept)
    found = [value for value in _SAID_IN_ATTRIBUTES.findall(plain) if _WORD.search(value.replace("\x00", " "))]
    for line in re.sub(r"&[a-z]+;|&#\d+;", " ", _MARKUP.sub(" ", plain)).split("\n"):
        words = _WORD.findall(line)
        if words:
            found.append(" ".join(words))
    return found


def test_the_check_finds_words_left_out():
    source = (
        '<p>{{ _("Table %(n)s", n=1) }}</p><h2>Table cards</h2><input placeholder="Pair name" aria-label="{{ x }}">'
    )
    assert words_outside_the_catalogue(source) == ["Pair name", "Table cards"]
    assert words_outside_the_catalogue("{% trans trimmed %}Print them.{% endtrans %} <b>{{ name }}</b>") == []


@pytest.mark.parametrize("path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_every_templates_words_go_through_the_catalogue(path):
    allowed = SHOWN_AS_THEY_ARE.get(str(path.relative_to(TEMPLATES)), set())
    left = [words for words in words_outside_the_catalogue(path.read_text()) if words not in allowed]
    left = [words for words in left if set(words.split()) - {"Scorepad"}]  # the app's own name, in every language
    assert not left, f"{path.relative_to(TEMPLATES)}: not translated: {left}"


def test_the_results_csv_in_spanish_keeps_its_figures_plain(client, spanish_night):
    confirmed = client.post(f"/events/{spanish_night}/rounds/0/tables/1/confirm", headers=SPANISH)
    assert confirmed.status_code == 303  # the director confirms table 2 (3,000 – 0, finished)
    rows = list(csv.reader(io.StringIO(client.get(f"/api/events/{spanish_night}/results.csv", headers=SPANISH).text)))
    assert rows[0] == ["puesto", "pareja", "jugadores", "puntos de partido", "puntos", "diferencia", "jugadas"]
    assert ["1", "Tulips", "Bea & Dot", "2", "3000", "3000", "1"] in rows  # figures a spreadsheet reads: no 3.000
    heading = rows.index([])
    assert rows[heading + 1][:4] == ["ronda", "mesa", "norte-sur", "este-oeste"]
    assert rows[heading + 1][-2:] == ["estado", "confirmada"]
    table_two = next(row for row in rows[heading + 2 :] if row[1] == "2")
    assert table_two[2:6] == ["Tulips", "Daisies", "3000", "0"] and table_two[-1] == "sí"
