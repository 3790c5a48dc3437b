"""The hand form: entering, correcting and deleting hands."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext
from htmx_flask import request

from .. import document, rights, rules, service, store
from ..forms import CARD_GRID, HandForm
from ..rules import RuleError
from ..web import NO_SUCH_GAME, points, render, scoresheet_context, translated
from . import access, bp, undo

# --- Hand entry -----------------------------------------------------------------------------


def _totals_before(stored: store.Stored, position: int) -> tuple[int, ...]:
    hands = stored.score.hands
    if position == 0:
        return (0,) * len(stored.table.sides)
    return tuple(s.cumulative for s in hands[position - 1].sides)


def _hand_form(stored: store.Stored, position: int, formdata: Any = None) -> HandForm:
    stored_hand = formdata is None and position < stored.hand_count
    entries, note = (stored.hand_entries[position], stored.hand_notes[position]) if stored_hand else (None, "")
    return HandForm(formdata, stored.game_rules, stored.table, position, entries, note)


def _check(stored: store.Stored, form: HandForm, position: int) -> tuple[rules.Hand, dict] | None:
    """Check the form as hand `position` (new or replacing), reading it once: the hand and the JSON it was read
    from, or None with the problems attached to the form."""
    if not form.validate():
        return None
    data = form.hand_json()
    if form.is_blank(data):
        if request.htmx and not request.htmx.boosted:
            return None  # a form just opened: nothing to say yet
        form.errors.append(
            gettext(
                "Nothing has been entered for this hand: every side would score 0. Enter each side's "
                "3s, canastas and Count, or tap Cancel."
            )
        )
        return None
    try:
        if position < stored.hand_count:
            hand = service.check_corrected_hand(stored, position, data)
        else:
            hand = service.check_next_hand(stored, data)
    except RuleError as error:
        form.add_problems(error.problems)
        return None
    except store.GameFinished:
        form.errors.append(gettext("This game is over: no more hands can be added."))
        return None
    if form.ask_what_the_count_cannot_tell(hand):
        return None
    return hand, data


def _form_context(
    stored: store.Stored, form: HandForm, position: int, preview: rules.HandScore | None = None, ending: str = ""
) -> dict[str, Any]:
    """What the hand form (templates/games/_hand_form.html) shows, on its own page or on the scoresheet."""
    editing = position < len(stored.game.hands)
    if editing:
        action = url_for("games.update_hand", game_id=stored.id, number=position + 1)
        preview_url = url_for("games.preview_edit", game_id=stored.id, number=position + 1)
    else:
        action = url_for("games.create_hand", game_id=stored.id)
        preview_url = url_for("games.preview_new", game_id=stored.id)
    table = stored.game.table
    return {
        "stored": stored,
        "form": form,
        "hand_number": position + 1,
        "editing": editing,
        "action": action,
        "preview_url": preview_url,
        "preview": preview,
        "preset": rules.PRESETS[stored.game.rules.preset],
        "game_rules": stored.game.rules,
        "table": table,
        "cutter_name": table.player_of_seat(table.cutter(position)),
        "card_grid": CARD_GRID,
        "ending": ending,
    }


def next_hand_form(stored: store.Stored) -> dict[str, Any]:
    """The next hand's form as the scoresheet shows it (games/show.html): Save lands on the sheet with it ready."""
    position = stored.hand_count
    return _form_context(stored, _hand_form(stored, position), position)


def _hand_page(
    stored: store.Stored,
    form: HandForm,
    position: int,
    status: int = 200,
    preview: rules.HandScore | None = None,
    block: str | None = None,
    ending: str = "",
) -> ResponseReturnValue:
    table = stored.game.table
    before = _totals_before(stored, position)
    # The preview's fragment is the form's own block; the page around it only for a whole page.
    fragment = bool(block and request.htmx and not request.htmx.boosted and not request.htmx.history_restore_request)
    return render(
        "games/_hand_form.html" if fragment else "games/hand.html",
        block,
        status,
        dealer_name=table.player_of_seat(table.dealer(position)),
        minimum_counts=[rules.minimum_count(stored.game.rules, t, position) for t in before],
        totals_before=before,
        **_form_context(stored, form, position, preview, ending),
    )


