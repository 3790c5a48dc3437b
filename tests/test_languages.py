"""Four languages (docs/i18n.md): the catalogues complete, the page's language (the phone's, or the one chosen on it),
numbers as each language writes them, the rules' and the API's messages translated, and pages kept per language.

The figures: docs/api.md's example hand (tests/test_api.py EXAMPLE, worked out there by hand from docs/rules.md)
scores Us 1,685 and Them −2,060. With 9,865 and −45 brought forward from paper (docs/api.md `brought_forward`,
in 5s, below the target of 15,000), the totals after it are 9,865 + 1,685 = 11,550 and −45 − 2,060 = −2,105:
written 11,550 and −2,105 in English, 11.550 and −2.105 in Spanish, Portuguese and Italian.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from tests.conftest import game_document
from tests.test_api import EXAMPLE

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("es", "pt_BR", "it")
SPANISH = {"Accept-Language": "es-UY,es;q=0.9,en;q=0.5"}
ENGLISH = {"Accept-Language": "en-US,en;q=0.9"}
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+(?::,)?\}|#")


def catalogue(language: str):
    with open(ROOT / "translations" / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=language)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> set:
    """Every string of the code and templates as extracted now (babel.cfg), whatever the .po files say."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "-F", "babel.cfg", "-k", "lazy_gettext"]
        + ["-k", "Message", "--no-location", "-o", str(pot), "."],
        cwd=ROOT,
        check=True,
    )
    with open(pot, "rb") as handle:
        return {message.id for message in read_po(handle) if message.id}


# --- The catalogues: complete, and kept complete ------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_is_translated_and_none_is_fuzzy(language, extracted):
    translated = catalogue(language)
    entries = {message.id: message for message in translated if message.id}
    missing = sorted(str(key) for key in extracted if key not in entries)
    assert not missing, f"{language}: not in the catalogue (run scripts/i18n.sh, then translate): {missing}"
    untranslated = [str(m.id) for m in entries.values() if not all(m.string if m.pluralizable else [m.string])]
    fuzzy = [str(m.id) for m in entries.values() if m.fuzzy]
    assert not untranslated, f"{language}: untranslated: {untranslated}"
    assert not fuzzy, f"{language}: fuzzy (check the translation, then drop the flag): {fuzzy}"
    assert not translated.fuzzy, f"{language}: the catalogue's header is marked fuzzy"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_translation_keeps_the_placeholders_of_its_english(language):
    read = catalogue(language)  # read once: reading it again for each message's check took half a minute
    for message in read:
        if not message.id:
            continue
        english = message.id[-1] if isinstance(message.id, tuple) else message.id
        one = set(PLACEHOLDER.findall(message.id[0] if isinstance(message.id, tuple) else english))
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for n, form in enumerate(forms):
            found, every = set(PLACEHOLDER.findall(form)), set(PLACEHOLDER.findall(english))
            # The first form (one) may leave out what the English singular leaves out: "the hand after it" has no count.
            assert one <= found <= every if n == 0 else found == every, (language, message.id, form)
        assert not list(message.check(read)), (language, message.id)  # Babel's own checks


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_mo_files_are_the_catalogues_compiled(language):
    """The app reads the .mo files; they are committed (a host that only installs gets every language), so they must
    be what the .po files compile to (scripts/i18n.sh)."""
    from io import BytesIO

    compiled = BytesIO()
    write_mo(compiled, catalogue(language))
    committed = (ROOT / "translations" / language / "LC_MESSAGES" / "messages.mo").read_bytes()
    assert committed == compiled.getvalue(), f"{language}: run scripts/i18n.sh compile"


def test_msgfmt_finds_every_message_translated():
    """GNU msgfmt's own count (scripts/test.sh installs gettext): every message translated, none fuzzy."""
    for language in LANGUAGES:
        po = ROOT / "translations" / language / "LC_MESSAGES" / "messages.po"
        result = subprocess.run(
            ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)], capture_output=True, text=True
        )
        assert result.returncode == 0, result.stderr
        assert re.fullmatch(r"\d+ translated messages\.\n", result.stderr), (language, result.stderr)


# --- The page's language --------------------------------------------------------------------------------


def played(client) -> str:
    """A game at 11,550 to −2,105 after one hand (the module's docstring)."""
    doc = game_document(hands=[EXAMPLE], target=15000)
    doc["brought_forward"] = [9865, -45]
    response = client.post("/api/games", json=doc)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["totals"] == [11550, -2105]
    return response.get_json()["id"]


def test_accept_language_es_gives_a_spanish_page_with_numbers_as_spanish_players_write_them(client):
    game = played(client)
    page = client.get(f"/games/{game}", headers=SPANISH)
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert '<html lang="es"' in text and page.headers["Content-Language"] == "es"
    assert ">Unirse a una partida</a>" in text and ">Join a game</a>" not in text
    assert ">11.550<" in text and ">\u22122.105<" in text
    assert "11,550" not in text and "2,105" not in text
    assert "Vary" in page.headers and {"accept-language", "cookie"} <= {
        name.strip().lower() for name in page.headers["Vary"].split(",")
    }


