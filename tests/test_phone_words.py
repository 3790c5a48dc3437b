"""The phone's words (docs/i18n.md, "The phone's scripts"): the messages and labels of the scripts in assets/js, sent as
data per language (/messages.<lang>.json, web.phone_words), named by every page's script tag, kept by the service
worker; the rules' refusals said with the same templates as the server's (tests/e2e/test_rules_js.py holds the phone to
every vector in English and Spanish), and the server's own messages in the page's language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import brotli
import pytest
from babel.messages.pofile import read_po

from scorepad import document, rules, web
from scorepad.rules.errors import Message, Plural

ROOT = Path(__file__).resolve().parent.parent
SPANISH = {"Accept-Language": "es-UY,es;q=0.9"}
PORTUGUESE = {"Accept-Language": "pt-BR"}
SAME_EVERYWHERE = ("worth", "baseOf")  # "(+2,500)", "Base 1,285": the same words in every language


def words_url(page: str) -> str:
    found = re.search(r'data-words="([^"]+)"', page)
    assert found, "the page's script tag names no words"
    return found.group(1).replace("&amp;", "&")


def test_a_reported_base_beside_other_entries_names_them_in_the_phone_s_language(client, api_game):
    # A defect the Spanish vectors found: the entries listed beside a reported Base stayed in English.
    game_id, _, auth = api_game
    hand = {"sides": [{"reported_base": 100, "red_threes": 1, "went_out": True, "count": 50}, {"count": -20}]}
    answer = client.post(f"/api/games/{game_id}/hands", json=hand, headers={**auth, **SPANISH})
    assert answer.status_code == 422
    messages = [error["message"] for error in answer.get_json()["errors"]]
    assert any("(3 rojos, Cerró)" in message for message in messages), messages
    english = client.post(f"/api/games/{game_id}/hands", json=hand, headers=auth).get_json()["errors"]
    assert any("(Red 3s, Went out)" in error["message"] for error in english), english


@pytest.mark.parametrize(("headers", "language"), [({}, "en"), (SPANISH, "es"), (PORTUGUESE, "pt_BR")])
def test_every_page_names_the_words_of_its_own_language(client, headers, language):
    url = words_url(client.get("/", headers=headers).get_data(as_text=True))
    assert url.startswith(f"/messages.{language}.json?v=")
    answer = client.get(url)
    assert answer.status_code == 200
    assert answer.mimetype == "application/json"
    assert answer.headers["Content-Language"] == web.HTML_LANG[language]
    # The address names the language: one copy for every phone, kept a year (a new tag is a new address).
    assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert "Accept-Language" not in answer.headers.get("Vary", "")


def test_the_words_are_the_page_s_language_s_and_never_another_s(client):
    english = client.get(words_url(client.get("/").get_data(as_text=True))).get_json()
    spanish = client.get(words_url(client.get("/", headers=SPANISH).get_data(as_text=True))).get_json()
    assert english["m"]["neg"] == "{label}: can't be negative."
    assert spanish["m"]["neg"] == "{label}: no puede ser negativo."
    assert (english["f"]["red_threes"], spanish["f"]["red_threes"]) == ("Red 3s", "3 rojos")
    assert (english["g"], spanish["g"]) == (",", ".")  # 1,685 and 1.685
    # A count's words in each language's forms: [one, many]; Portuguese says 0 in the singular.
    assert english["m"]["withN"] == ["Figures with {count} hand", "Figures with {count} hands"]
    assert not english["p"] and not spanish["p"]
    assert client.get("/messages.pt_BR.json").get_json()["p"]
    # The address says which language, whatever the phone's: an English phone asking for the Spanish words gets them.
    assert client.get("/messages.es.json").get_json()["m"]["neg"] == spanish["m"]["neg"]
    assert client.get("/messages.fr.json").status_code == 404


def test_the_words_go_compressed_once_as_tightly_as_brotli_can(client):
    plain = client.get("/messages.it.json")
    packed = client.get("/messages.it.json", headers={"Accept-Encoding": "gzip, br"})
    assert packed.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert brotli.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) / 2


def test_the_words_asked_without_their_tag_are_checked_each_time(client):
    answer = client.get("/messages.es.json")
    assert answer.headers["Cache-Control"] == "no-cache"
    again = client.get("/messages.es.json", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


def test_the_service_worker_keeps_the_words_of_its_language(client):
    for headers, language in (({}, "en"), (SPANISH, "es")):
        worker = client.get("/sw.js", headers=headers).get_data(as_text=True)
        page = client.get("/", headers=headers).get_data(as_text=True)
        kept = json.loads(re.search(r"const WORDS_URL = (.+);", worker).group(1))
        assert kept == words_url(page)  # the very address the pages ask for
        assert kept.startswith(f"/messages.{language}.json?v=")
        assert "cache.addAll([...PRECACHE, OFFLINE_URL, WORDS_URL])" in worker


def test_every_message_the_phone_says_is_in_the_catalogue_in_every_language(app):
    # Each template is one the server says (a msgid of translations/messages.pot), so it is translated once, there.
    with open(ROOT / "translations" / "messages.pot", "rb") as pot:
        ids = {message.id if isinstance(message.id, str) else message.id[0] for message in read_po(pot)}
    for key, text in web.PHONE_MESSAGES.items():
        assert (text.text if isinstance(text, Message) else text) in ids, key
    with app.app_context():
        for language in ("es", "pt_BR", "it"):
            said = web.phone_words(language)["m"]
            english = web.phone_words("en")["m"]
            same = [key for key in web.PHONE_MESSAGES if said[key] == english[key] and key not in SAME_EVERYWHERE]
            assert not same, f"{language}: said in English: {same}"


def test_the_rules_data_is_the_rule_catalogue_and_its_words_the_rules_own(app):
    with app.app_context():
        words = web.phone_words("en")
    assert words["k"] == rules.phone_json()
    assert [field[0] for field in words["k"]["fields"]] == list(rules.SIDE_FIELDS)  # the order problems come in
    assert words["f"] == rules.FIELD_LABELS
    assert words["c"] == rules.CARD_LABELS
    assert words["w"] == rules.WILD_CANASTA_NAMES
    assert words["r"] == {key: preset.name for key, preset in rules.PRESETS.items()}
    assert words["s"] == rules.SPECIAL_HAND_NAMES


@pytest.mark.parametrize("language", ["en", "es", "pt_BR", "it"])
def test_a_hand_s_shape_is_refused_by_the_phone_in_the_server_s_own_words(app, language):
    # document.py's refusals of a hand's shape, with their JSON examples put in by the server: the phone fills in only
    # what it knows (a label, a count), so it needs no words of its own and agrees with the server in every language.
    shapes = {
        "gridS": document.GRID_SHAPE,
        "gridN": document.GRID_NUMBERS,
        "handS": document.HAND_SHAPE,
        "sidesL": document.SIDES_LISTED,
        "sideS": document.SIDE_SHAPE,
    }
    with app.app_context():
        words = web.phone_words(language)
    with app.test_request_context("/", headers={"Accept-Language": web.HTML_LANG[language]}):
        for key, message in shapes.items():
            assert words["m"][key] == str(web.translated(message)), key
        label = rules.FIELD_LABELS["went_out"]
        said = words["m"]["yesNo"].replace("{label}", words["f"]["went_out"])
        assert said == str(web.translated(Message("{label}: true or false.", label=label)))
        ends = web.PHONE_MESSAGES["ends"]
        for count, template in zip((1, 2), words["m"]["ends"], strict=True):
            server = Plural(ends.text, ends.many, count, after=3)
            assert template.replace("{after}", "3").replace("{count}", str(count)) == str(web.translated(server))
    assert "e" not in words  # the English labels the phone once kept for these messages
    assert '{"jokers": 1}' in words["m"]["gridN"]
