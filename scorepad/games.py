"""The scorekeeper's pages: home, new game, the scoresheet, hand entry, editing and deleting."""

from __future__ import annotations

import time
from decimal import Decimal, InvalidOperation

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, session, url_for
from htmx_flask import request

from . import document, rights, rules, store
from .forms import CARD_GRID, SUMMARY, HandForm, NewGameForm, attach_problems, choices
from .rules import RuleError
from .security import refuse_cross_site_posts
from .web import load_or_404, render, scoresheet_context

bp = Blueprint("games", __name__)
bp.before_request(refuse_cross_site_posts)

REMATCH_TAP_SECONDS = 60  # a second Rematch of the same game this soon is the same tap again
RECENT_NAMES = 30  # names offered as you type on the new-game page: enough for the regulars, short to scroll


# --- Edit rights (kept on the server by device: rights.py) ------------------------------


def _editable(game_id: str) -> store.Stored:
    """The game, if this browser keeps its score; otherwise 403."""
    return rights.editable_or_403(
        load_or_404(game_id),
        "Only the scorekeeper's phone can change this game. To keep score here too, ask the "
        "scorekeeper for the link under \u201cKeep score on another phone\u201d on the scoresheet.",
    )


def _hand_position(stored: store.Stored, number: int) -> int:
    """A hand's 0-based position from the 1-based number in the address."""
    if not 1 <= number <= len(stored.game.hands):
        abort(404, f"This game has no hand {number}.")
    return number - 1


# --- Home and new game ----------------------------------------------------------------


@bp.get("/")
def home():
    """Start a game, or carry on with the games kept on this phone."""
    return _home_page()


def _home_page(import_errors: list[str] | None = None, status: int = 200) -> tuple[str, int]:
    games = store.load_games(rights.kept_game_ids())
    return render_template(
        "games/home.html",
        import_errors=import_errors or [],
        in_progress=[g for g in games if not g.score.finished],
        finished=[g for g in games if g.score.finished],
    ), status


def _start(game: document.Game) -> Response:
    """Store a new game, keep its edit rights on this phone, and open its scoresheet."""
    stored, _token = store.create_game(game)
    rights.grant(stored.id, rights.CREATED)
    return redirect(url_for("games.show", game_id=stored.id), 303)


def _recent_names() -> tuple[list[str], list[str]]:
    """The player names and the side names of the games kept on this phone, most recent first, each once."""
    players: dict[str, str] = {}
    sides: dict[str, str] = {}
    for stored in store.load_games(rights.kept_game_ids()):  # newest change first
        for side in stored.game.table.sides:
            # Ann and ann are one player: the spelling of the latest game is offered.
            sides.setdefault(side.name.casefold(), side.name)
            for player in side.players:
                players.setdefault(player.casefold(), player)
    return list(players.values())[:RECENT_NAMES], list(sides.values())[:RECENT_NAMES]


def _new_game_page(form: NewGameForm, status: int = 200, errors: list[str] | None = None) -> Response:
    form.first_dealer.choices = choices((n, seat["label"]) for n, seat in enumerate(form.seats()))
    if status == 422 and not errors:
        errors = [SUMMARY]
    block = request.htmx.target if request.htmx.target in ("game_rules", "dealer_choice") else None
    recent_players, recent_sides = _recent_names()
    return render(
        "games/new.html",
        block,
        status,
        form=form,
        presets=rules.PRESETS,
        errors=errors or [],
        recent_players=recent_players,
        recent_sides=recent_sides,
    )


@bp.get("/games/new")
def new_game():
    """The new-game form, pre-filled from the chosen preset (htmx re-renders one part when a choice changes)."""
    form = NewGameForm(request.args or None)
    if request.htmx.target != "dealer_choice":
        form.apply_preset(only_unset=False)
    return _new_game_page(form)


@bp.post("/games")
def create_game():
    """Start the game described by the form, and keep its edit rights on this phone."""
    form = NewGameForm(request.form)
    if request.form.get("action") == "preset":
        form.apply_preset(only_unset=False)
        return _new_game_page(form)
    # Without JavaScript the parts that follow a choice are refreshed only here: show them before starting.
    if request.form.get("rules_from", form.preset.data) != form.preset.data:
        form.apply_preset(only_unset=False)
        name = rules.PRESETS[form.preset.data].name if form.preset.data in rules.PRESETS else "the chosen"
        return _new_game_page(form, errors=[f"The table rules are now {name}'s: check them, then start the game."])
    if request.form.get("seats_from", form.players.data) != form.players.data:
        return _new_game_page(form, errors=["Now choose who deals first among these players."])
    form.apply_preset(only_unset=True)
    if not form.validate():
        return _new_game_page(form, 422)
    try:
        game = document.parse_document(form.document_json())
    except RuleError as error:
        leftovers = attach_problems(error.problems, form.field_for)
        return _new_game_page(form, 422, leftovers)
    return _start(game)


