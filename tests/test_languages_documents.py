"""The refusals of a document's or a rule set's shape in the phone's language (docs/i18n.md): a hand or a game sent
to the API in the wrong shape, a table rule out of bounds, a document of another version or not JSON at all, a file
restored on the home page, a rules file imported and a hand sent by the offline queue. Each is a rules Message (the
English as before), said by the API and the pages through web.translated; a field's path never changes.

The figures, worked out by hand (docs/rules.md): HAND scores Us 2 natural canastas 2 × 500 + going out 100 + Count 150
= 1,250, so in a game to 1,000 it ends the game after the hand it is; an empty hand ({} for each side) scores 0.
"""

from __future__ import annotations

import io
import json

import pytest

from tests.conftest import game_document, shown_text

SPANISH = {"Accept-Language": "es-UY,es;q=0.9"}
PORTUGUESE = {"Accept-Language": "pt-BR"}
ITALIAN = {"Accept-Language": "it-IT"}
HAND = {"sides": [{"natural_canastas": 2, "went_out": True, "count": 150}, {"mixed_canastas": 1, "count": 60}]}
EMPTY = {"sides": [{}, {}]}


def errors(response) -> dict[str, str]:
    """The API's errors, message by field."""
    return {error["field"]: error["message"] for error in response.get_json()["errors"]}


def text(response) -> str:
    """A page's text, without its tags."""
    return shown_text(response)


# --- The API ----------------------------------------------------------------------------------------------------

BAD_SHAPE = {"sides": [{"went_out": "yes", "wild_canasta": 7, "cards": {"melded": 3}, "colour": "red"}, 5]}


def test_a_hand_of_the_wrong_shape_is_refused_in_spanish_its_fields_as_they_are(client, api_game):
    game_id, _, auth = api_game
    answer = client.post(f"/api/games/{game_id}/hands", json=BAD_SHAPE, headers={**auth, **SPANISH})
    assert answer.status_code == 422
    assert errors(answer) == {
        "sides.0.colour": "Campo desconocido 'colour'.",
        "sides.0.went_out": "Cerró: true o false (sí o no).",
        "sides.0.wild_canasta": 'Canasta de comodines: poné su nombre, como "deuces".',
        "sides.0.cards.melded": 'Grilla de conteo: poné cuántas cartas hay de cada tipo, como {"jokers": 1}.',
        "sides.1": 'La anotación de un equipo dice lo que hizo, como {"natural_canastas": 2, "count": 120}.',
    }
    # The English is what it always was.
    english = client.post(f"/api/games/{game_id}/hands", json=BAD_SHAPE, headers=auth)
    assert errors(english) == {
        "sides.0.colour": "Unknown field 'colour'.",
        "sides.0.went_out": "Went out: true or false.",
        "sides.0.wild_canasta": 'Wild-card canasta: give its name, like "deuces".',
        "sides.0.cards.melded": 'Counting grid: give the number of each kind of card, like {"jokers": 1}.',
        "sides.1": 'A side\'s entry lists what it scored, like {"natural_canastas": 2, "count": 120}.',
    }
    for body, said in (
        ([], 'Una mano lleva una anotación para cada equipo: {"sides": [...]}.'),
        ({"sides": {}}, 'Una mano lleva una anotación para cada equipo: "sides" es una lista.'),
        ({"sides": [{}]}, "Una mano lleva una anotación para cada uno de los 2 equipos."),
    ):
        answer = client.post(f"/api/games/{game_id}/hands", json=body, headers={**auth, **SPANISH})
        assert errors(answer) == {"sides": said}


