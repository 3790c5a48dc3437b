"""The JSON API of docs/api.md: create and read games, add, replace and delete hands."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, request, url_for

from . import document, store
from .errors import error_json
from .rules import RuleError

bp = Blueprint("api", __name__, url_prefix="/api")

IDEMPOTENCY_KEY_LENGTH = 200  # the column's size


@bp.errorhandler(RuleError)
def rule_error(error: RuleError):
    """A document or hand the rules refuse: 422 with every problem and its field."""
    current_app.logger.info(
        "Refused %s %s: %s",
        request.method,
        request.path,
        "; ".join(f"{document.field_name(p.path)}: {p.message}" for p in error.problems),
    )
    return jsonify({"errors": document.errors_json(error)}), 422


@bp.errorhandler(document.FormatError)
def format_error(error: document.FormatError):
    """Not a game document this version reads: 400."""
    return error_json(400, str(error))


@bp.errorhandler(store.GameNotFound)
def not_found(error):
    """An unknown game: 404."""
    return error_json(404, "There is no game with that id.")


@bp.errorhandler(store.GameFinished)
def finished(error):
    """A hand sent to a finished game: 409."""
    return error_json(409, "This game is over: no more hands can be added.")


@bp.errorhandler(store.EditConflict)
def conflict(error):
    """Someone else changed the game at the same moment: 409, try again."""
    current_app.logger.info("Edit conflict on %s %s", request.method, request.path)
    return error_json(409, "The game was changed by someone else at the same moment. Reload it and try again.")


def _json_body():
    return document.load_json(request.get_data())


def links(game_id: str, token: str) -> dict:
    """Where the game can be seen, kept and exported."""
    return {
        "scoresheet": url_for("games.show", game_id=game_id, key=token, _external=True),
        "scoreboard": url_for("share.scoreboard", game_id=game_id, _external=True),
        "export_json": url_for("share.export_json", game_id=game_id, _external=True),
        "export_csv": url_for("share.export_csv", game_id=game_id, _external=True),
    }


def _editable(game_id: str) -> store.Stored:
    """The game, if the request carries its edit token (404 before 403: no token reveals a game)."""
    stored = store.load_game(game_id)
    header = request.headers.get("Authorization", "")
    token = header[len("Bearer ") :].strip() if header.startswith("Bearer ") else None
    if not store.token_matches(stored, token):
        abort(403, "This call needs the game's edit token: Authorization: Bearer <edit_token>.")
    return stored


@bp.post("/games")
def create_game():
    """Create a game from a document (hands may be empty); 201 with the edit token and links."""
    game = document.parse_document(_json_body())
    stored, token = store.create_game(game)
    body = {**stored.document(), "edit_token": token, "links": links(stored.id, token)}
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = url_for("api.get_game", game_id=stored.id)
    return response


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    """The game document with every output."""
    return jsonify(store.load_game(game_id).document())


@bp.post("/games/<game_id>/hands")
def add_hand(game_id: str):
    """Add the next hand; with an Idempotency-Key a repeated call stores it once and answers as the first."""
    stored = _editable(game_id)
    key = request.headers.get("Idempotency-Key")
    if key and len(key) > IDEMPOTENCY_KEY_LENGTH:
        abort(400, f"An Idempotency-Key has at most {IDEMPOTENCY_KEY_LENGTH} characters.")
    if key and not key.isprintable():
        abort(400, "An Idempotency-Key is printable text: letters, digits and punctuation.")
    if key:
        previous = store.remembered_answer(stored, key)
        if previous is not None:
            current_app.logger.info("Idempotent replay of a hand for game %s", game_id)
            return jsonify(previous.body), previous.status
    data = _json_body()
    if key:
        status, body = store.add_hand_once(stored, data, key)
        return jsonify(body), status
    return jsonify(store.add_hand(stored, data).document()), 201


def _hand_number(stored: store.Stored, n: int) -> int:
    if not 0 <= n < len(stored.game.hands):
        abort(404, f"This game has {len(stored.game.hands)} hand(s); there is no hand {n} (hands count from 0).")
    return n


@bp.put("/games/<game_id>/hands/<int:n>")
def replace_hand(game_id: str, n: int):
    """Replace hand n (0-based); later results are recomputed."""
    stored = _editable(game_id)
    _hand_number(stored, n)
    return jsonify(store.replace_hand(stored, n, _json_body()).document())


@bp.delete("/games/<game_id>/hands/<int:n>")
def delete_hand(game_id: str, n: int):
    """Remove hand n (0-based); later results are recomputed."""
    stored = _editable(game_id)
    _hand_number(stored, n)
    return jsonify(store.delete_hand(stored, n).document())