@pytest.mark.parametrize(
    ("header", "lang", "words"),
    [
        ("pt-BR,pt;q=0.9", "pt-BR", "Entrar numa partida"),
        ("pt-PT", "pt-BR", "Entrar numa partida"),  # any Portuguese is Brazilian Portuguese
        ("it-IT,it;q=0.8", "it", "Entra in una partita"),
        ("es-AR", "es", "Unirse a una partida"),
        ("fr-FR,de;q=0.8", "en", "Join a game"),  # none of ours: English
        ("fr-FR,it;q=0.5", "it", "Entra in una partita"),  # the first of ours the phone names
    ],
)
def test_the_phones_language_is_matched_to_one_of_ours(client, header, lang, words):
    text = client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
    assert f'<html lang="{lang}"' in text and words in text


def test_the_numbers_of_each_language(client):
    game = played(client)
    for header, total, behind in (
        ("en", "11,550", "\u22122,105"),
        ("es", "11.550", "\u22122.105"),
        ("pt-BR", "11.550", "\u22122.105"),
        ("it", "11.550", "\u22122.105"),
    ):
        text = client.get(f"/games/{game}", headers={"Accept-Language": header}).get_data(as_text=True)
        assert f">{total}<" in text and f">{behind}<" in text, header


def test_the_language_chosen_on_the_phone_wins_over_the_phones_own_and_is_remembered(client):
    game = played(client)
    chosen = client.get(f"/language/it?next=/games/{game}", headers=SPANISH)
    assert chosen.status_code == 303 and chosen.headers["Location"] == f"/games/{game}"
    cookie = chosen.headers["Set-Cookie"]
    assert cookie.startswith("lang=it;") and "Max-Age=34560000" in cookie and "HttpOnly" in cookie
    for _ in range(2):  # remembered: every page after it
        text = client.get(f"/games/{game}", headers=SPANISH).get_data(as_text=True)
        assert '<html lang="it"' in text and "Entra in una partita" in text and ">11.550<" in text
    back = client.get("/language/en?next=/", headers=SPANISH)
    assert back.headers["Location"] == "/"
    assert '<html lang="en"' in client.get("/", headers=SPANISH).get_data(as_text=True)


def test_the_chooser_names_each_language_by_its_own_name_and_marks_the_pages(client):
    text = client.get("/", headers=SPANISH).get_data(as_text=True)
    chooser = text[text.index('<footer class="language-chooser">') :]
    for name in ("English", "Español", "Português", "Italiano"):
        assert f">{name}</a>" in chooser
    assert re.search(r'href="/language/es\?next=/"[^>]*aria-current="true">Español<', chooser)


@pytest.mark.parametrize("away", ["https://elsewhere.example/", "//elsewhere.example/x", "/\\elsewhere.example", ""])
def test_the_chooser_only_goes_back_to_a_page_of_this_site(client, away):
    response = client.get("/language/es", query_string={"next": away})
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_a_language_we_do_not_speak_is_not_remembered(client):
    response = client.get("/language/fr?next=/")
    assert response.status_code == 404 and "Set-Cookie" not in response.headers
    client.set_cookie("lang", "fr")  # a cookie from elsewhere: the phone's own language instead
    assert '<html lang="es"' in client.get("/", headers=SPANISH).get_data(as_text=True)


# --- Pages kept per language -------------------------------------------------------------------------


def test_a_page_kept_for_a_revision_is_never_given_to_a_phone_in_another_language(client):
    game = played(client)
    spanish = client.get(f"/games/{game}", headers=SPANISH)
    english = client.get(f"/games/{game}", headers=ENGLISH)  # the same game at the same revision, kept once made
    assert ">Join a game</a>" in english.get_data(as_text=True) and ">11,550<" in english.get_data(as_text=True)
    assert "Unirse" not in english.get_data(as_text=True) and ">11.550<" not in english.get_data(as_text=True)
    assert spanish.headers["ETag"] != english.headers["ETag"]
    # An English phone naming the Spanish page's ETag gets the English page, not a 304 for the Spanish one.
    again = client.get(f"/games/{game}", headers={**ENGLISH, "If-None-Match": spanish.headers["ETag"]})
    assert again.status_code == 200 and ">Join a game</a>" in again.get_data(as_text=True)
    # And each phone still gets its own page from what is kept: Spanish again, then its 304.
    kept = client.get(f"/games/{game}", headers=SPANISH)
    assert kept.get_data() == spanish.get_data()
    same = client.get(f"/games/{game}", headers={**SPANISH, "If-None-Match": spanish.headers["ETag"]})
    assert same.status_code == 304


def test_the_scoreboards_fragment_is_kept_per_language(client):
    game = played(client)
    fragment = {"HX-Request": "true", "HX-Target": "scoreboard"}
    spanish = client.get(f"/games/{game}/scoreboard/live", headers={**SPANISH, **fragment})
    english = client.get(f"/games/{game}/scoreboard/live", headers={**ENGLISH, **fragment})
    assert spanish.status_code == english.status_code == 200
    assert "11.550" in spanish.get_data(as_text=True) and "11,550" in english.get_data(as_text=True)