def test_a_table_rule_out_of_bounds_is_refused_in_spanish_with_its_figures_as_spanish_writes_them(client):
    document = game_document(
        wipeout="yes",
        tie="sometimes",
        threes=[0, 100, 300, 500, 1001],
        hands_per_game=1,
        minimum_counts_by_hand=[125, 155],
        values={"natural_canasta": 200_000},
    )
    answer = client.post("/api/games", json=document, headers=SPANISH)
    assert answer.status_code == 422
    assert errors(answer) == {
        "rules.wipeout": "Barrida: true o false (sí o no).",
        "rules.tie": "Empate: uno de play_on, shared, went_out.",
        "rules.minimum_counts_by_hand": (
            "Bajadas mínimas por mano: 2 bajadas mínimas para una partida de 1 mano. Poné una por mano, como mucho 1."
        ),
        "rules.threes.4": "Los 3 (4 de un color): los puntos van de a 5 (múltiplo de 5).",
        "rules.values.natural_canasta": "Canasta limpia: como mucho 100.000 puntos.",
    }
    english = errors(client.post("/api/games", json=document))
    assert english["rules.values.natural_canasta"] == "Natural canasta: at most 100,000 points."
    assert english["rules.minimum_counts_by_hand"] == (
        "Minimum Counts by hand: 2 Minimum Counts for a game of 1 hand. Give one for each hand, at most 1."
    )
    assert english["rules.threes.4"] == "4 3s: points are a multiple of 5."


def test_an_unknown_preset_and_a_name_too_long_are_refused_in_the_phones_language(client):
    answer = client.post("/api/games", json=game_document(preset="gin"), headers=PORTUGUESE)
    assert errors(answer) == {"rules.preset": "Regulamento desconhecido 'gin': escolha modern, cla, wca ou classic."}
    sides = [{"name": "U" * 41, "players": ["Ann"]}, {"name": "Them", "players": ["Bea"]}]
    answer = client.post("/api/games", json=game_document(sides=sides), headers=ITALIAN)
    assert errors(answer) == {"sides.0.name": "Il nome della squadra 1 ha 41 caratteri: un nome ne ha al massimo 40."}


@pytest.mark.parametrize(
    ("headers", "said"),
    [
        (SPANISH, "Versión de documento desconocida 2: este Scorepad lee la versión 1."),
        (PORTUGUESE, "Versão de documento desconhecida 2: este Scorepad lê a versão 1."),
        (ITALIAN, "Versione di documento sconosciuta 2: questo Scorepad legge la versione 1."),
        ({}, "Unknown document version 2: this Scorepad reads version 1."),
    ],
)
def test_a_document_of_another_version_is_refused_in_the_phones_language(client, headers, said):
    answer = client.post("/api/games", json={**game_document(), "version": 2}, headers=headers)
    assert answer.status_code == 400
    assert errors(answer) == {"": said}


def test_a_body_that_is_not_json_is_refused_in_spanish(client):
    answer = client.post("/api/games", data="{", content_type="application/json", headers=SPANISH)
    assert answer.status_code == 400
    assert errors(answer) == {"": "Esto no es una partida ni una mano de Scorepad: no es un documento JSON."}


@pytest.mark.parametrize(
    ("hands", "english", "spanish"),
    [
        (
            2,
            "With this change the game would end after hand 1, so the hand after it can't follow. Delete it first.",
            "Con este cambio la partida terminaría en la mano 1, así que la mano siguiente no puede venir después. "
            "Borrala primero.",
        ),
        (
            3,
            "With this change the game would end after hand 1, so the 2 hands after it can't follow. "
            "Delete them first.",
            "Con este cambio la partida terminaría en la mano 1, así que las 2 manos siguientes no pueden venir "
            "después. Borralas primero.",
        ),
    ],
)
def test_a_change_that_would_end_the_game_early_counts_the_hands_after_it_in_words(client, hands, english, spanish):
    # To 1,000: the empty hands score 0; HAND put in place of the first scores Us 1,250, which would end the game.
    created = client.post("/api/games", json=game_document(target=1000, hands=[EMPTY] * hands)).get_json()
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    answer = client.put(f"/api/games/{created['id']}/hands/0", json=HAND, headers={**auth, **SPANISH})
    assert answer.status_code == 422
    assert errors(answer) == {"hands.1": spanish}
    assert errors(client.put(f"/api/games/{created['id']}/hands/0", json=HAND, headers=auth)) == {"hands.1": english}


def test_a_hand_named_by_its_number_is_said_in_spanish_with_its_problem(client, api_game):
    game_id, _, auth = api_game
    # Hand 0: Ann deals, Dot (Them) cuts. Hand 1: Bea deals, Ann (Us) cuts and cuts perfectly (tests/test_api.py).
    assert client.post(f"/api/games/{game_id}/hands", json=EMPTY, headers=auth).status_code == 201
    cut = {"sides": [{"perfect_cut": True}, {}]}
    assert client.post(f"/api/games/{game_id}/hands", json=cut, headers=auth).status_code == 201
    answer = client.delete(f"/api/games/{game_id}/hands/0", headers={**auth, **SPANISH})
    assert answer.status_code == 422
    [(field, said)] = errors(answer).items()
    assert field == "hands.0.sides.0.perfect_cut"
    assert said.startswith("Mano 1: En esta mano solo el equipo que corta (Them)"), said


