"""The scorekeeper's pages: home, new game, the scoresheet, hand entry, editing and deleting."""

from __future__ import annotations

import re
import secrets
import time
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, session, url_for
from htmx_flask import request

from . import delivery, document, rights, rules, rulesets, store
from .forms import CARD_GRID, SUMMARY, HandForm, NewGameForm, attach_problems, choices
from .rules import RuleError
from .security import refuse_cross_site_posts, restored_games
from .web import NO_SUCH_GAME, load_or_404, render, scoresheet_context

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


def _correctable(game_id: str) -> store.Stored:
    """The game, if this browser may change its hands: once the game is over, only the phone that started it
    may (a handover link kept after the game must not reopen a finished game by deleting its last hand)."""
    stored = _editable(game_id)
    if stored.score.finished and not rights.is_scorekeeper(stored):
        abort(
            403,
            "This game is over: only the phone that started it can change its hands now. "
            "Ask the scorekeeper if a hand needs correcting.",
        )
    return stored


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


HOME_GAMES = 50  # the most recent games the home page looks at; the history has every one
HOME_FINISHED = 5  # finished games shown on the home page; the rest are in the history


def _home_page(import_errors: list[str] | None = None, status: int = 200) -> tuple[str, int]:
    kept = rights.kept_games()  # newest first, without loading a game
    games = store.load_games([row.id for row in kept[:HOME_GAMES]])
    via = {row.id: row.via for row in kept}
    return render_template(
        "games/home.html",
        import_errors=import_errors or [],
        kept=len(kept),
        in_progress=[(g, via[g.id]) for g in games if not g.score.finished],
        finished=[(g, via[g.id]) for g in games if g.score.finished][:HOME_FINISHED],
    ), status


def _start(game: document.Game, offline_key: str | None = None) -> Response:
    """Store a new game, keep its edit rights on this phone, and open its scoresheet. `offline_key`: the key
    the page drew in case the answer never came (offline.js starts the game on the phone, then sends it
    with this key: sync.create_game then finds this game, never makes a second)."""
    stored, _token = store.create_game(game)
    if offline_key and not store.idempotency_key_problem(offline_key):
        store.remember_start(stored.id, rights.device_hash(), offline_key)
    rights.grant(stored, rights.CREATED)
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


def _new_game_page(
    form: NewGameForm,
    status: int = 200,
    errors: list[str] | None = None,
    replace_question: str | None = None,
    other_choice: str | None = None,
) -> Response:
    """The new-game page (or the part htmx asked for). `replace_question`: the name of a saved set the table
    is asked to replace; `other_choice`: the choice beside the one just made ("preset" or "rule_set") that
    htmx must bring up to date too."""
    form.first_dealer.choices = choices((n, seat["label"]) for n, seat in enumerate(form.seats()))
    rule_sets = rulesets.saved(rights.device_hash(create=False))
    form.rule_set.choices = choices(
        [("", "None: the preset's values")]
        + [(ruleset.id, f"{ruleset.name} ({rulesets.rules_of(ruleset).preset_name})") for ruleset in rule_sets]
    )
    if status == 422 and not errors:
        errors = [SUMMARY]
    block = request.htmx.target if request.htmx.target in ("game_rules", "dealer_choice") else None
    recent_players, recent_sides = _recent_names()
    response = render(
        "games/new.html",
        block,
        status,
        form=form,
        presets=rules.PRESETS,
        rule_sets=rule_sets,
        errors=errors or [],
        recent_players=recent_players,
        recent_sides=recent_sides,
        replace_question=replace_question,
        other_choice=other_choice,
        offline_rules=_offline_rules(form),
    )
    response.vary.add("HX-Trigger-Name")  # a saved set or a preset chosen: the other choice comes along
    return response


def _offline_rules(form: NewGameForm) -> dict:
    """What the page gives the phone for a game started with no connection (assets/js/offline.js): the
    complete rules its table rules describe as shown, and every preset's, for a preset chosen while the
    page could not ask the server for its values. Only for the provisional figures: the server reads the
    form's own fields when the game reaches it (sync.create_game)."""
    try:
        shown = document.rules_json(document.parse_rules(form.document_json()["rules"]))
    except (RuleError, KeyError, TypeError, ValueError):
        shown = None  # the page shows a value the rules refuse: the chosen preset's are used offline
    return {
        "rules_from": form.preset.data,
        "rules": shown,
        "presets": {key: document.rules_json(preset.rules) for key, preset in rules.PRESETS.items()},
    }


