"""The club nights' JSON API (docs/events.md, docs/api.md): create an event, read it, start rounds, add a late
pair, confirm and correct a table, and the event's results as JSON and CSV. A blueprint of its own beside
`api.py` (blueprints never import each other); it speaks the same JSON: errors as {"errors": [{field, message}]}.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from . import delivery, document, event_service, event_store, events, security, store, web
from .errors import error_json
from .rules import RuleError
from .rules.errors import Message

bp = Blueprint("events_api", __name__, url_prefix="/api/events")


@bp.before_request
def require_json_body() -> None:
    """A body sent to the API is JSON, declared so (415 otherwise), as the game API's."""
    if request.method in ("POST", "PUT") and request.mimetype != "application/json":
        abort(415, gettext("Send the body as JSON, with the header Content-Type: application/json."))


@bp.errorhandler(RuleError)
def rule_error(error: RuleError) -> ResponseReturnValue:
    """A document, pair or hand the checks refuse: 422 with every problem and its field, each message in the
    language of Accept-Language (web.translated; the fields' paths as they are)."""
    errors = [
        {**found, "message": web.translated(problem.message)}
        for found, problem in zip(document.errors_json(error), error.problems, strict=True)
    ]
    return jsonify({"errors": errors}), 422


@bp.errorhandler(document.FormatError)
def format_error(error: document.FormatError) -> ResponseReturnValue:
    return error_json(400, _said(error))


def _said(error: Exception) -> str:
    """An exception's message in the language of Accept-Language (a rules.Message is translated; web.translated)."""
    return str(web.translated(error.args[0])) if error.args else str(error)


@bp.errorhandler(event_store.EventNotFound)
def not_found(error: event_store.EventNotFound) -> ResponseReturnValue:
    return error_json(404, gettext("There is no event with that id."))


@bp.errorhandler(events.EventConflict)
def conflict(error: events.EventConflict) -> ResponseReturnValue:
    """A step the event is not ready for (a table still playing, every round played, no seat for a late pair)."""
    return error_json(409, _said(error))


@bp.errorhandler(event_service.NotFinished)
def not_finished(error: event_service.NotFinished) -> ResponseReturnValue:
    return error_json(409, _said(error))


@bp.errorhandler(store.EditConflict)
def edit_conflict(error: store.EditConflict) -> ResponseReturnValue:
    return error_json(
        409, gettext("The event was changed by someone else at the same moment. Read it again and try again.")
    )


@bp.errorhandler(LookupError)
def no_such_table(error: LookupError) -> ResponseReturnValue:
    return error_json(404, _said(error))


def event_links(event_id: str) -> dict[str, str]:
    """Where the event is seen: the wall screen, the director's page, its results."""
    return {
        "standings": url_for("events_web.wall", event_id=event_id, _external=True),
        "director": url_for("events_web.director", event_id=event_id, _external=True),
        "results_json": url_for("events_api.results_json", event_id=event_id, _external=True),
        "results_csv": url_for("events_api.results_csv", event_id=event_id, _external=True),
    }


def tables_json(held: event_store.StoredEvent, started: event_service.Started, round: int) -> list[dict]:
    """The new tables of a round: each one's number, pairs, game id, edit token and links."""
    seated = held.round_tables(round)
    return [
        {
            "table": table.table,
            "pairs": table.pairs,
            "game": stored.id,
            "edit_token": token,
            "links": web.game_links(stored.id, token),
        }
        for table, (stored, token) in zip(seated, started.games, strict=True)
    ]


def _director(event_id: str) -> event_store.StoredEvent:
    """The event, if the request carries its director's token (404 before 403)."""
    held = event_store.load_event(event_id)
    header = request.headers.get("Authorization", "")
    token = header[len("Bearer ") :].strip() if header.startswith("Bearer ") else None
    if not event_store.director_token_matches(held, token):
        abort(403, gettext("This call needs the event's director's token: Authorization: Bearer <director_token>."))
    return held


def _body() -> Any:
    return document.load_json(request.get_data() or b"{}")


@bp.post("")
@security.limited("new-games")
def create_event() -> ResponseReturnValue:
    """Create an event and round 0's games: 201 with the document, the director's token and every table's."""
    held, token, started = event_service.create_event(_body(), None)
    security.carries_key()
    body = {
        **held.document(),
        "director_token": token,
        "links": event_links(held.id),
        "tables": tables_json(held, started, 0),
    }
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = url_for("events_api.get_event", event_id=held.id)
    return response


@bp.get("/<event_id>")
def get_event(event_id: str) -> ResponseReturnValue:
    """The event document with its outputs; its ETag is the event's revision (304 when unchanged)."""
    revision = event_store.event_revision(event_id)
    if revision is None:
        raise event_store.EventNotFound(event_id)
    if delivery.revision_match(revision) is not None:
        return delivery.not_modified(str(revision), weak=False)
    held = event_store.load_standings(event_id)
    return delivery.strong_tag(jsonify(held.document()), str(held.revision))


