"""The phone's queue of hands entered offline (assets/js/offline.js), sent here once the connection is back.

Each queued hand carries an Idempotency-Key, the game version it was entered against and the place it
takes. It is stored exactly once: a retry after a lost answer is answered "applied" with the game as it is now
(the keys are remembered per game by `store.add_hand_once`), and so is the copy of a Save on the hand form that
the phone gave up waiting for: that post carried the same key (games.create_hand). A hand that only looks the
same is not taken for it: another phone may have stored the same figures as a hand of its own; nor is a copy
corrected on the phone after its first post got through (a conflict, with the reason). A hand that
can no longer go where it was entered (the game changed or finished meanwhile, or the rules refuse it) is
answered with the reason and the game as it is now, so the phone can show it to the scorekeeper to
re-apply, fix or discard: never dropped. Rights are the device's own (rights.py), as for the pages; posts
must come from Scorepad's own pages.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from . import document, rights, security, service, store, web
from .forms import NewGameForm
from .rules import RuleError

bp = Blueprint("sync", __name__, url_prefix="/sync")
bp.before_request(security.refuse_cross_site_posts)


def _answer(outcome: str, stored: store.Stored, status: int, **extra: Any) -> ResponseReturnValue:
    """Every answer carries the game as it now is, and its version, for the phone's next hand."""
    body = {"outcome": outcome, "version": stored.record.version, "game": stored.document(), **extra}
    return jsonify(body), status


def _problem(status: int, message: str) -> ResponseReturnValue:
    return jsonify({"outcome": "error", "reason": message}), status


def _created(stored: store.Stored, status: int, **extra: Any) -> ResponseReturnValue:
    """A game started on the phone, as the server keeps it: its id, its scoresheet and its version."""
    rights.grant(stored, rights.CREATED)
    return _answer("created", stored, status, id=stored.id, show_url=url_for("games.show", game_id=stored.id), **extra)


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    """A game started with no connection: the new-game form's fields as they were entered (urlencoded),
    with the Idempotency-Key the phone drew for it. The server reads them with the same form and rules as
    the new-game page (games.create_game), so the game is the one the page would have started. The key
    is remembered against the game it made: a retry after a lost answer gets that game again, never a
    second one (a key is 128 random bits, so it names one game whatever game it is kept under)."""
    key = request.headers.get("Idempotency-Key", "")
    if not key or store.idempotency_key_problem(key):
        return _problem(400, gettext("A game started offline needs its Idempotency-Key."))
    device = service.this_device()
    made = store.game_started_with(device, key)
    if made is not None:
        try:
            stored = store.load_game(made)
        except store.GameNotFound:
            return _problem(404, gettext("The game started with this key has been deleted from the server."))
        current_app.logger.info("Idempotent replay of game %s started offline", stored.id)
        return _created(stored, 200, replay=True)
    form = NewGameForm(request.form)
    form.fill_rules(service.starting_rules(form), only_unset=True)
    game, leftovers = service.game_of_form(form)
    if game is None:
        errors = [  # in the phone's language, as the new-game page says them
            f"{web.translated(field.label.text)}: {web.translated(message)}"
            for field in form
            for message in field.errors
        ] + [str(web.translated(leftover)) for leftover in leftovers]
        return jsonify({"outcome": "refused", "reason": " ".join(errors), "errors": errors}), 422
    stored, _token = store.create_game(game)
    store.remember_start(stored.id, device, key)
    current_app.logger.info("Game %s started offline reached the server", stored.id)
    return _created(stored, 201)