def _chosen_rule_set(form: NewGameForm):
    """The set saved on this phone that the form's "start from" choice names, or None."""
    return rulesets.find(rights.device_hash(create=False), form.rule_set.data) if form.rule_set.data else None


def _start_from(form: NewGameForm, chosen=None) -> None:
    """Fill every table rule from a saved set, or (none chosen) from the chosen preset."""
    if chosen is not None:
        form.apply_rule_set(rulesets.rules_of(chosen))
        form.rule_set.data = str(chosen.id)
    else:
        form.rule_set.data = ""
        form.apply_preset(only_unset=False)


def starting_rules(form: NewGameForm) -> rules.Rules:
    """The rules the page's table rules were filled from: the saved set they came from, or the preset's."""
    chosen = _chosen_rule_set(form)
    if chosen is not None and chosen.rules.get("preset") == form.preset.data:
        return rulesets.rules_of(chosen)
    return form.chosen_preset.rules


@bp.get("/games/new")
def new_game():
    """The new-game form, pre-filled from the chosen preset or a set of rules saved on this phone (htmx
    re-renders one part when a choice changes).

    The phone gets its device key here if it has none: a game started offline from this page is sent later
    under that key (sync.create_game), and a key first made by that send would be lost with its answer; the
    send tried again would then come from a new device and start a second game."""
    rights.device_hash()
    form = NewGameForm(request.args or None)
    trigger = request.htmx.trigger_name if request.htmx else None
    if request.htmx.target != "dealer_choice":
        # A preset tapped starts from the preset, whatever saved set was chosen before.
        _start_from(form, None if trigger == "preset" else _chosen_rule_set(form))
    return _new_game_page(form, other_choice={"preset": "rule_set", "rule_set": "preset"}.get(trigger or ""))


@bp.post("/games")
def create_game():
    """Start the game described by the form, and keep its edit rights on this phone (or save its rules)."""
    form = NewGameForm(request.form)
    action = request.form.get("action")
    if action == "preset":
        _start_from(form, None)
        return _new_game_page(form)
    # Without JavaScript the parts that follow a choice are refreshed only here: show them before starting.
    if request.form.get("set_from", form.rule_set.data or "") != (form.rule_set.data or ""):
        chosen = _chosen_rule_set(form)
        _start_from(form, chosen)
        name = f"\u201c{chosen.name}\u201d" if chosen else f"{form.chosen_preset.name}'s"
        return _new_game_page(form, errors=[f"The table rules are now {name}: check them, then start the game."])
    if request.form.get("rules_from", form.preset.data) != form.preset.data:
        _start_from(form, None)
        name = rules.PRESETS[form.preset.data].name if form.preset.data in rules.PRESETS else "the chosen"
        return _new_game_page(form, errors=[f"The table rules are now {name}'s: check them, then start the game."])
    if request.form.get("seats_from", form.players.data) != form.players.data:
        return _new_game_page(form, errors=["Now choose who deals first among these players."])
    # A value left blank, or one the page doesn't show for this preset, is the starting rules'.
    form.fill_rules(starting_rules(form), only_unset=True)
    if action in ("save_rules", "replace_rules"):
        return _save_rules(form, replace=action == "replace_rules")
    game, leftovers = game_of_form(form)
    if game is None:
        return _new_game_page(form, 422, leftovers)
    return _start(game, request.form.get("offline_key"))


def game_of_form(form: NewGameForm) -> tuple[document.Game | None, list[str]]:
    """The game a filled-in new-game form describes, checked by the form, then by the rules (the page's Start and
    a game started offline, sync.create_game, both come here). None when refused: each problem is then on its
    field, and those that belong to no field are returned."""
    if not form.validate():
        return None, []
    try:
        return document.parse_document(form.document_json()), []
    except RuleError as error:
        return None, attach_problems(error.problems, form.field_for)


