"""The rules page, the table rules' labels and hints, the presets' names, the history's delete and statistics pages,
the settlement and the forms' number messages in Spanish, Portuguese and Italian (docs/i18n.md).

The figures, worked out by hand: docs/api.md's example hand (tests/test_api.py EXAMPLE, worked out there from
docs/rules.md) scores Us 1,685 and Them −2,060; with 9,865 and −45 brought forward the totals are 11,550 and −2,105,
written 11.550 and −2.105 in Spanish, Portuguese and Italian. To a target of 10,000 that hand ends the game: Us win by
11,550 + 2,105 = 13,655, rounded to the nearest 1,000 = 14,000 (docs/rules.md §6), so at a stake of 2.55 per 1,000
Them pay 14 × 2.55 = 35.70, written 35,7.
"""

from __future__ import annotations

import re

import pytest

from scorepad import rules
from scorepad.rules.errors import Message
from tests.conftest import game_document, new_game_fields, shown_text
from tests.test_api import EXAMPLE

HEADERS = {
    "es": {"Accept-Language": "es-UY,es;q=0.9"},
    "pt_BR": {"Accept-Language": "pt-BR,pt;q=0.9"},
    "it": {"Accept-Language": "it-IT,it;q=0.9"},
}
ENGLISH = {"Accept-Language": "en-US"}


def text(response) -> str:
    """The page's text with tags and repeated white space removed."""
    return shown_text(response)


def played(client, target: int = 15000, keep: bool = False) -> str:
    """A game at 11,550 to −2,105 after one hand (the module's docstring); kept on this phone if `keep`."""
    doc = game_document(hands=[EXAMPLE], target=target)
    doc["brought_forward"] = [9865, -45]
    body = client.post("/api/games", json=doc).get_json()
    assert body["totals"] == [11550, -2105], body
    if keep:
        assert client.post(f"/games/{body['id']}/claim", data={"key": body["links"]["scoresheet"]}).status_code == 303
    return body["id"]


# --- The rule catalogue: translated once, without the rules importing Flask -------------------------------------


def test_every_label_hint_and_meaning_of_the_catalogue_is_a_message_the_catalogues_translate(app):
    from scorepad import web

    said = [v.label for v in rules.CATALOGUE] + [v.hint for v in rules.CATALOGUE]
    said += [v.meaning for v in rules.CATALOGUE if v.penalty]
    said += list(rules.RED_THREE_LABELS.values()) + list(rules.SPECIAL_HAND_HOLDS.values())
    said += [p.name for p in rules.PRESETS.values() if p.key in ("modern", "classic")]
    said += [p.description for p in rules.PRESETS.values()]
    assert all(isinstance(words, Message) for words in said)
    for language, headers in HEADERS.items():
        with app.test_request_context("/", headers=headers):
            for words in said:
                assert web.translated(words) != words, (language, words)


def test_the_hints_are_short_enough_for_a_phone(app):
    """Each hint is one short line or two under its field at 360 px (about 45 characters a line), in every language."""
    from scorepad import web

    for language, headers in {"en": ENGLISH, **HEADERS}.items():
        with app.test_request_context("/", headers=headers):
            for value in rules.CATALOGUE:
                assert len(str(web.translated(value.hint))) <= 135, (language, value.key)


# --- The new-game page: the catalogue's labels and hints, the presets' names and descriptions ----------------------


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "es",
            [
                "Canasta limpia",
                "Puntos por cada canasta sin comodines.",
                "Americana moderna",
                "Clásica",
                "8.500 para ganar",
                "jugador agarrado con tres sietes",
                "Multas",
            ],
        ),
        (
            "pt_BR",
            [
                "Canastra limpa",
                "Pontos por cada canastra sem coringas.",
                "Americana moderna",
                "Clássica",
                "8.500 para vencer",
                "jogador pego com três setes",
                "Multas",
            ],
        ),
        (
            "it",
            [
                "Canasta pulita",
                "Punti per ogni canasta senza matte.",
                "Americana moderna",
                "Classica",
                "8.500 per vincere",
                "giocatore sorpreso con tre sette",
                "Penalità",
            ],
        ),
    ],
)
def test_the_new_game_page_shows_the_table_rules_in_the_phones_language(client, language, words):
    page = text(client.get("/games/new", headers=HEADERS[language]))
    for word in words:
        assert word in page, (language, word)
    for english in ("Natural canasta", "Points for each canasta", "Modern American", "8,500", "caught with three 7s"):
        assert english not in page, (language, english)


def test_the_new_game_page_in_english_is_as_before(client):
    page = text(client.get("/games/new", headers=ENGLISH))
    assert "Natural canasta" in page and "Points for each canasta with no wild cards." in page
    assert "Modern American Canasta: 8,500 to win, special canastas and special hands." in page