@bp.post("/games/import")
def import_game():
    """Restore a game from an exported JSON file (from another phone, or a backup); this phone keeps its score."""
    upload = request.files.get("document")
    errors: list[str] = []
    if upload is None or not upload.filename:
        errors = ["Choose a Scorepad game file (.json) to restore."]
    else:
        try:
            game = document.parse_document(document.load_json(upload.read()))
        except document.FormatError as error:
            errors = [str(error)]
        except RuleError as error:
            errors = [f"{document.field_name(p.path) or 'game'}: {p.message}" for p in error.problems]
        else:
            flash("Game restored.", "success")
            return _start(game)
    return _home_page(errors, 422)


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str):
    """Start the next game at once: the same sides, seats and rules, dealt first by the seat after the last dealer."""
    stored = load_or_404(game_id)
    if not rights.can_edit(stored):
        abort(
            403,
            "Only the scorekeeper's phone can start a rematch of this game. To keep score of a new game "
            "on this phone, tap \u201cStart a new game\u201d on the home page.",
        )
    if not stored.score.finished:
        abort(409, "This game isn't over yet: a rematch starts once a side has won. No new game was started.")
    started = session.get("rematch", {})
    if started.get("of") == game_id and started.get("at", 0) > time.time() - REMATCH_TAP_SECONDS:
        # Rematch tapped twice (or sent again on bad Wi-Fi): one new game, not two.
        return redirect(url_for("games.show", game_id=started["game"]), 303)
    table = stored.game.table
    # A new game, so it is checked as new input: the stored rules in full, the same seats, the next dealer.
    data = {
        "format": document.FORMAT,
        "version": document.VERSION,
        "rules": document.rules_json(stored.game.rules),
        "sides": document.table_json(table)["sides"],
        "first_dealer": stored.score.next_dealer,
        "hands": [],
    }
    try:
        game = document.parse_document(data)
    except RuleError as error:
        abort(
            409,
            "This game's rules can't start a new game any more ("
            + " ".join(p.message for p in error.problems)
            + "). No new game was started: tap \u201cStart a new game\u201d on the home page instead.",
        )
    flash(f"Rematch started: {game.table.player_of_seat(game.table.first_dealer)} deals first.", "success")
    response = _start(game)
    session["rematch"] = {"of": game_id, "game": response.location.rsplit("/", 1)[-1], "at": time.time()}
    return response


# --- The scoresheet -----------------------------------------------------------------------


@bp.get("/games/<game_id>")
def show(game_id: str):
    """The scoresheet: totals, Minimum Counts and next dealer on top, a row per hand below."""
    stored = load_or_404(game_id)
    key = request.args.get("key")
    if key is not None:
        # The scorekeeper's link carries the edit token once; keep it here and show a clean address.
        if store.token_matches(stored, key):
            rights.grant(stored.id, rights.CREATED)  # the edit token an API client was given
        elif rights.handover_key_matches(stored, key):
            rights.grant(stored.id, rights.LINK)
        else:
            flash("That link's key doesn't match this game: the scoresheet is read-only here.", "error")
        return redirect(url_for("games.show", game_id=game_id), 303)
    editable = rights.can_edit(stored)
    scorekeeper_link = (
        url_for("games.show", game_id=game_id, key=rights.handover_key(stored), _external=True) if editable else None
    )
    return render(
        "games/show.html",
        "scoresheet",
        editable=editable,
        settlement=_settlement(stored),
        scorekeeper_link=scorekeeper_link,
        undo=_undo_offered(stored) if editable else None,
        **scoresheet_context(stored),
    )


# --- Undo: the last change taken back, while nothing has changed since ------------------------

UNDO_SECONDS = 120  # the button shows for a few seconds; the server allows a slow tap on bad Wi-Fi
UNDONE = {"add": "Hand {n} taken back.", "edit": "Hand {n} is back as it was.", "delete": "Hand {n} is back."}