def _save_rules(form: NewGameForm, replace: bool) -> Response:
    """Save the form's table rules on this phone under the name typed (asking before replacing a set of that
    name), then show the page again starting from them, with everything typed kept."""
    if not form.validate():
        return _new_game_page(form, 422)
    try:
        game_rules = rulesets.check_rules(form.document_json()["rules"])
    except RuleError as error:
        return _new_game_page(form, 422, attach_problems(error.problems, form.field_for))
    name = form.rule_set_name.data or ""
    # Only the name the question was about may be replaced: a name changed since is asked about afresh.
    confirmed = replace and rulesets.same_name(request.form.get("replace_name", ""), name)
    try:
        ruleset, replaced = rulesets.save(rights.device_hash(), name, game_rules, replace=confirmed)
    except rulesets.NameTaken as taken:
        question = (
            f"This phone already has rules called \u201c{taken.existing.name}\u201d: replace them, or type another "
            "name (under \u201cKeep these rules for next time\u201d)."
        )
        return _new_game_page(form, errors=[question], replace_question=taken.existing.name)
    except rulesets.RuleSetError as error:
        form.rule_set_name.errors = [str(error)]
        return _new_game_page(form, 422)
    if replaced:
        flash(f"The rules saved as \u201c{ruleset.name}\u201d are replaced by these.", "success")
    else:
        flash(f"Rules saved as \u201c{ruleset.name}\u201d: choose them here next time.", "success")
    # The page again, as a page to reload safely: the players as typed, the rules from the set just saved.
    kept = {
        key: value
        for key, value in request.form.items()
        if key in ("players", "first_dealer") or re.fullmatch(r"side\d_name|player\d_\d", key)
    }
    return redirect(url_for("games.new_game", **kept, rule_set=ruleset.id), 303)


RESTORE_MOST_BYTES = 16 * 1024 * 1024  # a file of every game: years of Tuesday evenings, compact JSON


def _problems_in_words(error: RuleError) -> list[str]:
    return [f"{document.field_name(p.path) or 'game'}: {p.message}" for p in error.problems]


def _restore(game: document.Game, data: dict) -> store.Stored:
    """Store a restored game, keep its edit rights on this phone, and note the game it is a copy of."""
    stored, _token = store.create_game(game)
    rights.grant(stored, rights.CREATED)
    if isinstance(data.get("id"), str):
        store.mark_restored(stored, data["id"])
    return stored


@bp.post("/games/import")
def import_game():
    """Restore a game from an exported JSON file (from another phone, or a backup), or every game of a file of
    all a phone's games; this phone keeps their score."""
    request.max_content_length = RESTORE_MOST_BYTES
    upload = request.files.get("document")
    errors: list[str] = []
    if upload is None or not upload.filename:
        errors = ["Choose a Scorepad game file (.json) to restore."]
    else:
        try:
            data = document.load_json(upload.read())
            if document.is_games_file(data):
                return _restore_every_game(data)
            game = document.parse_document(data)
        except document.FormatError as error:
            errors = [str(error)]
        except RuleError as error:
            errors = _problems_in_words(error)
        else:
            stored = _restore(game, data)
            restored_games(1)
            flash("Game restored.", "success")
            return redirect(url_for("games.show", game_id=stored.id), 303)
    return _home_page(errors, 422)


def _game_named(data, n: int) -> str:
    """A game of a file as the scorekeeper knows it: "game 3 (Us v Them)", or "game 3" if it names no sides."""
    sides = data.get("sides") if isinstance(data, dict) else None
    names = [side.get("name") for side in sides if isinstance(side, dict)] if isinstance(sides, list) else []
    names = [name for name in names if isinstance(name, str) and name.strip()]
    return f"game {n} ({' v '.join(names)[:80]})" if names else f"game {n}"


def restore_rule_sets(data: dict) -> tuple[int, list[str]]:
    """Restore the saved rule sets of a file of every game (its "rule_sets", as history.saved_rule_sets wrote
    them) on this phone: how many were kept, and what was wrong with each one refused."""
    if not data.get("rule_sets"):
        return 0, []
    return rulesets.import_sets(rights.device_hash(), data["rule_sets"])