@pytest.mark.parametrize(
    ("language", "not_a_number", "too_low"),
    [
        ("es", "Poné un número entero, como 3.", "No puede ser menos de 5."),
        ("pt_BR", "Digite um número inteiro, como 3.", "Não pode ser menos de 5."),
        ("it", "Inserisci un numero intero, come 3.", "Non può essere meno di 5."),
    ],
)
def test_the_forms_number_messages_are_in_the_phones_language(client, language, not_a_number, too_low):
    page = text(client.post("/games", data=new_game_fields(target="lots"), headers=HEADERS[language]))
    assert not_a_number in page and "Enter a whole number" not in page
    page = text(client.post("/games", data=new_game_fields(target="-5"), headers=HEADERS[language]))
    assert too_low in page and "Can't be less than" not in page


# --- The rules page ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "es",
            [
                "Reglas: Us v Them",
                "Americana moderna",
                "solo en punta con 11.550 o más",
                "menos de 3.000 (negativo también) 125",
                "3.000 – 4.995 155",
                "5.000 o más 180",
                "Canasta limpia 500",
                "Canasta de sietes 2.500",
                "Para cerrar hacen falta dos canastas cerradas",
                "Juego de sietes sin completar un juego de sietes de menos de siete cartas",
                "\u22122.500",
                "Siete pares siete pares, sin comodines 2.500",
                "Sin barrida",
            ],
        ),
        (
            "pt_BR",
            [
                "Regras: Us v Them",
                "sozinha na frente com 11.550 ou mais",
                "abaixo de 3.000 (negativo também) 125",
                "5.000 ou mais 180",
                "Canastra limpa 500",
                "Para bater são precisas duas canastras fechadas",
                "Sete pares sete pares, sem coringas 2.500",
            ],
        ),
        (
            "it",
            [
                "Regole: Us v Them",
                "da sola in testa con 11.550 o più",
                "sotto 3.000 (anche negativo) 125",
                "5.000 e oltre 180",
                "Canasta pulita 500",
                "Per chiudere servono due canaste chiuse",
                "Sette coppie sette coppie, senza matte 2.500",
            ],
        ),
    ],
)
def test_the_rules_page_is_in_the_phones_language_with_its_numbers(client, language, words):
    game = client.post("/api/games", json=game_document(target=11550)).get_json()["id"]
    page = text(client.get(f"/games/{game}/rules", headers=HEADERS[language]))
    for word in words:
        assert word in page, (language, word)
    for english in ("End of game", "Natural canasta", "closed canastas", "11,550", "below 3,000", "seven pairs, no"):
        assert english not in page, (language, english)


def test_the_classic_rules_page_in_spanish(client):
    game = client.post("/api/games", json=game_document("classic")).get_json()["id"]
    page = text(client.get(f"/games/{game}/rules", headers=HEADERS["es"]))
    assert "Clásica" in page and "Cada 3 rojo 100" in page and "Los cuatro 3 rojos 800" in page
    assert "Para cerrar hace falta una canasta cerrada" in page
    assert "menos de 0 15" in page and "1.500 – 2.995 90" in page and "3.000 o más 120" in page


# --- The history's delete and statistics pages ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", ["¿Borrar la partida Us v Them?", "1 mano: Us 11.550, Them \u22122.105.", "No se puede deshacer"]),
        ("pt_BR", ["Apagar a partida Us v Them?", "1 mão: Us 11.550, Them \u22122.105.", "Não dá para desfazer"]),
        ("it", ["Eliminare la partita Us v Them?", "1 mano: Us 11.550, Them \u22122.105.", "Non si può annullare"]),
    ],
)
def test_the_delete_page_is_in_the_phones_language(client, language, words):
    game = played(client, keep=True)
    page = text(client.get(f"/games/{game}/delete", headers=HEADERS[language]))
    for word in words:
        assert word in page, (language, word)
    assert "Delete the game" not in page and "11,550" not in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", ["Estadísticas", "Cada jugador en la 1 partida", "Mano promedio", "Canastas especiales y manos"]),
        ("pt_BR", ["Estatísticas", "Cada jogador na 1 partida", "Média por mão", "Canastras especiais e mãos"]),
        ("it", ["Statistiche", "Ogni giocatore nella 1 partita", "Media per mano", "Canaste speciali e mani"]),
    ],
)
def test_the_statistics_page_is_in_the_phones_language(client, language, words):
    body = client.post("/api/games", json=game_document(hands=[EXAMPLE])).get_json()  # no totals brought forward
    assert client.post(f"/games/{body['id']}/claim", data={"key": body["links"]["scoresheet"]}).status_code == 303
    response = client.get("/history/statistics", headers=HEADERS[language])
    page = text(response)
    for word in words:
        assert word in page, (language, word)
    assert "Average hand" not in page and "Statistics" not in page
    # Us's one hand: 1,685 (the module's docstring), written as the language writes it, beside each of Us's players.
    assert re.search(r"<td>1\.685</td>", response.get_data(as_text=True))


