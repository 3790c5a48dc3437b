"""The API describes itself: the OpenAPI 3.1 document at /api/openapi.json, valid, and true to the live app.

Every game and hand of tests/vectors/rules.json is sent through the API and each answer checked against the
document. Then schemathesis drives the live app (a fresh database from the `app` fixture) from it: every call it
makes must answer without a server error, with a status the document lists for that call and a body its schema
allows. Most calls name a real game, with its edit token, so they reach the rules and the database, not only 404
and 403.
"""

from __future__ import annotations

import collections
import json
import re
import zlib
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from scorepad import api
from tests.conftest import game_document

QUIET = {"sides": [{"natural_canastas": 2, "went_out": True, "count": 200}, {"mixed_canastas": 1, "count": 50}]}


def test_the_openapi_document_is_valid_openapi_3_1():
    document = json.loads(api.OPENAPI_DOCUMENT.read_text())
    assert document["openapi"].startswith("3.1.")
    validate(document)  # raises on any breach of the OpenAPI 3.1 specification


def test_the_openapi_document_is_served_as_written_with_an_etag_and_a_304(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.get_json() == json.loads(api.OPENAPI_DOCUMENT.read_text())
    assert response.headers["Cache-Control"] == "public, max-age=3600"
    tag = response.headers["ETag"]
    again = client.get("/api/openapi.json", headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.data == b""


def test_the_openapi_document_describes_every_api_route(app):
    document = json.loads(api.OPENAPI_DOCUMENT.read_text())
    described = {
        (path, method.upper())
        for path, item in document["paths"].items()
        for method in item
        if method in ("get", "put", "post", "delete", "patch")
    }
    routes = {
        (re.sub(r"<(?:int:)?(\w+)>", r"{\1}", rule.rule), method)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    assert described == routes


# --- Every game and hand of the rule vectors, through the API, answered as the document says -------------------

VECTORS = json.loads((Path(__file__).parent / "vectors" / "rules.json").read_text())
OPENAPI = json.loads(api.OPENAPI_DOCUMENT.read_text())
REGISTRY = Registry().with_resource("urn:scorepad:openapi", Resource.from_contents(OPENAPI, DRAFT202012))


def conforms(instance, schema: dict, what: str) -> None:
    """Fail with every breach if `instance` is not what `schema` (of the document, or a $ref into it) allows."""
    validator = OAS31Validator(schema, registry=REGISTRY)
    breaches = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(instance)]
    assert not breaches, (what, breaches)


def schema_named(name: str) -> dict:
    return {"$ref": f"urn:scorepad:openapi#/components/schemas/{name}"}


def resolved(item: dict, kind: str) -> dict:
    """A response or a header of the document, its $ref (to components) followed."""
    return OPENAPI["components"][kind][item["$ref"].rsplit("/", 1)[1]] if "$ref" in item else item


def answers_as_documented(response, method: str, path: str, what: str) -> None:
    """The answer's status is one the document lists for this call, with its headers and a body its schema allows."""
    listed = OPENAPI["paths"][path][method]["responses"]
    assert str(response.status_code) in listed, (what, method, path, response.status_code, response.get_json())
    answer = resolved(listed[str(response.status_code)], "responses")
    for name, header in answer.get("headers", {}).items():
        if resolved(header, "headers").get("required"):
            assert name in response.headers, (what, method, path, response.status_code, name)
    schema = answer["content"]["application/json"]["schema"]
    conforms(response.get_json(), {"$ref": "urn:scorepad:openapi" + schema["$ref"]}, what)


def vector_document(vector: dict) -> dict:
    return {
        "format": "scorepad-game",
        "version": 1,
        "rules": VECTORS["rule_sets"][vector["rules"]],
        "sides": vector["sides"],
        "first_dealer": vector["first_dealer"],
        "hands": vector["hands"],
    }


def test_every_vector_game_is_sent_and_answered_as_the_document_says(client):
    # tests/vectors/rules.json: every preset, table size and table rule, and every kind of entry.
    for vector in VECTORS["games"]:
        document = vector_document(vector)
        conforms(document, schema_named("GameInput"), vector["name"])
        created = client.post("/api/games", json=document)
        assert created.status_code == 201, (vector["name"], created.get_json())
        answers_as_documented(created, "post", "/api/games", vector["name"])
        read = client.get(f"/api/games/{created.get_json()['id']}")
        answers_as_documented(read, "get", "/api/games/{game_id}", vector["name"])


def test_every_vector_hand_is_sent_and_answered_as_the_document_says(client):
    # Hands the rules take and hands each of their checks refuses, each added to (or put in) its own game.
    for vector in VECTORS["checks"]:
        created = client.post("/api/games", json=vector_document(vector))
        assert created.status_code == 201, (vector["name"], created.get_json())
        game_id, auth = created.get_json()["id"], {"Authorization": f"Bearer {created.get_json()['edit_token']}"}
        if vector["position"] != len(vector["hands"]):  # in place of a hand, or one the game does not have (404)
            path, accepted = f"/api/games/{game_id}/hands/{vector['position']}", 200
            response = client.put(path, json=vector["hand"], headers=auth)
            answers_as_documented(response, "put", "/api/games/{game_id}/hands/{n}", vector["name"])
        else:
            path, accepted = f"/api/games/{game_id}/hands", 201
            response = client.post(path, json=vector["hand"], headers=auth)
            answers_as_documented(response, "post", "/api/games/{game_id}/hands", vector["name"])
        assert (response.status_code == accepted) == (not vector["expected"]), (vector["name"], response.status_code)
        if response.status_code == accepted:  # a hand the app takes is one the document describes
            conforms(vector["hand"], schema_named("HandInput"), vector["name"])


# --- schemathesis against the live app ---------------------------------------------------------------------


# The coverage phase sends every boundary of the document's valid input (each optional key left out, each enum,
# each minimum and maximum: ~300 calls to POST /api/games); invalid input comes from the fuzzing phase, bounded by
# max_examples below. All of it takes about a minute per database on a loaded machine.
SCHEMATHESIS = schemathesis.Config.from_dict({"phases": {"coverage": {"generation": {"mode": "positive"}}}})


# Answers that show a call reached a game and its hands, past 404 and 403: each call gives one of them at least
# once in a run (it gives several in every run seen; one is all that is certain with random input).
REACHED = {
    ("POST", "/api/games"): {201},
    ("GET", "/api/games/{game_id}"): {200},
    ("POST", "/api/games/{game_id}/hands"): {201},
    ("PUT", "/api/games/{game_id}/hands/{n}"): {200, 412, 422},
    ("DELETE", "/api/games/{game_id}/hands/{n}"): {200, 412, 422},
}


@pytest.fixture
def api_schema(app):
    """The app's own OpenAPI document, read from the live app, and two real games to aim at (schema.games).

    After the run, each call has given one of its answers in REACHED (schema.answered)."""
    client = app.test_client()
    games = []
    for document in (
        game_document(hands=[QUIET, QUIET]),  # modern, two partnerships: hands 0 and 1 to replace or delete
        game_document("classic", sides=[{"name": n, "players": [n + "1", n + "2"]} for n in ("A", "B", "C")]),
    ):
        response = client.post("/api/games", json=document)
        assert response.status_code == 201, response.get_json()
        games.append((response.get_json()["id"], response.get_json()["edit_token"]))
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=SCHEMATHESIS)
    schema.games = games
    schema.answered = collections.defaultdict(set)
    yield schema
    answered = schema.answered
    unreached = {call: answered[call] for call, statuses in REACHED.items() if not statuses & answered[call]}
    assert not unreached, f"calls that never reached a game (what they answered): {unreached}"


schema = schemathesis.pytest.from_fixture("api_schema")


def aim(case, games: list[tuple[str, str]]) -> str:
    """Point most calls at a real game and a hand it may have, and return the token to send.

    A random id would only ever meet 404, and a random token 403. Chosen from what was generated (so Hypothesis
    replays a failure as it was): 1 call in 16 keeps its generated id (404), 1 in 16 sends a wrong token (403),
    the rest reach the game with its edit token; a hand number past 2 is mostly brought back to 0, 1 or 2.
    """
    parameters = case.path_parameters or {}
    if "game_id" not in parameters:
        return "not-a-token"
    draw = zlib.crc32(repr(sorted(parameters.items())).encode())
    if draw % 16 == 0:
        return "not-a-token"
    game_id, token = games[(draw >> 4) % len(games)]
    parameters["game_id"] = game_id
    n = parameters.get("n")
    if isinstance(n, int) and n > 2 and (draw >> 6) % 4:
        parameters["n"] = n % 3
    return token if draw % 16 != 1 else "not-" + token


@schema.parametrize()
# No deadline and no health check: on a loaded machine generating a whole game document is slow, and what is
# checked here is the answers.
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_live_api_answers_as_its_openapi_document_says(case, api_schema):
    token = aim(case, api_schema.games)
    response = case.call_and_validate(
        # schemathesis's WSGI client reads the body as sent: ask for it uncompressed.
        headers={"Authorization": f"Bearer {token}", "Accept-Encoding": "identity"},
        checks=[
            not_a_server_error,
            status_code_conformance,
            response_schema_conformance,
            content_type_conformance,
            response_headers_conformance,
        ],
    )
    api_schema.answered[(case.method.upper(), case.path)].add(response.status_code)