def _offer_undo(saved: store.Stored, kind: str, position: int, previous: rules.Hand | None) -> None:
    """Remember on this phone how to take back the change just made: a hand added, edited or deleted."""
    session["undo"] = {
        "game": saved.id,
        "version": saved.record.version,
        "kind": kind,
        "position": position,
        "hand": document.hand_json(previous)["sides"] if previous is not None else None,
        "at": time.time(),
    }


def _undo_offered(stored: store.Stored) -> dict | None:
    """The change this phone may still take back on this game: the game unchanged since, and not long ago."""
    undo = session.get("undo")
    if (
        not undo
        or undo.get("game") != stored.id
        or undo.get("version") != stored.record.version
        or time.time() - undo.get("at", 0) > UNDO_SECONDS
    ):
        return None
    return {**undo, "number": undo["position"] + 1}


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):
    """Take back the last change made on this phone (a hand added, edited or deleted), if nothing changed since."""
    stored = _editable(game_id)
    offered = _undo_offered(stored)
    if offered is None or request.form.get("version", type=int) != stored.record.version:
        flash(
            "That change can't be taken back any more: the game has changed since, or it was too long ago. "
            "Edit or delete the hand instead.",
            "error",
        )
        return redirect(url_for("games.show", game_id=game_id), 303)
    position, kind = offered["position"], offered["kind"]
    try:
        if kind == "add":
            store.delete_hand(stored, position)
        elif kind == "edit":
            store.save_checked_hand(stored, position, document.hand_from_json({"sides": offered["hand"]}))
        else:
            store.insert_hand(stored, position, document.hand_from_json({"sides": offered["hand"]}))
    except (store.EditConflict, RuleError):
        flash(
            "The game changed on another phone at the same moment: nothing was taken back. Check the scoresheet.",
            "error",
        )
        return redirect(url_for("games.show", game_id=game_id), 303)
    session.pop("undo", None)
    flash(UNDONE[kind].format(n=position + 1), "success")
    return redirect(url_for("games.show", game_id=game_id), 303)


MAX_STAKE = Decimal(1_000_000)


def _amount(value: Decimal) -> str:
    """Money as people write it: 4, 0.5, 1,250.75."""
    return f"{value.quantize(Decimal('0.01')).normalize():,f}"


def _settlement(stored: store.Stored) -> dict | None:
    """The money due at the end of a finished game, when the table gave a stake (docs/rules.md §6)."""
    if not stored.score.finished or "stake" not in request.args:
        return None
    try:
        # A decimal comma is common on phones set to many languages: 1,5 is one and a half.
        stake = Decimal((request.args.get("stake") or "0").strip().replace(",", "."))
        per_special = Decimal((request.args.get("per_special") or "0").strip().replace(",", "."))
    except InvalidOperation:
        return {"error": "Enter the stake and the amount per special as numbers, like 2 or 0.5."}
    if (
        not (stake.is_finite() and per_special.is_finite())
        or not (0 <= stake <= MAX_STAKE)
        or not (0 <= per_special <= MAX_STAKE)
    ):
        return {"error": "Enter a stake and an amount per special from 0 to 1,000,000."}
    game = stored.game
    specials = rules.specials_made(game.hands, len(game.table.sides))
    settlement = rules.settle_up(game.rules, stored.score.totals, stake, per_special, specials)
    lines = []
    for i, amount in enumerate(settlement.payments):
        if i == settlement.winner:
            continue
        payer, payee = (i, settlement.winner) if amount >= 0 else (settlement.winner, i)
        margin = stored.score.totals[settlement.winner] - stored.score.totals[i]
        working = (
            f"{margin:,} rounds to {settlement.thousands[i] * 1000:,} \u2192 "
            f"{settlement.thousands[i]} \u00d7 {_amount(stake)}"
        )
        if per_special:
            working += f"; specials {specials[settlement.winner]} against {specials[i]} at {_amount(per_special)} each"
        lines.append(
            {
                "payer": game.table.sides[payer].name,
                "payee": game.table.sides[payee].name,
                "amount": _amount(abs(amount)),
                "working": working,
            }
        )
    return {"lines": lines}


# --- Hand entry -----------------------------------------------------------------------------


def _totals_before(stored: store.Stored, position: int) -> tuple[int, ...]:
    hands = stored.score.hands
    if position == 0:
        return (0,) * len(stored.game.table.sides)
    return tuple(s.cumulative for s in hands[position - 1].sides)