@bp.post("/games/<game_id>/hands")
def add_hand(game_id: str) -> ResponseReturnValue:
    """A hand from the phone's queue: {"hand": {"sides": [...]}, "base_version": n, "position": n}."""
    key = request.headers.get("Idempotency-Key", "")
    try:  # one read: the game with its hands, this phone's right to it and the key's answer
        held = service.game_to_change(game_id, rights.device_hash(create=False) or "", key or None)
    except store.GameNotFound:
        return _problem(404, gettext("There is no game with that id on the server."))
    if held.right is None:
        return _problem(
            403, gettext("This phone can no longer change this game: open it again from its scorekeeper's link.")
        )
    if not key or store.idempotency_key_problem(key):
        return _problem(400, gettext("A queued hand needs its Idempotency-Key."))
    try:
        body = document.load_json(request.get_data())
    except document.FormatError as error:  # not JSON, or nested too deep to read safely
        return _problem(400, str(web.translated(error.args[0])))
    if not isinstance(body, dict) or not isinstance(body.get("hand"), dict):
        return _problem(
            400, gettext('A queued hand is sent as {"hand": {"sides": [...]}, "base_version", "position"}.')
        )
    if held.remembered is not None:
        return _stored_already(held, body["hand"])
    base_version, position = body.get("base_version"), body.get("position")
    if not isinstance(base_version, int) or not isinstance(position, int):
        return _problem(400, gettext("A queued hand says which version of the game it was entered on, and its place."))
    stored = held.stored
    if base_version != stored.record.version or position != stored.hand_count:
        return _moved_on(stored, base_version, position)
    return _add(held, body["hand"], key, position)


def _stored_already(held: store.Held, hand: dict) -> ResponseReturnValue:
    """A hand whose key was answered before: stored on an earlier try whose answer was lost (or by the form's own
    post), so applied; or changed on the phone since it was stored, a conflict."""
    stored, previous = held.stored, held.remembered
    assert previous is not None
    changed = previous.request_hash != store.request_hash(hand)
    if changed and not store.same_hand_under_key(stored, previous.body, hand):
        current_app.logger.info("Queued hand of game %s was changed on the phone after it was stored", stored.id)
        reason = gettext(
            "This hand reached the server before it was changed on this phone: hand %(hand)s is stored as it was "
            "first saved. Check it on the scoresheet, then correct it there (Edit), or discard this copy.",
            hand=web.number(previous.body["hand"] + 1),
        )
        return _answer("conflict", stored, 409, reason=reason)
    current_app.logger.info("Idempotent replay of a queued hand for game %s", stored.id)
    return _answer("applied", stored, 200, replay=True)


def _moved_on(stored: store.Stored, base_version: int, position: int) -> ResponseReturnValue:
    """The game changed (or finished) while the hand waited: a conflict, with the reason."""
    hands = stored.hand_count
    current_app.logger.info(
        "Queued hand %d of game %s conflicts: entered on version %s, the game is at version %s with %d hand(s)",
        position + 1,
        stored.id,
        base_version,
        stored.record.version,
        hands,
    )
    reason = (
        gettext("The game is over: it finished on another phone while this hand waited.")
        if stored.score.finished
        else gettext(
            "The game changed while this hand waited (a hand was saved, changed or deleted on another phone): it "
            "now has %(hands)s hand(s). Check the scoresheet, then re-apply this hand as hand %(next)s, fix it, or "
            "discard it.",
            hands=web.number(hands),
            next=web.number(hands + 1),
        )
    )
    return _answer("conflict", stored, 409, reason=reason)


def _add(held: store.Held, hand: dict, key: str, position: int) -> ResponseReturnValue:
    """Store the queued hand once (service.add_hand); the answer is the game as written."""
    game_id = held.stored.id
    try:
        appended = service.add_hand(held, hand, key, follow=False)
    except store.GameFinished:
        finished = gettext("The game is over: no more hands can be added.")
        return _answer("conflict", store.load_game(game_id), 409, reason=finished)
    except store.EditConflict:
        return _answer(
            "conflict",
            store.load_game(game_id),
            409,
            reason=gettext(
                "The game was changed on another phone at the same moment. Check the scoresheet and re-apply."
            ),
        )
    except RuleError as error:
        errors = [  # each message in the phone's language (web.translated; the fields' paths as they are)
            {**found, "message": web.translated(problem.message)}
            for found, problem in zip(document.errors_json(error), error.problems, strict=True)
        ]
        current_app.logger.info(
            "Refused queued hand %d of game %s: %s",
            position + 1,
            game_id,
            "; ".join(f"{e['field']}: {e['message']}" for e in errors),
        )
        reason = " ".join(e["message"] for e in errors)
        return _answer("refused", store.load_game(game_id), 422, reason=reason, errors=errors)
    return _answer("applied", appended.stored, appended.status)
