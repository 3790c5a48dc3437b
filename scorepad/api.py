"""The JSON API of docs/api.md: create and read games, add, replace and delete hands."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from . import delivery, document, service, store, web
from .errors import error_json
from .rules import RuleError

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.before_request
def require_json_body() -> None:
    """A body sent to the API is JSON, declared so (415 otherwise): a page of another site can post a form as
    text/plain without asking, but not as application/json."""
    if request.method in ("POST", "PUT", "PATCH") and request.mimetype != "application/json":
        if request.mimetype:
            abort(
                415,
                gettext(
                    "Send the body as JSON, with the header Content-Type: application/json (this one was %(type)s).",
                    type=request.mimetype,
                ),
            )
        abort(415, gettext("Send the body as JSON, with the header Content-Type: application/json."))


@bp.errorhandler(RuleError)
def rule_error(error: RuleError) -> ResponseReturnValue:
    """A document or hand the rules refuse: 422 with every problem and its field, each message in the language of
    Accept-Language (web.translated; the fields' paths as they are)."""
    current_app.logger.info(
        "Refused %s %s: %s",
        request.method,
        request.path,
        "; ".join(f"{document.field_name(p.path)}: {p.message}" for p in error.problems),
    )
    errors = [
        {**found, "message": web.translated(problem.message)}
        for found, problem in zip(document.errors_json(error), error.problems, strict=True)
    ]
    return jsonify({"errors": errors}), 422


@bp.errorhandler(document.FormatError)
def format_error(error: document.FormatError) -> ResponseReturnValue:
    """Not a game document this version reads: 400, said in the language of Accept-Language (web.translated)."""
    return error_json(400, str(web.translated(error.args[0])) if error.args else str(error))


@bp.errorhandler(store.GameNotFound)
def not_found(error: store.GameNotFound) -> ResponseReturnValue:
    """An unknown game: 404."""
    return error_json(404, gettext("There is no game with that id."))


@bp.errorhandler(store.GameFinished)
def finished(error: store.GameFinished) -> ResponseReturnValue:
    """A hand sent to a finished game: 409."""
    return error_json(409, gettext("This game is over: no more hands can be added."))


@bp.errorhandler(store.EditConflict)
def conflict(error: store.EditConflict) -> ResponseReturnValue:
    """Someone else changed the game at the same moment: 409, try again."""
    current_app.logger.info("Edit conflict on %s %s", request.method, request.path)
    if request.if_match:  # the game changed between the check of If-Match and the write
        return stale_revision(error)
    return error_json(409, gettext("The game was changed by someone else at the same moment. Reload it and try again."))


class StaleRevision(Exception):
    """If-Match names a revision the game has moved on from."""


@bp.errorhandler(StaleRevision)
def stale_revision(error: StaleRevision | store.EditConflict) -> ResponseReturnValue:
    """A PUT or DELETE for an older revision of the game: 412, nothing changed."""
    current_app.logger.info("Stale If-Match on %s %s", request.method, request.path)
    return error_json(
        412,
        gettext(
            "The game has changed since you read it (If-Match names an older revision): nothing was changed. "
            "Read the game again, then send your change."
        ),
    )


def _check_if_match(stored: store.Stored) -> None:
    """A PUT or DELETE with If-Match: "<revision>" applies only to the game at that revision (412 otherwise)."""
    if request.if_match and not delivery.names_revision(request.if_match, stored.record.version):
        raise StaleRevision()


def _with_etag(response: Response, stored: store.Stored) -> Response:
    """The answer with the game's revision as its ETag (what If-Match names)."""
    response.set_etag(str(stored.record.version))
    return response


# The API described for tools (OpenAPI 3.1), written by hand beside this module: docs/api.md says it in words.
OPENAPI_DOCUMENT = Path(__file__).with_name("openapi.json")
# How long a client or a proxy may keep it without asking again; a deploy that changes it changes its ETag.
OPENAPI_MAX_AGE = 60 * 60


@functools.cache
def _openapi() -> tuple[bytes, str]:
    """The OpenAPI document as served, and its ETag (a hash of it): read once per process."""
    body = OPENAPI_DOCUMENT.read_bytes()
    return body, hashlib.sha256(body).hexdigest()[:16]


@bp.get("/openapi.json")
def openapi() -> ResponseReturnValue:
    """The OpenAPI 3.1 document of this API: kept an hour, then asked again with its ETag (304 if unchanged)."""
    body, tag = _openapi()
    response = current_app.response_class(body, mimetype="application/json")
    response.set_etag(tag)
    response.cache_control.public = True
    response.cache_control.max_age = OPENAPI_MAX_AGE
    return response.make_conditional(request)


def _json_body() -> Any:
    """The request's JSON body, whatever its shape: the document's parsers judge it (FormatError: 400)."""
    return document.load_json(request.get_data())


def _editable(game_id: str) -> store.Stored:
    """The game, if the request carries its edit token (404 before 403: no token reveals a game)."""
    stored = store.load_game(game_id)
    _require_token(stored)
    return stored


def _require_token(stored: store.Stored) -> None:
    """403 unless the request carries the game's edit token."""
    header = request.headers.get("Authorization", "")
    token = header[len("Bearer ") :].strip() if header.startswith("Bearer ") else None
    if not store.token_matches(stored, token):
        abort(403, gettext("This call needs the game's edit token: Authorization: Bearer <edit_token>."))


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    """Create a game from a document (hands may be empty); 201 with the edit token and links."""
    game = document.parse_document(_json_body())
    stored, token = store.create_game(game)
    body = {**stored.document(), "edit_token": token, "links": web.game_links(stored.id, token)}
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = url_for("api.get_game", game_id=stored.id)
    return response


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> ResponseReturnValue:
    """The game document with every output; its ETag is the game's revision (docs/api.md)."""
    revision = store.game_revision(game_id)
    seen = delivery.revision_match(revision) if revision is not None else None
    if seen is not None:  # the caller has this revision: 304 without reading or scoring the game
        return delivery.not_modified(seen.split(":", 1)[0], weak=False)
    if revision is None:
        raise store.GameNotFound(game_id)
    # Made once per revision of the game (delivery.made_once), then reused until its next change.
    response = delivery.made_once(("document", revision), lambda: jsonify(store.load_game(game_id).document()))
    delivery.for_anyone(
        game_id, revision, other_tags=False
    )  # the same for every caller: no token is needed to read a game
    return delivery.strong_tag(response, str(revision))


@bp.post("/games/<game_id>/hands")
def add_hand(game_id: str) -> ResponseReturnValue:
    """Add the next hand: stored after whatever was stored before it, even at the same moment (docs/api.md). With
    an Idempotency-Key a repeated call stores nothing and answers with the game as it is now."""
    key = request.headers.get("Idempotency-Key") or None
    problem = store.idempotency_key_problem(key) if key else None
    # One read: the game, its hands and the key's answer (the save then writes once: service.add_hand).
    held = store.read_for_change(game_id, key=None if problem else key)
    _require_token(held.stored)
    if problem:
        abort(400, str(web.translated(problem)))
    appended = service.add_hand(held, _json_body(), key)
    response = jsonify(appended.body)
    response.set_etag(str(appended.body["revision"]))
    if appended.replayed:
        current_app.logger.info("Idempotent replay of a hand for game %s", game_id)
        response.headers["Idempotent-Replayed"] = "true"
    return response, appended.status


def _hand_number(stored: store.Stored, n: int) -> int:
    if not 0 <= n < len(stored.game.hands):
        abort(
            404,
            gettext(
                "This game has %(hands)s hand(s); there is no hand %(n)s (hands count from 0).",
                hands=len(stored.game.hands),
                n=n,
            ),
        )
    return n


@bp.put("/games/<game_id>/hands/<int:n>")
def replace_hand(game_id: str, n: int) -> ResponseReturnValue:
    """Replace hand n (0-based); later results are recomputed."""
    stored = _editable(game_id)
    _check_if_match(stored)
    _hand_number(stored, n)
    changed = service.correct_hand(stored, n, _json_body())
    return _with_etag(jsonify(changed.document()), changed)


@bp.delete("/games/<game_id>/hands/<int:n>")
def delete_hand(game_id: str, n: int) -> ResponseReturnValue:
    """Remove hand n (0-based); later results are recomputed."""
    stored = _editable(game_id)
    _check_if_match(stored)
    _hand_number(stored, n)
    changed = service.delete_hand(stored, n)
    return _with_etag(jsonify(changed.document()), changed)