def _ending(stored: store.Stored, hand: rules.Hand, preview: rules.HandScore) -> str:
    """What the preview says when this hand ends the game: "This hand ends the game: Us win 8,620 to 7,155"."""
    totals = tuple(s.cumulative for s in preview.sides)
    winners = rules.game_over(stored.game_rules, totals, hand, stored.hand_count + 1)
    if not winners:
        return ""
    names = [side.name for side in stored.table.sides]
    and_ = " " + gettext("and") + " "
    won = and_.join(names[i] for i in winners)
    others = and_.join(points(totals[i]) for i in range(len(totals)) if i not in winners)
    figure = points(totals[winners[0]])
    if not others:
        return gettext("This hand ends the game: %(won)s share the win at %(figure)s.", won=won, figure=figure)
    return gettext(
        "This hand ends the game: %(won)s win %(figure)s to %(others)s.", won=won, figure=figure, others=others
    )


@bp.get("/games/<game_id>/hands/new")
def new_hand(game_id: str) -> ResponseReturnValue:
    """The hand form for the next hand."""
    stored = access.editable(game_id)
    if stored.score.finished:
        flash(gettext("This game is over: no more hands can be added."), "error")
        return redirect(url_for("games.show", game_id=game_id), 303)
    position = stored.hand_count
    return _hand_page(stored, _hand_form(stored, position), position)


def _saving_key(editing: bool) -> str | None:
    """The Idempotency-Key a Save of the next hand carries (offline.js): the same key as the copy the phone keeps
    if no answer comes in time, so that the hand is stored once whichever of the two reaches the server first."""
    key = request.headers.get("Idempotency-Key", "")
    return None if editing or not key or store.idempotency_key_problem(key) else key


def _save(stored: store.Stored, position: int, held: store.Held | None = None) -> ResponseReturnValue:
    """Save the hand form as hand `position`: the next hand (`held`: the game as read for it, with the answer
    remembered for its key) or a correction. The hand is read, checked, scored and written once."""
    editing = position < stored.hand_count
    key = _saving_key(editing)
    if key and held is not None and held.remembered is not None:  # its copy from the phone's queue came first
        flash(gettext("Hand %(number)s saved.", number=stored.hand_count), "success")
        return redirect(url_for("games.show", game_id=stored.id), 303)
    sent_version = request.form.get("version", type=int)
    if sent_version is not None and sent_version != stored.record.version:
        return _changed_meanwhile(stored.id, position, editing, sent_version)
    if not editing and stored.score.finished:
        flash(gettext("This game is over: no more hands can be added."), "error")
        return redirect(url_for("games.show", game_id=stored.id), 303)
    form = _hand_form(stored, position, request.form)
    checked = _check(stored, form, position)
    if checked is None:
        current_app.logger.info(
            "Refused hand %d of game %s: %s", position + 1, stored.id, "; ".join(form.page_errors())
        )
        return _hand_page(stored, form, position, 422)
    hand, data = checked
    previous = stored.hand_entries[position] if editing else None
    before, note_before = stored.score.totals, stored.hand_notes[position] if editing else ""
    try:
        if editing:  # its note as typed; a form without the note's box leaves it as it was
            saved = service.save_hand(stored, position, hand, store.sent_note(data) if form.note_sent else None)
        else:  # the key, if any, kept with the hand in the same commit
            saved = service.add_hand(held or stored, data, key, follow=False, hand=hand).stored
    except store.EditConflict:
        return _changed_meanwhile(stored.id, position, editing, sent_version)
    except RuleError as error:  # its copy, changed on this phone, reached the server first under the same key
        form.errors.extend(p.message for p in error.problems)
        return _hand_page(store.load_game(stored.id), form, position, 409)
    after = saved.hand_entries[position]  # the hand as written
    totals, notes = (before, saved.score.totals), (note_before, saved.hand_notes[position])
    undo.offer_undo(saved, "edit" if editing else "add", position, previous, after, totals, notes=notes)
    flash(gettext("Hand %(number)s saved.", number=position + 1), "success")
    # The top of the scoresheet: the new totals, Minimum Counts and next dealer are what the table asks for.
    return redirect(url_for("games.show", game_id=stored.id), 303)


def _same_as_stored(stored: store.Stored, position: int) -> bool:
    """Whether the form sent holds exactly the hand stored at `position` (read as that hand's form)."""
    form = _hand_form(stored, position, request.form)
    return form.validate() and document.hand_json(stored.game.hands[position]) == document.hand_json(
        document.hand_from_json(form.hand_json())
    )


ENDED_MEANWHILE = lazy_gettext(
    "Another phone saved the last hand meanwhile: the game is over, and this hand was not saved."
)


