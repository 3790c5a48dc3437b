"""The last refusals a person could meet in English, now in the phone's language (docs/i18n.md): a rematch refused,
a change from another site, a field too long to be typed, the rate limits' answers, and the counts of a restore
written as the language writes numbers (1.000 in Spanish).

The figures, worked out by hand (docs/rules.md): FIRST_HAND scores Us 2 red 3s 200 + a natural canasta 500 + a mixed
one 300 + going out 100 + Count 385 = 1,485 and Them a mixed canasta 300 + Count 140 = 440, so a game to 1,000 is won
by Us after it, and a game to 8,500 goes on.
"""

from __future__ import annotations

import io
import json

from tests.conftest import game_document

from .test_games import FIRST_HAND, NEW_GAME, finished_game, text

SPANISH = {"Accept-Language": "es-AR,es;q=0.9"}
ITALIAN = {"Accept-Language": "it-IT"}
PORTUGUESE = {"Accept-Language": "pt-BR"}


def new_game(client) -> str:
    return client.post("/games", data=NEW_GAME).headers["Location"].rsplit("/", 1)[1]


def test_a_rematch_of_a_game_not_yet_won_is_refused_in_spanish(client):
    game = new_game(client)
    assert client.post(f"/games/{game}/hands", data=FIRST_HAND).status_code == 303  # 1,485 v 440: far from 8,500
    refused = client.post(f"/games/{game}/rematch", headers=SPANISH)
    assert refused.status_code == 409
    assert "Esta partida todavía no terminó: la revancha empieza cuando un lado ganó." in text(refused)
    english = client.post(f"/games/{game}/rematch")
    assert "This game isn't over yet: a rematch starts once a side has won." in text(english)


def test_a_rematch_from_a_watching_phone_is_refused_in_italian(app, client):
    game = finished_game(client)
    watcher = app.test_client()
    refused = watcher.post(f"/games/{game}/rematch", headers=ITALIAN)
    assert refused.status_code == 403
    assert "Solo il telefono di chi segna può iniziare una rivincita di questa partita." in text(refused)


def test_a_change_from_another_site_is_refused_in_portuguese(client):
    refused = client.post("/games", data=NEW_GAME, headers={**PORTUGUESE, "Sec-Fetch-Site": "cross-site"})
    assert refused.status_code == 403
    assert "Esta mudança não veio de uma página do Scorepad." in text(refused)


def test_a_field_too_long_is_refused_in_spanish_its_numbers_as_spanish_writes_them(client):
    refused = client.post("/games", data={**NEW_GAME, "player0": "A" * 1001}, headers=SPANISH)
    assert refused.status_code == 413
    said = text(refused)
    assert "Uno de los campos enviados tiene 1.001 caracteres: un campo admite como mucho 1.000" in said
    assert "A" * 50 not in said  # nothing of it echoed
    english = client.post("/games", data={**NEW_GAME, "player0": "A" * 1001})
    assert "One of the fields sent holds 1,001 characters: a field takes at most 1,000" in text(english)


def test_the_rate_limits_answer_in_the_phones_language(limited):
    for _ in range(30):
        assert limited.get("/join?code=ACDEFH", headers=SPANISH).status_code == 404
    refused = limited.get("/join?code=ACDEFH", headers=SPANISH)
    assert refused.status_code == 429
    assert "Demasiados códigos de sala probados desde tu red en poco tiempo." in text(refused)
    # The same limit, the next request in English: each answer is in its own request's language.
    english = limited.get("/join?code=ACDEFH")
    assert english.status_code == 429 and "Too many room codes tried from your network" in text(english)


def test_a_thousand_games_restored_are_counted_as_spanish_writes_it(client):
    every = {"format": "scorepad-games", "version": 1, "games": [game_document()] * 1000}
    restored = client.post(
        "/games/import",
        data={"document": (io.BytesIO(json.dumps(every).encode()), "all.json")},
        content_type="multipart/form-data",
        headers=SPANISH,
        follow_redirects=True,
    )
    assert "1.000 partidas restauradas." in text(restored)


def test_a_watching_phones_hand_is_refused_in_spanish(app, client):
    game = new_game(client)
    refused = app.test_client().post(f"/games/{game}/hands", data=FIRST_HAND, headers=SPANISH)
    assert refused.status_code == 403
    assert "Solo el teléfono del que anota puede cambiar esta partida." in text(refused)


def test_a_blank_hand_is_refused_in_italian(client):
    game = new_game(client)
    refused = client.post(f"/games/{game}/hands", data={}, headers=ITALIAN)
    assert refused.status_code == 422
    assert "Non è stato segnato niente per questa mano: ogni squadra farebbe 0." in text(refused)


def test_a_hand_the_game_does_not_have_is_said_in_portuguese(client):
    game = new_game(client)
    assert client.post(f"/games/{game}/hands", data=FIRST_HAND).status_code == 303
    missing = client.get(f"/games/{game}/hands/9/edit", headers=PORTUGUESE)
    assert missing.status_code == 404 and "Esta partida não tem a mão 9." in text(missing)


# A hand that ends a game to 1,000: Us 2 natural canastas 1,000 + going out 100 + Count 150 = 1,250.
ENDS = {"sides": [{"natural_canastas": 2, "went_out": True, "count": 150}, {"mixed_canastas": 1, "count": 60}]}
EMPTY = {"sides": [{}, {}]}


def test_a_hand_after_the_end_is_refused_in_spanish(client):
    document = game_document(target=1000, hands=[ENDS, EMPTY])
    refused = client.post("/api/games", json=document, headers=SPANISH)
    assert refused.status_code == 422
    said = {error["field"]: error["message"] for error in refused.get_json()["errors"]}
    assert said == {"hands.1": "La partida terminó después de la mano 1: no puede seguir ninguna mano."}
    # A game of 3 hands: the fourth is refused, its words following the count.
    fixed = game_document(hands_per_game=3, hands=[EMPTY] * 4)
    refused = client.post("/api/games", json=fixed, headers=ITALIAN)
    said = {error["field"]: error["message"] for error in refused.get_json()["errors"]}
    assert said == {
        "hands.3": "Questa partita è di 3 mani: è finita dopo la mano 3, quindi non può seguire nessuna mano."
    }


def test_the_scoreboards_qr_code_is_named_in_each_language(client):
    game = new_game(client)
    spanish = client.get(f"/games/{game}", headers=SPANISH).get_data(as_text=True)
    english = client.get(f"/games/{game}").get_data(as_text=True)
    assert 'aria-label="Código QR del enlace del marcador"' in spanish
    assert 'aria-label="QR code of the scoreboard link"' in english


def test_the_new_game_pages_saved_rules_are_chosen_in_spanish(client):
    from .test_rule_sets import TUESDAY

    assert client.post("/games", data=TUESDAY).status_code in (200, 303)
    page = client.get("/games/new", headers=SPANISH).get_data(as_text=True)
    assert ">Ninguna: los valores del reglamento</option>" in page
    assert ">Tuesday club (CLA)</option>" in page  # its preset by its name: CLA in every language
    assert "the preset's values" not in page
