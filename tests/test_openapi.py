"""The API describes itself: the OpenAPI 3.1 document at /api/openapi.json, valid and served as written."""

from __future__ import annotations

import json

from openapi_spec_validator import validate

from scorepad import api


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
        (rule.rule.replace("<game_id>", "{game_id}").replace("<int:n>", "{n}"), method)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    assert described == routes