def test_an_idempotency_key_refused_is_said_in_spanish(client, api_game):
    game_id, _, auth = api_game
    long_key = {**auth, **SPANISH, "Idempotency-Key": "k" * 201}
    answer = client.post(f"/api/games/{game_id}/hands", json=EMPTY, headers=long_key)
    assert answer.status_code == 400
    assert errors(answer) == {"": "Una Idempotency-Key tiene como mucho 200 caracteres."}
    keyed = {**auth, **SPANISH, "Idempotency-Key": "hand-1"}
    assert client.post(f"/api/games/{game_id}/hands", json=EMPTY, headers=keyed).status_code == 201
    answer = client.post(f"/api/games/{game_id}/hands", json=HAND, headers=keyed)
    assert answer.status_code == 422
    [said] = errors(answer).values()
    assert said.startswith("Esta Idempotency-Key ya se usó para otra mano de esta partida: no se guardó nada."), said


# --- The pages and the offline queue --------------------------------------------------------------------------


def restore(client, raw: bytes, **headers):
    return client.post(
        "/games/import",
        data={"document": (io.BytesIO(raw), "games.json")},
        content_type="multipart/form-data",
        headers=headers,
    )


def test_restoring_a_file_that_is_no_game_says_why_in_spanish(client):
    page = text(restore(client, b"{", **SPANISH))
    assert "Esto no es una partida ni una mano de Scorepad: no es un documento JSON." in page
    page = text(restore(client, json.dumps({**game_document(), "version": 7}).encode(), **SPANISH))
    assert "Versión de documento desconocida 7: este Scorepad lee la versión 1." in page
    nothing = client.post("/games/import", data={}, content_type="multipart/form-data", headers=SPANISH)
    assert nothing.status_code == 422
    assert "Elegí un archivo de partida de Scorepad (.json) para restaurar." in text(nothing)


def test_restoring_a_file_of_games_names_each_bad_one_in_spanish(client):
    games = [
        {**game_document(), "sides": [{"name": "Eve", "players": ["Eve"]}, {"name": "Bea", "players": [3]}]},
        {**game_document(), "version": 2},
        "not a game",
    ]
    body = {"format": "scorepad-games", "version": 1, "games": games}
    response = restore(client, json.dumps(body).encode(), **SPANISH)
    assert response.status_code == 422
    page = text(response)
    assert "No se pudieron restaurar 3 de las 3 partidas del archivo:" in page
    assert 'partida 1 (Eve v Bea): sides.1.players.0: El nombre de un jugador es un texto, como "Ana".' in page
    assert "partida 2 (Us v Them): Versión de documento desconocida 2: este Scorepad lee la versión 1." in page
    assert "partida 3: Se esperaba un documento de partida de Scorepad (un objeto JSON)." in page
    too_new = restore(client, json.dumps({**body, "version": 2}).encode(), **SPANISH)
    assert "Este archivo de partidas es de una versión que este Scorepad no puede leer (lee la 1)." in text(too_new)


def test_a_rules_file_that_is_not_json_is_refused_in_spanish(client):
    answer = client.post("/rules/import", data={"rules_file": (io.BytesIO(b"[[["), "rules.json")}, headers=SPANISH)
    assert "Esto no es una partida ni una mano de Scorepad: no es un documento JSON." in text(answer)


def test_the_offline_queue_refuses_a_body_that_is_not_json_in_spanish(client):
    created = client.post("/api/games", json=game_document()).get_json()
    client.post(f"/games/{created['id']}/claim", data={"key": created["edit_token"]})
    answer = client.post(
        f"/sync/games/{created['id']}/hands",
        data="{",
        content_type="application/json",
        headers={"Idempotency-Key": "k1", **SPANISH},
    )
    assert answer.status_code == 400
    assert answer.get_json()["reason"] == "Esto no es una partida ni una mano de Scorepad: no es un documento JSON."
