"""Starting a game: home, the new-game page, restoring games from a file."""

from __future__ import annotations

import re
from typing import Any

from flask import flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext, ngettext
from htmx_flask import request
from werkzeug.wrappers import Response as BaseResponse

from .. import document, rights, rules, rulesets, service, store
from ..forms import SUMMARY, NewGameForm, attach_problems, choices
from ..rules import RuleError
from ..rulesets import RuleSet
from ..security import restored_games
from ..web import number, render, translated
from . import bp

RECENT_NAMES = 30  # names offered as you type on the new-game page: enough for the regulars, short to scroll


# --- Home and new game ----------------------------------------------------------------


@bp.get("/")
def home() -> ResponseReturnValue:
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


def start(game: document.Game, offline_key: str | None = None) -> BaseResponse:
    """Store a new game, keep its edit rights on this phone, and open its scoresheet. `offline_key`: the key
    the page drew in case the answer never came (offline.js starts the game on the phone, then sends it
    with this key: sync.create_game then finds this game, never makes a second)."""
    stored = service.start_game(game, service.this_device(), rights.CREATED, offline_key)
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
) -> ResponseReturnValue:
    """The new-game page (or the part htmx asked for). `replace_question`: the name of a saved set the table
    is asked to replace; `other_choice`: the choice beside the one just made ("preset" or "rule_set") that
    htmx must bring up to date too."""
    form.first_dealer.choices = choices((n, seat["label"]) for n, seat in enumerate(form.seats()))
    rule_sets = rulesets.saved(rights.device_hash(create=False))
    form.rule_set.choices = choices(
        [("", gettext("None: the preset's values"))]
        + [
            (ruleset.id, f"{ruleset.name} ({translated(rulesets.rules_of(ruleset).preset_name)})")
            for ruleset in rule_sets
        ]
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


def _start_from(form: NewGameForm, chosen: RuleSet | None = None) -> None:
    """Fill every table rule from a saved set, or (none chosen) from the chosen preset."""
    if chosen is not None:
        form.apply_rule_set(rulesets.rules_of(chosen))
        form.rule_set.data = str(chosen.id)
    else:
        form.rule_set.data = ""
        form.apply_preset(only_unset=False)


@bp.get("/games/new")
def new_game() -> ResponseReturnValue:
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
        _start_from(form, None if trigger == "preset" else service.chosen_rule_set(form))
    return _new_game_page(form, other_choice={"preset": "rule_set", "rule_set": "preset"}.get(trigger or ""))


def _rules_now(preset: object) -> str:
    """What the new-game page says once a preset's rules are put in its boxes (without JavaScript)."""
    return gettext("The table rules are now %(name)s's: check them, then start the game.", name=preset)


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    """Start the game described by the form, and keep its edit rights on this phone (or save its rules)."""
    form = NewGameForm(request.form)
    action = request.form.get("action")
    if action == "preset":
        _start_from(form, None)
        return _new_game_page(form)
    # Without JavaScript the parts that follow a choice are refreshed only here: show them before starting.
    if request.form.get("set_from", form.rule_set.data or "") != (form.rule_set.data or ""):
        chosen = service.chosen_rule_set(form)
        _start_from(form, chosen)
        if chosen:
            now = gettext(
                "The table rules are now \u201c%(name)s\u201d: check them, then start the game.", name=chosen.name
            )
        else:
            now = _rules_now(translated(form.chosen_preset.name))
        return _new_game_page(form, errors=[now])
    if request.form.get("rules_from", form.preset.data) != form.preset.data:
        _start_from(form, None)
        preset = rules.PRESETS.get(form.preset.data or "")
        return _new_game_page(form, errors=[_rules_now(translated(preset.name) if preset else gettext("the chosen"))])
    if request.form.get("seats_from", form.players.data) != form.players.data:
        return _new_game_page(form, errors=[gettext("Now choose who deals first among these players.")])
    # A value left blank, or one the page doesn't show for this preset, is the starting rules'.
    form.fill_rules(service.starting_rules(form), only_unset=True)
    if action in ("save_rules", "replace_rules"):
        return _save_rules(form, replace=action == "replace_rules")
    game, leftovers = service.game_of_form(form)
    if game is None:
        return _new_game_page(form, 422, leftovers)
    return start(game, request.form.get("offline_key"))


def _save_rules(form: NewGameForm, replace: bool) -> ResponseReturnValue:
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
        ruleset, replaced = rulesets.save(service.this_device(), name, game_rules, replace=confirmed)
    except rulesets.NameTaken as taken:
        question = gettext(
            "This phone already has rules called \u201c%(name)s\u201d: replace them, or type another "
            "name (under \u201cKeep these rules for next time\u201d).",
            name=taken.existing.name,
        )
        return _new_game_page(form, errors=[question], replace_question=taken.existing.name)
    except rulesets.RuleSetError as error:
        form.rule_set_name.errors = [str(error)]
        return _new_game_page(form, 422)
    if replaced:
        flash(gettext("The rules saved as \u201c%(name)s\u201d are replaced by these.", name=ruleset.name), "success")
    else:
        flash(gettext("Rules saved as \u201c%(name)s\u201d: choose them here next time.", name=ruleset.name), "success")
    # The page again, as a page to reload safely: the players as typed, the rules from the set just saved.
    kept = {
        key: value
        for key, value in request.form.items()
        if key in ("players", "first_dealer") or re.fullmatch(r"side\d_name|player\d_\d", key)
    }
    return redirect(url_for("games.new_game", **kept, rule_set=ruleset.id), 303)


RESTORE_MOST_BYTES = 16 * 1024 * 1024  # a file of every game: years of Tuesday evenings, compact JSON


def _problems_in_words(error: RuleError) -> list[str]:
    """Each problem of a game refused, after its field's path (as the API names it), in the page's language."""
    game = gettext("game")  # a problem with the whole game (no field)
    return [f"{document.field_name(p.path) or game}: {translated(p.message)}" for p in error.problems]


def _format_in_words(error: document.FormatError) -> str:
    """What makes a file no game this Scorepad reads, in the page's language."""
    return str(translated(error.args[0])) if error.args else str(error)


def _restore(game: document.Game, data: dict) -> store.Stored:
    """Store a restored game, keep its edit rights on this phone, and note the game it is a copy of."""
    stored, _token = store.create_game(game)
    rights.grant(stored, rights.CREATED)
    if isinstance(data.get("id"), str):
        store.mark_restored(stored, data["id"])
    return stored


@bp.post("/games/import")
def import_game() -> ResponseReturnValue:
    """Restore a game from an exported JSON file (from another phone, or a backup), or every game of a file of
    all a phone's games; this phone keeps their score."""
    request.max_content_length = RESTORE_MOST_BYTES
    upload = request.files.get("document")
    errors: list[str] = []
    if upload is None or not upload.filename:
        errors = [gettext("Choose a Scorepad game file (.json) to restore.")]
    else:
        try:
            data = document.load_json(upload.read())
            if document.is_games_file(data):
                return _restore_every_game(data)
            game = document.parse_document(data)
        except document.FormatError as error:
            errors = [_format_in_words(error)]
        except RuleError as error:
            errors = _problems_in_words(error)
        else:
            stored = _restore(game, data)
            restored_games(1)
            flash(gettext("Game restored."), "success")
            return redirect(url_for("games.show", game_id=stored.id), 303)
    return _home_page(errors, 422)


def _game_named(data: Any, n: int) -> str:
    """A game of a file as the scorekeeper knows it: "game 3 (Us v Them)", or "game 3" if it names no sides."""
    sides = data.get("sides") if isinstance(data, dict) else None
    given = [side.get("name") for side in sides if isinstance(side, dict)] if isinstance(sides, list) else []
    names = [name for name in given if isinstance(name, str) and name.strip()]
    if not names:
        return gettext("game %(number)s", number=n)
    return gettext("game %(number)s (%(sides)s)", number=n, sides=" v ".join(names)[:80])


def restore_rule_sets(data: dict) -> tuple[int, list[str]]:
    """Restore the saved rule sets of a file of every game (its "rule_sets", as history.saved_rule_sets wrote
    them) on this phone: how many were kept, and what was wrong with each one refused."""
    if not data.get("rule_sets"):
        return 0, []
    return rulesets.import_sets(service.this_device(), data["rule_sets"])


def _restored_in_words(restored: int, already: int, rule_sets: int) -> list[str]:
    """What a restore of a file of every game did, in the page's language: games restored, games already on this
    phone, saved rule sets restored (counts as the language writes them: 1.000)."""
    told = [ngettext("%(count)s game restored.", "%(count)s games restored.", restored, count=number(restored))]
    if already:
        told.append(
            ngettext(
                "%(count)s game was already on this phone and left as it is.",
                "%(count)s games were already on this phone and left as they are.",
                already,
                count=number(already),
            )
        )
    if rule_sets:
        told.append(
            ngettext(
                "%(count)s saved rule set restored.",
                "%(count)s saved rule sets restored.",
                rule_sets,
                count=number(rule_sets),
            )
        )
    return told


def _restore_every_game(data: dict) -> ResponseReturnValue:
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
            refused.append((n, f"{_game_named(game_data, n)}: {_format_in_words(error)}"))
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
    told = _restored_in_words(restored, already, rule_sets)
    if not refused and not rule_set_problems:
        flash(" ".join(told), "success")
        return redirect(url_for("history.history"), 303)
    # Nothing refused goes unsaid: each game and rule set left out is named, with what is wrong with it.
    flash(" ".join(told), "success" if restored or already else "error")
    lines = []
    if refused:
        said = gettext(
            "%(n)s of the %(all)s games in the file could not be restored:",
            n=number(refused_games),
            all=number(len(games)),
        )
        lines.append(said)
        lines += [told for _n, told in sorted(refused, key=lambda item: item[0])]
    if rule_set_problems:
        lines.append(gettext("Some saved rules in the file could not be kept:"))
        lines += rule_set_problems
    return _home_page(lines, 422)