def _hand_form(stored: store.Stored, position: int, formdata=None) -> HandForm:
    entries = None
    if formdata is None and position < len(stored.game.hands):
        entries = document.hand_json(stored.game.hands[position])["sides"]
    return HandForm(formdata, stored.game.rules, stored.game.table, position, entries)


def _check(stored: store.Stored, form: HandForm, position: int) -> tuple[rules.Hand, rules.HandScore] | None:
    """Check the form as hand `position` (new or replacing): the hand and its figures, or None with the
    problems attached to the form."""
    if not form.validate():
        return None
    if form.is_blank():
        if request.htmx and not request.htmx.boosted:
            return None  # a form just opened: nothing to say yet
        form.errors.append(
            "Nothing has been entered for this hand: every side would score 0. Enter each side's "
            "3s, canastas and Count, or tap Cancel."
        )
        return None
    data = form.hand_json()
    try:
        if position < len(stored.game.hands):
            hand = store.check_replaced_hand(stored, position, data)
        else:
            hand = store.check_new_hand(stored, data)
    except RuleError as error:
        form.add_problems(error.problems)
        return None
    except store.GameFinished:
        form.errors.append("This game is over: no more hands can be added.")
        return None
    if form.ask_what_the_count_cannot_tell(hand):
        return None
    return hand, rules.score_hand(
        stored.game.rules, stored.game.table, hand, position, _totals_before(stored, position), check=False
    )  # checked just above


def _hand_page(
    stored: store.Stored,
    form: HandForm,
    position: int,
    status: int = 200,
    preview: rules.HandScore | None = None,
    block: str | None = None,
) -> Response:
    editing = position < len(stored.game.hands)
    if editing:
        action = url_for("games.update_hand", game_id=stored.id, number=position + 1)
        preview_url = url_for("games.preview_edit", game_id=stored.id, number=position + 1)
    else:
        action = url_for("games.create_hand", game_id=stored.id)
        preview_url = url_for("games.preview_new", game_id=stored.id)
    table = stored.game.table
    before = _totals_before(stored, position)
    return render(
        "games/hand.html",
        block,
        status,
        stored=stored,
        form=form,
        hand_number=position + 1,
        editing=editing,
        action=action,
        preview_url=preview_url,
        preview=preview,
        preset=rules.PRESETS[stored.game.rules.preset],
        game_rules=stored.game.rules,
        table=table,
        dealer_name=table.player_of_seat(table.dealer(position)),
        cutter_name=table.player_of_seat(table.cutter(position)),
        minimum_counts=[rules.minimum_count(stored.game.rules, t) for t in before],
        totals_before=before,
        card_grid=CARD_GRID,
    )


@bp.get("/games/<game_id>/hands/new")
def new_hand(game_id: str):
    """The hand form for the next hand."""
    stored = _editable(game_id)
    if stored.score.finished:
        flash("This game is over: no more hands can be added.", "error")
        return redirect(url_for("games.show", game_id=game_id), 303)
    position = len(stored.game.hands)
    return _hand_page(stored, _hand_form(stored, position), position)


def _save(stored: store.Stored, position: int) -> Response:
    editing = position < len(stored.game.hands)
    sent_version = request.form.get("version", type=int)
    if sent_version is not None and sent_version != stored.record.version:
        return _changed_meanwhile(stored.id, position, editing, sent_version)
    if not editing and stored.score.finished:
        flash("This game is over: no more hands can be added.", "error")
        return redirect(url_for("games.show", game_id=stored.id), 303)
    form = _hand_form(stored, position, request.form)
    checked = _check(stored, form, position)
    if checked is None:
        current_app.logger.info(
            "Refused hand %d of game %s: %s", position + 1, stored.id, "; ".join(form.page_errors())
        )
        return _hand_page(stored, form, position, 422)
    previous = stored.game.hands[position] if editing else None
    try:
        saved = store.save_checked_hand(stored, position, checked[0])
    except store.EditConflict:
        return _changed_meanwhile(stored.id, position, editing, sent_version)
    _offer_undo(saved, "edit" if editing else "add", position, previous)
    flash(f"Hand {position + 1} saved.", "success")
    # The top of the scoresheet: the new totals, Minimum Counts and next dealer are what the table asks for.
    return redirect(url_for("games.show", game_id=stored.id), 303)


def _same_as_stored(stored: store.Stored, position: int) -> bool:
    """Whether the form sent holds exactly the hand stored at `position` (read as that hand's form)."""
    form = _hand_form(stored, position, request.form)
    return form.validate() and document.hand_json(stored.game.hands[position]) == document.hand_json(
        document.hand_from_json(form.hand_json())
    )