# --- Settling up ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("es", "Them pagan a Us 35,7 (13.655 se redondea a 14.000 → 14 × 2,55)"),
        ("pt_BR", "Them pagam a Us 35,7 (13.655 arredonda para 14.000 → 14 × 2,55)"),
        ("it", "Them pagano a Us 35,7 (13.655 si arrotonda a 14.000 → 14 × 2,55)"),
    ],
)
def test_the_settlement_is_in_the_phones_language(client, language, line):
    game = played(client, target=10000)
    page = text(client.get(f"/games/{game}", query_string={"stake": "2,55"}, headers=HEADERS[language]))
    assert line in page, page[page.find("Settle") :][:400]
    english = text(client.get(f"/games/{game}", query_string={"stake": "2.55"}, headers=ENGLISH))
    assert "Them pay Us 35.7 (13,655 rounds to 14,000 → 14 × 2.55)" in english


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("es", "Poné la apuesta y el monto por especial en números, como 2 o 0,5."),
        ("pt_BR", "Informe a aposta e o valor por especial em números, como 2 ou 0,5."),
        ("it", "Inserisci la posta e l'importo per speciale in cifre, come 2 o 0,5."),
    ],
)
def test_a_stake_that_is_not_a_number_is_told_in_the_phones_language(client, language, message):
    game = played(client, target=10000)
    page = text(client.get(f"/games/{game}", query_string={"stake": "lots"}, headers=HEADERS[language]))
    assert message in page


# --- The rest of the pages' English ------------------------------------------------------------------------------


def test_a_select_s_choices_and_the_counting_grid_s_cells_are_in_the_phones_language(client):
    page = client.get("/games/new", headers=HEADERS["es"]).get_data(as_text=True)
    assert re.search(r'<option( selected)? value="play_on">Jugar otra mano</option>', page)
    assert "Play another hand" not in page
    english = client.get("/games/new", headers=ENGLISH).get_data(as_text=True)
    assert re.search(r'<option( selected)? value="play_on">Play another hand</option>', english)
    game = played(client, keep=True)
    form = client.get(f"/games/{game}/hands/new", headers=HEADERS["it"]).get_data(as_text=True)
    assert 'aria-label="Assi: calate"' in form and 'aria-label="Assi: in mano"' in form
    assert "Aces melded" not in form and "Aces in hand" not in form


def test_deleting_a_game_says_so_in_the_phones_language(client):
    game = played(client, keep=True)
    client.post(f"/games/{game}/delete", headers=HEADERS["pt_BR"])
    assert "Partida apagada: Us v Them." in text(client.get("/history", headers=HEADERS["pt_BR"]))
    gone = client.get(f"/games/{game}/delete", headers=HEADERS["pt_BR"])
    assert gone.status_code == 404 and "talvez já tenha sido apagada" in text(gone)


def test_the_offline_game_page_is_titled_in_the_phones_language(client):
    page = client.get("/offline/game", headers=HEADERS["es"]).get_data(as_text=True)
    assert "<title>Partida empezada en este teléfono · Scorepad</title>" in page


@pytest.mark.parametrize(
    "language, names",
    [
        ("en", ("Us", "Them", "Others")),
        ("es", ("Nosotros", "Ellos", "Otros")),
        ("pt_BR", ("Nós", "Eles", "Outros")),
        ("it", ("Noi", "Loro", "Altri")),
    ],
)
def test_a_new_games_sides_start_with_names_in_the_phones_language(client, language, names):
    """Found by the new-user tester: the Spanish new-game page offered the sides "Us" and "Them". The names a game's
    sides start with are the page's language's; kept as they are, the game is stored with them."""
    headers = ENGLISH if language == "en" else HEADERS[language]
    page = client.get("/games/new", headers=headers).get_data(as_text=True)
    for i, name in enumerate(names):
        assert re.search(rf'name="side{i}_name" type="text" value="{name}"', page), (language, name)
    fields = dict(re.findall(r'name="(side[01]_name)" type="text" value="([^"]*)"', page))  # kept as offered
    started = client.post("/games", data={**new_game_fields(), **fields}, headers=headers)
    assert started.status_code == 303
    game_id = started.headers["Location"].rsplit("/", 1)[1]
    assert [side["name"] for side in client.get(f"/api/games/{game_id}").get_json()["sides"]] == list(names[:2])
