"""The browser's copy of the rules (assets/js/rules.js) gives the Python rules' figures and problems.

Every vector of tests/vectors/rules.json (scripts/rule_vectors.py, from the Python side) is run in Chromium, on the
script the app serves (static/js/scorepad.min.js, built from assets/js/ with the rules in it), with the rules' data
and words the app sends a phone (web.phone_words): every message as the server says it, in English and in Spanish.
A mismatch is reported by the vector's name. A game made through the live API is scored in the page too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page

from scorepad import create_app, web

ROOT = Path(__file__).resolve().parent.parent.parent
RULES_JS = ROOT / "static" / "js" / "scorepad.min.js"  # what is shipped: the rules as built, with the rest
VECTORS = json.loads((ROOT / "tests" / "vectors" / "rules.json").read_text(encoding="utf-8"))

RUN_EVERY_VECTOR = """(vectors) => {
  const doc = (v) => ({rules: vectors.rule_sets[v.rules], sides: v.sides, first_dealer: v.first_dealer,
                       brought_forward: v.brought_forward, hands: v.hands});
  return {
    games: vectors.games.map((v) => ScorepadRules.scoreGame(doc(v))),
    checks: vectors.checks.map((v) => ScorepadRules.checkHand(doc(v), v.hand, v.position)),
  };
}"""


@pytest.fixture(scope="module")
def phone_words() -> dict[str, dict]:
    """The rules' data and words a phone gets (/messages.<lang>.json), in English and Spanish."""
    app = create_app({"SECRET_KEY": "words", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    with app.app_context():
        return {language: json.loads(web.phone_words_json(language)[0]) for language in ("en", "es")}


def with_rules_js(page: Page, words: dict) -> Page:
    """A blank page with the built script loaded, as a plain script, and the rules' data and words given to it."""
    page.set_content("<!doctype html><title>rules.js</title>")
    page.add_script_tag(path=str(RULES_JS))
    page.evaluate("(words) => ScorepadRules.useWords(words)", words)
    return page


def mismatches(kind: str, got: list, vectors: list) -> list[str]:
    """Each vector whose answer differs, named, with both answers (the first few)."""
    assert len(got) == len(vectors)
    found = [
        f"{kind} {vector['name']!r}:\n  rules.js: {json.dumps(answer)}\n  Python:   {json.dumps(vector['expected'])}"
        for answer, vector in zip(got, vectors, strict=True)
        if answer != vector["expected"]
    ]
    return found[:5] + ([f"... and {len(found) - 5} more"] if len(found) > 5 else [])


def test_every_vector_gets_the_python_figures_and_problems(page: Page, phone_words):
    answers = with_rules_js(page, phone_words["en"]).evaluate(RUN_EVERY_VECTOR, VECTORS)
    wrong = mismatches("game", answers["games"], VECTORS["games"])
    wrong += mismatches("hand", answers["checks"], VECTORS["checks"])
    assert not wrong, "rules.js differs from the Python rules:\n" + "\n".join(wrong)


def test_every_refusal_is_the_server_s_in_spanish_too(page: Page, phone_words):
    # The same checks with the Spanish words: each message as the API says it to a Spanish phone, its numbers written
    # as Spanish writes them (1.234) and its labels Spanish, a hand's shape and its place in the game included.
    answers = with_rules_js(page, phone_words["es"]).evaluate(RUN_EVERY_VECTOR, VECTORS)
    said = [[problem["message"] for problem in answer] for answer in answers["checks"]]
    wrong = [
        f"{vector['name']!r}:\n  rules.js: {json.dumps(got, ensure_ascii=False)}\n"
        f"  Python:   {json.dumps(vector['expected_es'], ensure_ascii=False)}"
        for got, vector in zip(said, VECTORS["checks"], strict=True)
        if got != vector["expected_es"]
    ]
    assert not wrong, "rules.js says it differently in Spanish:\n" + "\n".join(wrong[:5])
    assert sum(vector["expected"] != [] for vector in VECTORS["checks"]) > 40  # a real comparison: many refusals


def test_a_game_read_from_the_live_api_scores_and_refuses_as_the_server_does(page: Page, live_server: str):
    game = {
        "format": "scorepad-game",
        "version": 1,
        "rules": {"preset": "modern", "target": 2000, "values": {"going_out": 150}},
        "sides": [{"name": "Us", "players": ["Ann", "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}],
        "hands": [
            {"sides": [{"red_threes": 1, "natural_canastas": 2, "went_out": True, "count": 120}, {"count": -35}]},
            {"sides": [{"black_threes": 2, "count": -50}, {"natural_canastas": 1, "mixed_canastas": 1, "count": 95}]},
        ],
    }
    created = page.request.post(live_server + "/api/games", data=game)
    assert created.status == 201, created.text()
    game_id, token = created.json()["id"], created.json()["edit_token"]
    document = page.request.get(f"{live_server}/api/games/{game_id}").json()
    refused_hand = {"sides": [{"went_out": True, "count": 7}, {"went_out": True, "natural_canastas": 2}]}
    refused = page.request.post(
        f"{live_server}/api/games/{game_id}/hands", data=refused_hand, headers={"Authorization": f"Bearer {token}"}
    )
    assert refused.status == 422

    page.goto(live_server + "/")  # the page loads the rules as the app serves them (static/js/scorepad.min.js)
    page.wait_for_load_state("networkidle")  # and their data and words (/messages.en.json)
    score, problems = page.evaluate(
        "([doc, hand]) => [ScorepadRules.scoreGame(doc), ScorepadRules.checkHand(doc, hand, doc.hands.length)]",
        [document, refused_hand],
    )
    assert score["hands"] == [
        {"dealer": hand["dealer"], "sides": [side["result"] for side in hand["sides"]]} for hand in document["hands"]
    ]
    for key in ("totals", "min_count", "next_dealer", "status", "winner", "winners"):
        assert score[key] == document[key], key
    assert [{"field": p["field"], "message": p["message"]} for p in problems] == refused.json()["errors"]