def _restore_every_game(data: dict) -> Response | tuple[str, int]:
    """Restore each game of a file of every game, each checked on its own: the good ones are restored, each bad
    one is named with what is wrong. A game already on this phone (the original, or a copy restored before) is
    left as it is, so restoring the same file twice gives no second copies. Every good game is checked first,
    then all of them are stored in one transaction (store.create_games): all of them, or none."""
    games = document.games_in_file(data)  # a file too big to restore in seconds is refused here, in words
    on_this_phone = {row.id for row in rights.kept_games()}
    on_this_phone |= set(store.restored_from(list(on_this_phone)))
    already, refused_games = 0, 0
    refused: list[tuple[int, str]] = []  # (the game's number in the file, what is wrong with it)
    good: list[tuple[document.Game, str | None]] = []  # with the id of the game each is a copy of
    # The file lists the newest game first: restored oldest first, the copies keep their order in the history.
    for n, game_data in reversed(list(enumerate(games, start=1))):
        try:
            game = document.parse_document(game_data)
        except document.FormatError as error:
            refused.append((n, f"{_game_named(game_data, n)}: {error}"))
            refused_games += 1
            continue
        except RuleError as error:
            refused += [(n, f"{_game_named(game_data, n)}: {problem}") for problem in _problems_in_words(error)]
            refused_games += 1
            continue
        if isinstance(game_data.get("id"), str) and game_data["id"] in on_this_phone:
            already += 1
            continue
        good.append((game, game_data["id"] if isinstance(game_data.get("id"), str) else None))
    restored = store.create_games(good, then=lambda made: rights.grant_restored(made, rights.CREATED))
    restored_games(restored)
    rule_sets, rule_set_problems = restore_rule_sets(data)
    told = [f"{restored} game{'s' if restored != 1 else ''} restored."]
    if already:
        one = already == 1
        told.append(
            f"{already} game{'' if one else 's'} {'was' if one else 'were'} already on this phone "
            f"and left as {'it is' if one else 'they are'}."
        )
    if rule_sets:
        told.append(f"{rule_sets} saved rule set{'s' if rule_sets != 1 else ''} restored.")
    if not refused and not rule_set_problems:
        flash(" ".join(told), "success")
        return redirect(url_for("history.history"), 303)
    # Nothing refused goes unsaid: each game and rule set left out is named, with what is wrong with it.
    flash(" ".join(told), "success" if restored or already else "error")
    lines = []
    if refused:
        lines.append(f"{refused_games} of the {len(games)} games in the file could not be restored:")
        lines += [told for _n, told in sorted(refused, key=lambda item: item[0])]
    if rule_set_problems:
        lines.append("Some saved rules in the file could not be kept:")
        lines += rule_set_problems
    return _home_page(lines, 422)


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
    offer = _offer_of(game_id)
    if offer is not None:  # the game has moved on: its last change is not taken back now
        session["undo"] = {**offer, "gone": "rematch"}
    started = session.get("rematch", {})
    if started.get("of") == game_id and started.get("at", 0) > time.time() - REMATCH_TAP_SECONDS:
        # Rematch tapped twice (or sent again on bad Wi-Fi): one new game, not two.
        return redirect(url_for("games.show", game_id=started["game"]), 303)
    if stored.record.rematch_id is not None:  # started already, on another of the table's scorekeeping phones
        try:
            rematch_game = store.load_game(stored.record.rematch_id)
        except store.GameNotFound:
            pass  # deleted since: a new one is started
        else:
            # This phone keeps score of the game the table plays next, with the rights it had on this one.
            rights.grant(rematch_game, rights.CREATED if rights.is_scorekeeper(stored) else rights.LINK)
            flash("The rematch had started already on another phone: this phone keeps score of it too.", "success")
            return redirect(url_for("games.show", game_id=rematch_game.id), 303)
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
    rematch_id = response.location.rsplit("/", 1)[-1]
    store.mark_rematch(stored, rematch_id)  # the finished game's scoreboard takes its watchers there
    session["rematch"] = {"of": game_id, "game": rematch_id, "at": time.time()}
    return response


# --- The scoresheet -----------------------------------------------------------------------