@bp.post("/<event_id>/rounds")
def start_round(event_id: str) -> ResponseReturnValue:
    """Start the next round (the director): 201 with the document and the new tables' tokens; 409 in words while
    a table plays (unless {"close": true}) or after the last round. {"close": true} on the last round closes it:
    200 with the document (the event finished), 409 in words once it is closed."""
    held = _director(event_id)
    body = _body()
    close = isinstance(body, dict) and body.get("close") is True
    started = event_service.start_round(held, close)
    if started.ended:  # the last round closed: no round started, the event over (200)
        return jsonify({**held.document(), "tables": []})
    security.carries_key()
    round = len(held.rounds) - 1
    answer = {**held.document(), "tables": tables_json(held, started, round)}
    return jsonify(answer), 201


@bp.post("/<event_id>/pairs")
def add_late_pair(event_id: str) -> ResponseReturnValue:
    """A late pair before the next round (the director): 201 with the document; 409 when it has no seat."""
    held = _director(event_id)
    event_service.add_late_pair(held, _body())
    return jsonify(held.document()), 201


@bp.post("/<event_id>/rounds/<int:round>/tables/<int:table>/confirm")
def confirm(event_id: str, round: int, table: int) -> ResponseReturnValue:
    """The director confirms a finished table's result; 409 while it plays."""
    held = _director(event_id)
    event_service.confirm(held, event_service.table_of(held, round, table), "director")
    return jsonify(held.document())


@bp.put("/<event_id>/rounds/<int:round>/tables/<int:table>/hands/<int:n>")
def correct_hand(event_id: str, round: int, table: int, n: int) -> ResponseReturnValue:
    """The director corrects hand n of a table's game: the table's game document; recorded, and any
    confirmation of the table cleared."""
    held = _director(event_id)
    changed = event_service.correct_hand(held, event_service.table_of(held, round, table), n, _body(), "director")
    current_app.logger.info("Director corrected hand %s of table %s, round %s of event %s", n, table, round, event_id)
    return jsonify(changed.document())


@bp.get("/<event_id>/corrections")
def corrections(event_id: str) -> ResponseReturnValue:
    """Every correction recorded: who, when, which table and hand, the entries before and after."""
    event_store.load_event(event_id, games=False)
    return jsonify({"corrections": [correction_json(c) for c in event_store.corrections(event_id)]})


def correction_json(correction: event_store.EventCorrection) -> dict[str, Any]:
    return {
        "round": correction.round,
        "table": correction.table,
        "hand": correction.hand,
        "who": correction.who,
        "at": store.utc(correction.at).isoformat(),
        "before": correction.before,
        "after": correction.after,
    }


# --- Results ----------------------------------------------------------------------------------------------


@bp.get("/<event_id>/results.json")
def results_json(event_id: str) -> ResponseReturnValue:
    """The event's results as a file: the whole document with its standings and every round's tables."""
    held = event_store.load_standings(event_id)
    response = jsonify(held.document())
    response.headers["Content-Disposition"] = f'attachment; filename="event-{event_id}.json"'
    return response


YES = Message("yes")
# The results CSV's headings: the standings', then the tables' (said in the language of Accept-Language).
STANDINGS_HEADINGS = (
    Message("rank"),
    Message("pair"),
    Message("players"),
    Message("match points"),
    Message("points"),
    Message("difference"),
    Message("played"),
)
TABLES_HEADINGS = (
    Message("round"),
    Message("table"),
    Message("north-south"),
    Message("east-west"),
    Message("points"),
    Message("points"),
    Message("hands"),
    Message("status"),
    Message("confirmed"),
)


def results_rows(held: event_store.StoredEvent) -> list[list[object]]:
    """The standings as a spreadsheet reads them, then every table of every round: the headings and words as
    Messages (said in the language of Accept-Language by results_csv), the figures plain integers."""
    doc = held.document()
    pairs = doc["pairs"]
    rows: list[list[object]] = [list(STANDINGS_HEADINGS)]
    for line in doc["standings"]:
        pair = pairs[line["pair"]]
        rows.append(
            [
                line["rank"],
                pair["name"],
                " & ".join(pair["players"]),
                line["match_points"],
                line["points"],
                line["difference"],
                line["played"],
            ]
        )
    rows += [[], list(TABLES_HEADINGS)]
    for r, result in enumerate(doc["round_results"]):
        for t in result["tables"]:
            first, second = (pairs[p]["name"] for p in t["pairs"])
            rows.append(
                [
                    r + 1,
                    t["table"] + 1,
                    first,
                    second,
                    *t["points"],
                    t["hands"],
                    t["status"],
                    YES if t["confirmed"] else "",
                ]
            )
        if result["bye"] is not None:
            rows.append([r + 1, "", pairs[result["bye"]]["name"], Message("(sits out)")])
    return rows


@bp.get("/<event_id>/results.csv")
def results_csv(event_id: str) -> ResponseReturnValue:
    """The event's results as CSV: the standings, then every table of every round."""
    held = event_store.load_standings(event_id)
    out = io.StringIO()
    writer = csv.writer(out)
    for row in results_rows(held):
        writer.writerow([_cell(web.translated(value)) for value in row])
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="event-{event_id}.csv"'
    return response


def _cell(value: object) -> object:
    """A cell a spreadsheet will not run as a formula (a name starting with =, +, - or @)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value