def _changed_meanwhile(game_id: str, position: int, editing: bool, sent_version: int | None) -> ResponseReturnValue:
    """The game changed on another phone (or this hand was sent twice) since the form was opened.

    Nothing is overwritten: the form comes back with the entries as typed, for the game as it is now.
    """
    current_app.logger.info(
        "Edit conflict on hand %d of game %s: the form was for version %s", position + 1, game_id, sent_version
    )
    stored = store.load_game(game_id)
    hands = stored.game.hands
    # The same hand sent twice (a double tap, or a retry on bad Wi-Fi) is saved once.
    just_saved = position if editing else len(hands) - 1
    if (
        sent_version == stored.record.version - 1
        and 0 <= just_saved < len(hands)
        and _same_as_stored(stored, just_saved)
    ):
        # The page that follows shows the hand's Undo again (its offer may be in the session the first post left,
        # or, when this post was sent before that one's answer came back, not yet).
        offer = undo.offer_of(game_id)
        if offer is not None and offer["version"] == stored.record.version:
            if offer.get("gone") != "rematch":
                undo.offer_again(offer)
        elif not editing:
            undo.offer_undo(
                stored,
                "add",
                just_saved,
                None,
                hands[just_saved],
                (_totals_before(stored, just_saved), stored.score.totals),
                notes=("", stored.hand_notes[just_saved]),
            )
        undo.flash_once(gettext("Hand %(number)s saved.", number=just_saved + 1))
        return redirect(url_for("games.show", game_id=game_id), 303)
    if not editing and stored.score.finished:  # the other phone's hand ended the game: nothing to offer again
        flash(ENDED_MEANWHILE, "error")
        return redirect(url_for("games.show", game_id=game_id), 303)
    if not editing:
        new_position = len(hands)
        form = _hand_form(stored, new_position, request.form)
        form.errors.append(
            gettext(
                "The game changed while this form was open (a hand was saved, changed or deleted, "
                "here or on another phone). Your entries are still here, now as hand %(number)s: "
                "check the scoresheet, and save only if this is a new hand.",
                number=new_position + 1,
            )
        )
        return _hand_page(stored, form, new_position, 409)
    position = min(position, len(hands))  # the hand may have been deleted meanwhile
    form = _hand_form(stored, position, request.form)
    form.errors.append(
        gettext(
            "The game changed while this form was open (here or on another phone). Your entries are "
            "still here: check them against the scoresheet and save again."
        )
    )
    return _hand_page(stored, form, position, 409)


@bp.post("/games/<game_id>/hands")
def create_hand(game_id: str) -> ResponseReturnValue:
    """Save the next hand, or show the form again with every problem beside its field. The game is read once, with
    this phone's right to it and the answer remembered for the Save's key (service.game_to_change)."""
    key = _saving_key(False)
    try:
        held = service.game_to_change(game_id, rights.device_hash(create=False) or "", key)
    except store.GameNotFound:
        abort(404, NO_SUCH_GAME)
    if held.right is None:
        abort(403, str(access.ONLY_THE_SCOREKEEPER))
    return _save(held.stored, held.stored.hand_count, held)


def _sides_with_figures(stored: store.Stored, form: HandForm, position: int) -> rules.HandScore | None:
    """A hand with a problem on some side: the figures of every other side, which its own entries settle (each side's
    Base and Count are its own), scored with the sides in question left empty; None when no side's can be told (a
    problem with the whole hand, every side in question or the others empty, or a wipeout game, where one side's
    entry zeroes another)."""
    troubled = [form.in_question(i) for i in range(len(form.sides))]
    if form.errors or all(troubled) or not any(troubled) or stored.game_rules.wipeout:
        return None
    entries = [{} if bad else side.entry_json() for side, bad in zip(form.sides, troubled, strict=True)]
    if not any(entries):  # nothing entered yet on the other sides: nothing to tell
        return None
    if form.perfect_cut.data and not troubled[form.cutter_side]:
        entries[form.cutter_side]["perfect_cut"] = True
    try:
        hand = document.hand_from_json({"sides": entries})
        score = rules.score_hand(
            stored.game_rules, stored.table, hand, position, _totals_before(stored, position), check=False
        )
    except (RuleError, ValueError, KeyError, TypeError):
        return None
    return score


