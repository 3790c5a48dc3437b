"""The scoresheet."""

from __future__ import annotations

from flask import Response, abort, current_app, flash, redirect, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from htmx_flask import request

from .. import delivery, rights, service, store
from ..rules import RuleError
from ..web import NO_SUCH_GAME, load_or_404, render, scoresheet_context, translated
from . import access, bp, hands, settle
from .undo import offer_for_page, offer_waiting

# --- The scoresheet -----------------------------------------------------------------------


@bp.get("/games/<game_id>")
def show(game_id: str) -> ResponseReturnValue:
    """The scoresheet: totals, Minimum Counts and next dealer on top, a row per hand below."""
    whole = _read_whole(game_id) if offer_waiting(game_id) else None
    # The revision and this phone's right: the game is loaded only to make the page (unless read whole already).
    seen = rights.glance(game_id) if whole is None else whole[0]
    if seen is None:
        abort(404, NO_SUCH_GAME)
    if request.args.get("key") is not None:
        # An older Scorepad put the key in the address, where logs and caches keep it: it is not taken. Its
        # links now carry the key after "#", which never leaves the phone (scorepad.js hands it over by POST).
        current_app.logger.info("Refused a key in the address of game %s (an old link)", game_id)
        flash(
            gettext(
                "This link is of an older kind that no longer gives the right to keep score: the scoresheet is "
                "read-only here. Ask the scorekeeper for a new link (under \u201cKeep score on another phone\u201d)."
            ),
            "error",
        )
        return access.no_store(redirect(url_for("games.show", game_id=game_id), 303))
    editable = seen.can_edit()
    scorekeeper = editable and seen.scorekeeper
    holders = 0
    if scorekeeper:  # who holds the handover link: counted by the glance, else (a page read whole) one more query
        if seen.link_holders is None:
            store.reading_only()
            holders = len(rights.holders(game_id))
        else:
            holders = seen.link_holders
    original = _original(seen.restored_from)
    undo = offer_for_page(game_id, seen.version) if editable else None
    # The page that follows a change (it offers Undo, or says what was done): for a moment nothing on it takes a
    # tap, so a second tap of the button just pressed lands on nothing (scorepad.css, .settling).
    settling = bool(undo or session.get("_flashes"))
    # The same revision seen the same way again: 304, before any figure is worked out (a page with Undo is
    # never reused, nor kept: its offer is for this page alone).
    tag = None if undo else delivery.page_tag(seen.version, editable, scorekeeper, holders, original)
    if tag is not None and delivery.unchanged(tag):
        return delivery.not_modified(tag, delivery.PAGE_VARY)

    def make() -> Response:
        store.reading_only()  # the one write before (the right's "last used") was a single statement, committed
        stored = load_or_404(game_id) if whole is None else whole[1]
        return render(
            "games/show.html",
            "scoresheet",
            editable=editable,
            scorekeeper=scorekeeper,
            holders=holders,
            original=original,
            settlement=settle.settlement(stored),
            undo=undo,
            settling=settling,
            next_hand=_next_hand(stored, editable),
            **scoresheet_context(stored),
        )

    if tag is not None and not editable:  # a read-only page, as any phone holding no right sees it
        delivery.for_anyone(game_id, seen.version)
    response = delivery.tagged(delivery.made_once(None if tag is None else (tag,), make), tag)
    return access.no_store(response) if undo else response


@bp.post("/games/<game_id>/note")
def save_note(game_id: str) -> ResponseReturnValue:
    """Keep the note typed on the scoresheet; one too long is refused in words, the text typed kept in its box."""
    stored = access.editable(game_id)
    typed = request.form.get("note", "")
    try:
        service.save_note(stored, typed)
    except RuleError as error:
        return _note_refused(stored, typed, " ".join(str(translated(problem.message)) for problem in error.problems))
    except store.EditConflict:
        return _note_refused(
            load_or_404(game_id),
            typed,
            gettext("The game changed on another phone at that moment: save the note again."),
        )
    flash(gettext("Note saved.") if typed.strip() else gettext("Note taken away."))
    return redirect(url_for("games.show", game_id=game_id), 303)


def _note_refused(stored: store.Stored, typed: str, message: str) -> ResponseReturnValue:
    """The scoresheet again with the note as typed in its box and what was wrong beside it (422)."""
    scorekeeper = rights.is_scorekeeper(stored)
    return render(
        "games/show.html",
        status=422,
        editable=True,
        scorekeeper=scorekeeper,
        holders=len(rights.holders(stored.id)) if scorekeeper else 0,
        original=_original(stored.record.restored_from),
        settlement=settle.settlement(stored),
        undo=None,
        settling=False,
        note_typed=typed,
        note_error=message,
        next_hand=_next_hand(stored, True),
        **scoresheet_context(stored),
    )


def _next_hand(stored: store.Stored, editable: bool) -> dict | None:
    """The next hand's form, at the foot of the scorekeeper's sheet (the next row of the paper): Save lands here with
    it ready, no tap to reach it. None on a finished game or a read-only sheet."""
    return hands.next_hand_form(stored) if editable and not stored.score.finished else None


def _read_whole(game_id: str) -> tuple[rights.Glance, store.Stored] | None:
    """The page that follows a change (its Undo waits for it) is never kept: the game is read whole at once, with this
    phone's right to it, in one statement, rather than glanced at and then loaded. None if there is no such game."""
    store.reading_only()
    try:
        held = service.game_with_right(game_id, rights.device_hash(create=False) or "")
    except store.GameNotFound:
        return None
    record = held.stored.record
    return rights.Glance(game_id, record.version, record.restored_from, held.right, held.right_used_at), held.stored


def _original(original_id: str | None) -> dict | None:
    """The game a restored copy came from: its id, and whether it is still here to open."""
    if not original_id:
        return None
    return {"id": original_id, "here": store.game_revision(original_id) is not None}