@bp.get("/games/<game_id>")
def show(game_id: str):
    """The scoresheet: totals, Minimum Counts and next dealer on top, a row per hand below."""
    seen = rights.glance(game_id)  # the revision and this phone's right: the game is loaded only to make the page
    if seen is None:
        abort(404, NO_SUCH_GAME)
    if request.args.get("key") is not None:
        # An older Scorepad put the key in the address, where logs and caches keep it: it is not taken. Its
        # links now carry the key after "#", which never leaves the phone (scorepad.js hands it over by POST).
        current_app.logger.info("Refused a key in the address of game %s (an old link)", game_id)
        flash(
            "This link is of an older kind that no longer gives the right to keep score: the scoresheet is "
            "read-only here. Ask the scorekeeper for a new link (under \u201cKeep score on another phone\u201d).",
            "error",
        )
        return _no_store(redirect(url_for("games.show", game_id=game_id), 303))
    editable = seen.can_edit()
    scorekeeper = editable and seen.scorekeeper
    holders = 0
    if scorekeeper:  # one more query, for the scorekeeper alone: who holds the handover link
        store.reading_only()
        holders = len(rights.holders(game_id))
    original = _original(seen.restored_from)
    undo = _offer_for_page(game_id, seen.version) if editable else None
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
        stored = load_or_404(game_id)
        return render(
            "games/show.html",
            "scoresheet",
            editable=editable,
            scorekeeper=scorekeeper,
            holders=holders,
            original=original,
            settlement=_settlement(stored),
            undo=undo,
            settling=settling,
            **scoresheet_context(stored),
        )

    response = delivery.tagged(delivery.made_once(None if tag is None else (tag,), make), tag)
    return _no_store(response) if undo else response


def _original(original_id: str | None) -> dict | None:
    """The game a restored copy came from: its id, and whether it is still here to open."""
    if not original_id:
        return None
    return {"id": original_id, "here": store.game_revision(original_id) is not None}


# --- Keeping score on another phone: the handover link, who holds it, revoking it ---------------------


def _no_store(response: Response) -> Response:
    """A page or answer that carries (or takes) a key: never kept by a browser, a proxy or the service worker."""
    response.headers["Cache-Control"] = "no-store"
    return response