def test_the_service_workers_cache_and_the_manifest_follow_the_language(client):
    spanish = client.get("/sw.js", headers=SPANISH).get_data(as_text=True)
    english = client.get("/sw.js", headers=ENGLISH)
    assert re.search(r'const CACHE_NAME = "scorepad-[0-9a-f]{12}-es";', spanish)
    assert re.search(r'const CACHE_NAME = "scorepad-[0-9a-f]{12}-en";', english.get_data(as_text=True))
    assert "Accept-Language" in english.headers["Vary"] and "Cookie" in english.headers["Vary"]
    page = client.get("/", headers=SPANISH).get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=es">' in page
    manifest = client.get("/manifest.webmanifest?lang=pt_BR", headers=SPANISH).get_json()
    assert manifest["lang"] == "pt-BR" and manifest["description"].startswith("A folha de pontos de canastra")
    assert client.get("/manifest.webmanifest").get_json()["description"].startswith("The canasta scoresheet")


# --- Messages: the rules', the pages' and the API's -------------------------------------------------------


def test_an_api_error_comes_in_spanish_for_accept_language_es_with_its_field_unchanged(client):
    both_out = {"sides": [{"went_out": True, "mixed_canastas": 2}, {"went_out": True, "mixed_canastas": 2}]}
    refused = {}
    for header in (ENGLISH, SPANISH):
        response = client.post("/api/games", json=game_document(hands=[both_out]), headers=header)
        assert response.status_code == 422
        refused[header["Accept-Language"][:2]] = response.get_json()["errors"]
    english, spanish = refused["en"], refused["es"]
    assert [e["field"] for e in english] == [e["field"] for e in spanish]
    assert {"field": "hands.0", "message": "Only one side can go out."} in english
    assert {"field": "hands.0", "message": "Solo un equipo puede cerrar."} in spanish
    missing = client.get("/api/games/no-such-game", headers=SPANISH)
    assert missing.status_code == 404
    assert missing.get_json()["errors"][0]["message"] == "No hay ninguna partida con ese id."


def test_a_rules_message_writes_its_figures_as_the_language_does(client):
    doc = game_document()
    doc["brought_forward"] = [-2103, 0]  # not in 5s: the nearest below is −2,105 (−2,103 − 2 as Python's % gives it)
    for header, message in (
        (ENGLISH, "Us's total brought forward is -2,103: canasta scores go in 5s, like -2,105."),
        (SPANISH, "El total que trae Us es \u22122.103: en la canasta los puntos van de 5 en 5, como \u22122.105."),
        (
            {"Accept-Language": "it"},
            "Il totale riportato di Us è \u22122.103: a canasta i punti vanno di 5 in 5, come \u22122.105.",
        ),
    ):
        response = client.post("/api/games", json=doc, headers=header)
        assert response.status_code == 422
        assert {"field": "brought_forward.0", "message": message} in response.get_json()["errors"]


def test_the_api_follows_accept_language_alone_not_the_pages_cookie(client):
    client.get("/language/it?next=/")
    response = client.get("/api/games/no-such-game", headers=SPANISH)
    assert response.get_json()["errors"][0]["message"] == "No hay ninguna partida con ese id."


def test_a_page_shows_a_rules_message_in_its_language(client):
    """A message the rules made, shown on a page (Jinja's finalize: web.translated), numbers included."""
    from scorepad import web
    from scorepad.rules.errors import Message

    message = Message("The Count can't be more than the whole pack's {points:,} points.", points=4620)
    assert message == "The Count can't be more than the whole pack's 4,620 points."
    app = client.application
    with app.test_request_context("/", headers=SPANISH):
        rendered = app.jinja_env.from_string("<p>{{ message }}</p>").render(message=message)
        assert rendered == "<p>El conteo no puede pasar de los 4.620 puntos de todo el mazo.</p>"
        assert web.translated("plain words") == "plain words"
    with app.test_request_context("/", headers=ENGLISH):
        english = app.jinja_env.from_string("{{ message }}").render(message=message)
        assert english == "The Count can&#39;t be more than the whole pack&#39;s 4,620 points."  # escaped, as ever


def test_the_404_page_is_in_the_phones_language(client):
    response = client.get("/games/no-such-game", headers={"Accept-Language": "pt-BR"})
    assert response.status_code == 404
    text = response.get_data(as_text=True)
    assert "<h1>Não encontrado</h1>" in text and "Não há nenhuma partida neste endereço" in text
    english = client.get("/games/no-such-game", headers=ENGLISH).get_data(as_text=True)
    assert "<h1>Not Found</h1>" in english and "There is no game at this address" in english


def test_the_charts_sentence_is_in_the_pages_language(client):
    game = played(client)
    text = client.get(f"/games/{game}", headers=SPANISH).get_data(as_text=True)
    assert "Va ganando Us, 11.550 a \u22122.105, tras 1 mano." in text
    assert "La partida en un gráfico" in text and "15.000 para ganar" in text