def _preview(stored: store.Stored, position: int) -> ResponseReturnValue:
    form = _hand_form(stored, position, request.form)
    checked = _check(stored, form, position)
    preview, ending, partial = None, "", None
    if checked is not None:
        before = _totals_before(stored, position)
        preview = rules.score_hand(stored.game_rules, stored.table, checked[0], position, before, check=False)
        if position == stored.hand_count:  # the next hand (a corrected one is checked to end where the game does)
            ending = _ending(stored, checked[0], preview)
    elif form.has_errors:
        partial = _sides_with_figures(stored, form, position)
    # htmx: always 200, the problems travel in the fragment; without JavaScript a refused hand is a 422 page.
    status = 200 if preview is not None or request.htmx else 422
    return _hand_page(stored, form, position, status, preview=preview or partial, block="preview", ending=ending)


@bp.post("/games/<game_id>/hands/preview")
def preview_new(game_id: str) -> ResponseReturnValue:
    """The figures of the hand being entered, and its problems, without saving."""
    stored = access.editable(game_id)
    return _preview(stored, len(stored.game.hands))


@bp.post("/games/<game_id>/hands/<int:number>/preview")
def preview_edit(game_id: str, number: int) -> ResponseReturnValue:
    """The figures of a past hand being corrected, without saving."""
    stored = access.correctable(game_id)
    if not 1 <= number <= len(stored.game.hands):  # deleted while the form was open
        position = len(stored.game.hands)
        form = _hand_form(stored, position, request.form)
        form.errors.append(
            gettext(
                "Hand %(number)s has been deleted since this form was opened. Tap Save to keep "
                "these entries as hand %(position)s, or Cancel.",
                number=number,
                position=position + 1,
            )
        )
        return _hand_page(stored, form, position, block="preview")
    return _preview(stored, number - 1)


@bp.get("/games/<game_id>/hands/<int:number>/edit")
def edit_hand(game_id: str, number: int) -> ResponseReturnValue:
    """The hand form, pre-filled with hand `number` as stored."""
    stored = access.correctable(game_id)
    position = access.hand_position(stored, number)
    return _hand_page(stored, _hand_form(stored, position), position)


@bp.post("/games/<game_id>/hands/<int:number>")
def update_hand(game_id: str, number: int) -> ResponseReturnValue:
    """Save a corrected hand; the figures after it follow."""
    stored = access.correctable(game_id)
    sent_version = request.form.get("version", type=int)
    if number > len(stored.game.hands) and sent_version is not None and sent_version != stored.record.version:
        return _changed_meanwhile(stored.id, number - 1, True, sent_version)  # deleted while the form was open
    return _save(stored, access.hand_position(stored, number))


@bp.get("/games/<game_id>/hands/<int:number>/delete")
def confirm_delete(game_id: str, number: int) -> ResponseReturnValue:
    """Ask before deleting a hand, saying what it removes and what follows from it."""
    stored = access.correctable(game_id)
    position = access.hand_position(stored, number)
    table = stored.game.table
    return render_template(
        "games/delete.html",
        number=number,
        deleted=stored.score.hands[position],
        dealer_name=table.player_of_seat(stored.score.hands[position].dealer),
        later=len(stored.game.hands) - number,
        **scoresheet_context(stored),
    )


@bp.post("/games/<game_id>/hands/<int:number>/delete")
def delete_hand(game_id: str, number: int) -> ResponseReturnValue:
    """Delete a hand; the hands after it move up one, and every figure after it is worked out again."""
    stored = access.correctable(game_id)
    position = access.hand_position(stored, number)
    deleted, note = stored.game.hands[position], stored.hand_notes[position]
    before = stored.score.totals
    try:
        saved = service.delete_hand(stored, position)
    except RuleError as error:
        flash(" ".join(str(translated(p.message)) for p in error.problems), "error")
        return redirect(url_for("games.show", game_id=game_id), 303)
    except store.EditConflict:
        current_app.logger.info("Edit conflict deleting hand %d of game %s", number, game_id)
        flash(
            gettext(
                "The game was changed on another phone at the same moment: nothing was deleted. "
                "Check the scoresheet and try again."
            ),
            "error",
        )
        return redirect(url_for("games.show", game_id=game_id), 303)
    undo.offer_undo(saved, "delete", position, deleted, None, (before, saved.score.totals), notes=(note, ""))
    flash(gettext("Hand %(number)s deleted.", number=number), "success")
    return redirect(url_for("games.show", game_id=game_id), 303)