def _ago(moment: datetime) -> str:
    """When something happened, as a person says it ("12 minutes ago"), whatever the phone's time zone."""
    seconds = (datetime.now(UTC) - store.utc(moment)).total_seconds()
    minutes, hours, days = int(seconds // 60), int(seconds // 3600), int(seconds // 86400)
    if minutes < 1:
        return "just now"
    if hours < 1:
        return f"{minutes} minute{'s' if minutes != 1 else ''} ago"
    if days < 1:
        return f"{hours} hour{'s' if hours != 1 else ''} ago"
    if days < 30:
        return "yesterday" if days == 1 else f"{days} days ago"
    return moment.strftime("%-d %b %Y")


def _scorekeepers_only(game_id: str) -> store.Stored:
    """The game, if this browser started (or restored) it: only that phone hands the game over; otherwise 403."""
    stored = load_or_404(game_id)
    if not rights.is_scorekeeper(stored):
        abort(
            403,
            "Only the phone that started this game can give the link to keep score on another phone, "
            "or replace it. Ask the scorekeeper.",
        )
    return stored


@bp.get("/games/<game_id>/handover")
def handover(game_id: str):
    """The link that lets another phone keep score of the game, and every phone that came in through it."""
    stored = _scorekeepers_only(game_id)
    link = url_for("games.show", game_id=game_id, _external=True, _anchor="key=" + rights.handover_key(stored))
    holders = [
        {"label": right.label or "A browser", "joined": _ago(right.created_at), "used": _ago(right.last_used_at)}
        for right in rights.holders(stored.id)
    ]
    return _no_store(render("games/handover.html", stored=stored, table=stored.game.table, link=link, holders=holders))


@bp.post("/games/<game_id>/handover/revoke")
def revoke_handover(game_id: str):
    """Replace the handover link: the old one stops working and every phone that came in through it is read-only."""
    stored = _scorekeepers_only(game_id)
    count = len(rights.holders(stored.id))
    rights.revoke_handover(stored)
    told = ["The old link no longer works."]
    if count:
        told.append(f"The {count} phone{'s' if count != 1 else ''} that used it can't change the game any more.")
    flash(" ".join([*told, "Here is a new link."]), "success")
    return _no_store(redirect(url_for("games.handover", game_id=game_id), 303))


KEY_IN_LINK = re.compile(r"#key=([A-Za-z0-9_-]+)")


@bp.post("/games/<game_id>/claim")
def claim(game_id: str):
    """Keep score on this phone with the key of the scorekeeper's link: sent by scorepad.js from the link's
    "#key=\u2026", or pasted (the whole link or the key) where there is no JavaScript."""
    stored = load_or_404(game_id)
    sent = (request.form.get("key") or "").strip()
    in_link = KEY_IN_LINK.search(sent)
    key = in_link.group(1) if in_link else sent
    if key and rights.claim(stored, key):
        flash("This phone keeps score of this game now.", "success")
    else:
        current_app.logger.info("Refused a handover key for game %s", game_id)  # never the key itself
        flash(
            "That link's key doesn't match this game (the scorekeeper may have replaced the link): the "
            "scoresheet is read-only here. Ask the scorekeeper for the current link.",
            "error",
        )
    return _no_store(redirect(url_for("games.show", game_id=game_id), 303))


# --- Undo and Redo: the change just made, offered on the page that follows it ------------------------
#
# The phone's session keeps one offer: the last change made on it (a hand added, edited or deleted, or taken
# back). It is "waiting" until the scoresheet is next made for this phone; that page shows it, with a one-time
# token, and no later page does (it is marked "left"). The post is taken only with that token, while the game
# is still at the version the change gave it and no rematch was started from it. Undo done offers Redo on the
# page that follows, under the same conditions, and Redo done offers Undo again.

KEEP_HEADER = "Scorepad-Keep"  # sent by the service worker fetching a page to keep for offline (templates/sw.js)
OFFERS = {  # (kind, redo): what the button says, and what the page says once it is done
    ("add", False): ("Undo: take back hand {n}", "Hand {n} taken back."),
    ("edit", False): ("Undo the change to hand {n}", "Hand {n} is back as it was."),
    ("delete", False): ("Undo: bring back hand {n}", "Hand {n} is back."),
    ("add", True): ("Redo: put hand {n} back", "Hand {n} is back."),
    ("edit", True): ("Redo the change to hand {n}", "Hand {n} has its change again."),
    ("delete", True): ("Redo: delete hand {n} again", "Hand {n} deleted again."),
}


def _offer_undo(
    saved: store.Stored,
    kind: str,
    position: int,
    before: rules.Hand | dict | None,
    after: rules.Hand | dict | None,
    totals: tuple | list,
    redo: bool = False,
    follows: str | None = None,
) -> None:
    """Keep on this phone how to take back the change just made (`redo`: how to make again the change just
    taken back), for the page that follows: hand `position` as it was `before` and `after` the change (None
    where there was no hand), and the game's totals before and after it. `follows`: the token of the offer
    this one follows (an Undo or Redo just done)."""

    def sides(hand):
        return document.hand_json(hand)["sides"] if isinstance(hand, rules.Hand) else hand

    session["undo"] = {
        "game": saved.id,
        "version": saved.record.version,
        "hands": saved.hand_count,
        "kind": kind,
        "redo": redo,
        "position": position,
        "before": sides(before),
        "after": sides(after),
        "totals": [list(totals[0]), list(totals[1])],
        "token": None,  # waiting for the page that follows
        "gone": None,  # or why it is no longer offered: "left" (a later page), "rematch"
        "follows": follows,
        "rematch": saved.record.rematch_id,  # a rematch started from the game since (on any phone) ends the offer
    }


def _offer_of(game_id: str) -> dict | None:
    """This phone's offer, if it is for this game (and of this kind: one kept by an older Scorepad is ignored)."""
    offer = session.get("undo")
    return offer if isinstance(offer, dict) and offer.get("game") == game_id and "totals" in offer else None


def _offer_for_page(game_id: str, version: int) -> dict | None:
    """The offer the scoresheet about to be made shows, given its one-time token, or None. A later page of the
    game (this one made again, settling up, coming back to it) uses it up. The service worker's copy for offline
    shows none and leaves it alone, as does a fragment (which has no room for it)."""
    offer = _offer_of(game_id)
    if (
        offer is None
        or request.headers.get(KEEP_HEADER)
        or (request.htmx and not request.htmx.boosted and not request.htmx.history_restore_request)
    ):
        return None
    if offer.get("token") is None and offer.get("gone") is None and offer.get("version") == version:
        offer = {**offer, "token": secrets.token_urlsafe(16)}
        session["undo"] = offer
        label = OFFERS[offer["kind"], offer["redo"]][0]
        return {**offer, "label": label.format(n=offer["position"] + 1)}
    if offer.get("gone") is None:
        session["undo"] = {**offer, "gone": "left"}
    return None


def _flash_once(message: str) -> None:
    """Say what was done on the next page, unless it is said there already (the same post sent again once the
    first was answered: the page that follows both shows what the first one left to say, too)."""
    if not any(tuple(said) == ("success", message) for said in session.get("_flashes", [])):
        flash(message, "success")


def _offer_again(offer: dict) -> None:
    """Show this offer on the next page again (the same change sent twice: the page that follows the second)."""
    session["undo"] = {**offer, "token": None, "gone": None}


def _target(offer: dict) -> tuple[str, dict | None]:
    """What taking up the offer does at its hand's place: "remove" it, "put" a hand in its place, or "insert"
    one there; and that hand."""
    kind, redo = offer["kind"], offer["redo"]
    if kind == "edit":
        return "put", offer["after"] if redo else offer["before"]
    if (kind == "add") != redo:  # an add taken back, a delete made again
        return "remove", None
    return "insert", offer["after"] if redo else offer["before"]


def _reached(stored: store.Stored, offer: dict) -> bool:
    """Whether the game is as taking up the offer leaves it, one change later: it was taken up already (the
    same post sent twice, the second before the first's answer came back)."""
    if stored.record.version != offer["version"] + 1:
        return False
    action, hand = _target(offer)
    hands, position = stored.game.hands, offer["position"]
    count = offer["hands"] + {"remove": -1, "put": 0, "insert": 1}[action]
    if len(hands) != count or list(stored.score.totals) != offer["totals"][1 if offer["redo"] else 0]:
        return False
    return action == "remove" or (position < count and document.hand_json(hands[position])["sides"] == hand)


def _turned(offer: dict) -> tuple:
    """The arguments of `_offer_undo` for the offer that follows this one taken up: Redo after Undo, and back."""
    return offer["kind"], offer["position"], offer["before"], offer["after"], offer["totals"], not offer["redo"]


def _take_up(stored: store.Stored, offer: dict) -> store.Stored:
    """Undo (or Redo) the offer's change."""
    action, hand = _target(offer)
    position = offer["position"]
    if action == "remove":
        return store.delete_hand(stored, position)
    parsed = document.hand_from_json({"sides": hand})
    if action == "put" or position == stored.hand_count:
        return store.save_checked_hand(stored, position, parsed)
    return store.insert_hand(stored, position, parsed)


def _refuse_undo(game_id: str, words: str) -> Response:
    flash(words + " Nothing was changed: edit or delete the hand instead, if it needs it.", "error")
    return redirect(url_for("games.show", game_id=game_id), 303)


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):
    """Undo (or Redo) the change the page that followed it offered, if the game has not moved on since."""
    stored = _correctable(game_id)
    offer = _offer_of(game_id)
    token = request.form.get("token") or ""
    what = "Redo" if offer and offer.get("redo") else "Undo"
    if offer is not None and token and token == offer.get("follows"):
        # The Undo (or Redo) just done, sent again (a second tap): said as done, and its Redo offered again.
        if offer.get("gone") is None and offer["version"] == stored.record.version:
            _offer_again(offer)
            done = OFFERS[offer["kind"], not offer["redo"]][1]
            _flash_once(done.format(n=offer["position"] + 1))
            return redirect(url_for("games.show", game_id=game_id), 303)
        return _refuse_undo(game_id, "That button was used already.")
    if offer is None or not token or token != offer.get("token"):
        return _refuse_undo(
            game_id, "That button was used already, or was for an older change: Undo is only for the change just made."
        )
    if offer.get("gone") == "rematch" or stored.record.rematch_id != offer.get("rematch"):  # here, or elsewhere
        return _refuse_undo(game_id, f"A rematch was started from this game since: {what} is no longer offered.")
    if offer.get("gone") == "left":
        return _refuse_undo(game_id, f"{what} was offered only on the page that followed the change, left since.")
    done = OFFERS[offer["kind"], offer["redo"]][1].format(n=offer["position"] + 1)
    if _reached(stored, offer):  # the second of two taps, sent before the first was answered
        _offer_undo(stored, *_turned(offer), follows=token)
        _flash_once(done)
        return redirect(url_for("games.show", game_id=game_id), 303)
    if offer["version"] != stored.record.version or request.form.get("version", type=int) != stored.record.version:
        return _refuse_undo(
            game_id, "The game has changed since (a hand was saved, changed or deleted, here or on another phone)."
        )
    try:
        saved = _take_up(stored, offer)
    except (store.EditConflict, RuleError):
        return _refuse_undo(game_id, "The game changed on another phone at the same moment.")
    _offer_undo(saved, *_turned(offer), follows=token)
    flash(done, "success")
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
    settlement = rules.settle_up(
        game.rules, stored.score.totals, stake, per_special, specials, winners=stored.score.winners
    )
    lines = []
    # A shared win: each losing side settles with each winner; the winners settle nothing between them.
    for debt in settlement.debts:
        payer, payee = (debt.payer, debt.payee) if debt.amount >= 0 else (debt.payee, debt.payer)
        working = f"{debt.margin:,} rounds to {debt.thousands * 1000:,} \u2192 {debt.thousands} \u00d7 {_amount(stake)}"
        if per_special:
            working += (
                f"; specials {specials[debt.payee]} against {specials[debt.payer]} at {_amount(per_special)} each"
            )
        lines.append(
            {
                "payer": game.table.sides[payer].name,
                "payee": game.table.sides[payee].name,
                "amount": _amount(abs(debt.amount)),
                "working": working,
            }
        )
    note = None
    if len(settlement.winners) > 1:
        names = " and ".join(game.table.sides[w].name for w in settlement.winners)
        note = f"{names} share the win: " + (
            "each losing side pays each of them." if settlement.debts else "nobody pays."
        )
    return {"lines": lines, "note": note}


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