def _changed_meanwhile(game_id: str, position: int, editing: bool, sent_version: int | None) -> Response:
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
        flash(f"Hand {just_saved + 1} saved.", "success")
        return redirect(url_for("games.show", game_id=game_id), 303)
    if not editing:
        new_position = len(hands)
        form = _hand_form(stored, new_position, request.form)
        form.errors.append(
            f"The game changed while this form was open (a hand was saved, changed or deleted, "
            f"here or on another phone). Your entries are still here, now as hand {new_position + 1}: "
            f"check the scoresheet, and save only if this is a new hand."
        )
        return _hand_page(stored, form, new_position, 409)
    position = min(position, len(hands))  # the hand may have been deleted meanwhile
    form = _hand_form(stored, position, request.form)
    form.errors.append(
        "The game changed while this form was open (here or on another phone). Your entries are "
        "still here: check them against the scoresheet and save again."
    )
    return _hand_page(stored, form, position, 409)


@bp.post("/games/<game_id>/hands")
def create_hand(game_id: str):
    """Save the next hand, or show the form again with every problem beside its field."""
    stored = _editable(game_id)
    return _save(stored, len(stored.game.hands))


def _preview(stored: store.Stored, position: int) -> Response:
    form = _hand_form(stored, position, request.form)
    checked = _check(stored, form, position)
    preview = checked[1] if checked else None
    # htmx: always 200, the problems travel in the fragment; without JavaScript a refused hand is a 422 page.
    status = 200 if preview is not None or request.htmx else 422
    return _hand_page(stored, form, position, status, preview=preview, block="preview")


@bp.post("/games/<game_id>/hands/preview")
def preview_new(game_id: str):
    """The figures of the hand being entered, and its problems, without saving."""
    stored = _editable(game_id)
    return _preview(stored, len(stored.game.hands))


@bp.post("/games/<game_id>/hands/<int:number>/preview")
def preview_edit(game_id: str, number: int):
    """The figures of a past hand being corrected, without saving."""
    stored = _editable(game_id)
    if not 1 <= number <= len(stored.game.hands):  # deleted while the form was open
        position = len(stored.game.hands)
        form = _hand_form(stored, position, request.form)
        form.errors.append(
            f"Hand {number} has been deleted since this form was opened. Tap Save to keep "
            f"these entries as hand {position + 1}, or Cancel."
        )
        return _hand_page(stored, form, position, block="preview")
    return _preview(stored, number - 1)


@bp.get("/games/<game_id>/hands/<int:number>/edit")
def edit_hand(game_id: str, number: int):
    """The hand form, pre-filled with hand `number` as stored."""
    stored = _editable(game_id)
    position = _hand_position(stored, number)
    return _hand_page(stored, _hand_form(stored, position), position)


@bp.post("/games/<game_id>/hands/<int:number>")
def update_hand(game_id: str, number: int):
    """Save a corrected hand; the figures after it follow."""
    stored = _editable(game_id)
    sent_version = request.form.get("version", type=int)
    if number > len(stored.game.hands) and sent_version is not None and sent_version != stored.record.version:
        return _changed_meanwhile(stored.id, number - 1, True, sent_version)  # deleted while the form was open
    return _save(stored, _hand_position(stored, number))


@bp.get("/games/<game_id>/hands/<int:number>/delete")
def confirm_delete(game_id: str, number: int):
    """Ask before deleting a hand, saying what it removes and what follows from it."""
    stored = _editable(game_id)
    position = _hand_position(stored, number)
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
def delete_hand(game_id: str, number: int):
    """Delete a hand; the hands after it move up one, and every figure after it is worked out again."""
    stored = _editable(game_id)
    position = _hand_position(stored, number)
    deleted = stored.game.hands[position]
    try:
        saved = store.delete_hand(stored, position)
    except RuleError as error:
        flash(" ".join(p.message for p in error.problems), "error")
        return redirect(url_for("games.show", game_id=game_id), 303)
    except store.EditConflict:
        current_app.logger.info("Edit conflict deleting hand %d of game %s", number, game_id)
        flash(
            "The game was changed on another phone at the same moment: nothing was deleted. "
            "Check the scoresheet and try again.",
            "error",
        )
        return redirect(url_for("games.show", game_id=game_id), 303)
    _offer_undo(saved, "delete", position, deleted)
    flash(f"Hand {number} deleted.", "success")
    return redirect(url_for("games.show", game_id=game_id), 303)