def _saving_key(editing: bool) -> str | None:
    """The Idempotency-Key a Save of the next hand carries (offline.js): the same key as the copy the phone keeps
    if no answer comes in time, so that the hand is stored once whichever of the two reaches the server first."""
    key = request.headers.get("Idempotency-Key", "")
    return None if editing or not key or store.idempotency_key_problem(key) else key


def _save(stored: store.Stored, position: int) -> Response:
    editing = position < len(stored.game.hands)
    key = _saving_key(editing)
    if key and store.remembered_answer(stored, key) is not None:  # its copy from the phone's queue came first
        flash(f"Hand {stored.hand_count} saved.", "success")
        return redirect(url_for("games.show", game_id=stored.id), 303)
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
    before = stored.score.totals
    try:
        if key:  # the key kept with the hand, in the same commit
            saved = store.add_hand_once(stored, document.hand_json(checked[0]), key).stored
        else:
            saved = store.save_checked_hand(stored, position, checked[0])
    except store.EditConflict:
        return _changed_meanwhile(stored.id, position, editing, sent_version)
    except RuleError as error:  # its copy, changed on this phone, reached the server first under the same key
        form.errors.extend(p.message for p in error.problems)
        return _hand_page(store.load_game(stored.id), form, position, 409)
    _offer_undo(saved, "edit" if editing else "add", position, previous, checked[0], (before, saved.score.totals))
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
        # The page that follows shows the hand's Undo again (its offer may be in the session the first post left,
        # or, when this post was sent before that one's answer came back, not yet).
        offer = _offer_of(game_id)
        if offer is not None and offer["version"] == stored.record.version:
            if offer.get("gone") != "rematch":
                _offer_again(offer)
        elif not editing:
            _offer_undo(
                stored,
                "add",
                just_saved,
                None,
                hands[just_saved],
                (_totals_before(stored, just_saved), stored.score.totals),
            )
        _flash_once(f"Hand {just_saved + 1} saved.")
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
    stored = _correctable(game_id)
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
    stored = _correctable(game_id)
    position = _hand_position(stored, number)
    return _hand_page(stored, _hand_form(stored, position), position)


@bp.post("/games/<game_id>/hands/<int:number>")
def update_hand(game_id: str, number: int):
    """Save a corrected hand; the figures after it follow."""
    stored = _correctable(game_id)
    sent_version = request.form.get("version", type=int)
    if number > len(stored.game.hands) and sent_version is not None and sent_version != stored.record.version:
        return _changed_meanwhile(stored.id, number - 1, True, sent_version)  # deleted while the form was open
    return _save(stored, _hand_position(stored, number))


@bp.get("/games/<game_id>/hands/<int:number>/delete")
def confirm_delete(game_id: str, number: int):
    """Ask before deleting a hand, saying what it removes and what follows from it."""
    stored = _correctable(game_id)
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
    stored = _correctable(game_id)
    position = _hand_position(stored, number)
    deleted = stored.game.hands[position]
    before = stored.score.totals
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
    _offer_undo(saved, "delete", position, deleted, None, (before, saved.score.totals))
    flash(f"Hand {number} deleted.", "success")
    return redirect(url_for("games.show", game_id=game_id), 303)
