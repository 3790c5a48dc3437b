"""A table's rules saved under a name on this device ("Tuesday club"), to start the next game from.

A saved set holds complete rules (every key of docs/api.md's "Table rules", as `document.rules_json` gives
them), checked like a new game's rules when they are saved or imported. Sets belong to the device
(`rights.device_hash()`), never to a game: a game keeps its own copy of the rules it was started with, so
renaming, changing or deleting a set never changes a game.

The functions are what the new-game page (games.py), the device's rules page (the blueprint below) and the
all-games export and restore call. `export_json` and `import_json` give and take the sets as a list of
{"name", "rules"}; the rules file of the page wraps that list as {"format": "scorepad-rules", "version": 1,
"rule_sets": [...]}.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, abort, flash, has_request_context, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as babel_gettext
from flask_babel import ngettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from . import document, rights, rules
from .forms import MOST_BANDS
from .models import RuleSet, db
from .rules import Problem, RuleError
from .rules.errors import Message
from .security import refuse_cross_site_posts
from .web import number, translated

NAME_LENGTH = 40  # the rule_sets.name column
MOST_RULE_SETS = 100  # a device's sets: plenty for any player, short enough to choose from
FILE_FORMAT = "scorepad-rules"
FILE_VERSION = 1


class RuleSetError(Exception):
    """A set that can't be saved as asked, in words a card player understands."""


class NameTaken(RuleSetError):
    """This device already has a set of that name: replace it only when the player says so."""

    def __init__(self, existing: RuleSet):
        super().__init__(f"This phone already has rules called \u201c{existing.name}\u201d.")
        self.existing = existing


# --- Names ---------------------------------------------------------------------------------


def _said(message: str) -> object:
    """A rules message in the request's language (web.translated); outside a request, the English."""
    return translated(message) if has_request_context() else message


def gettext(text: str, **values: object) -> str:
    """Flask-Babel's gettext in the request's language, numbers written as it writes them (11.550); outside a request
    (a script, a test reading the problems) the English, numbers as English writes them."""
    if not has_request_context():
        return text % {k: f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else v for k, v in values.items()}
    return babel_gettext(text, **{k: number(v) if isinstance(v, int) else v for k, v in values.items()})


def clean_name(text: Any) -> str:
    """A set's name as typed, cleaned as every name is (document.clean_name: no control or bidi characters),
    with its spaces tidied (" Tuesday   club " is "Tuesday club"); its length is name_problem's to judge."""
    return " ".join(document.clean_name(str(text or ""), (), "", []).split())


def name_problem(name: str) -> str | None:
    """Why a (tidied) name can't name a set, or None."""
    if not name:
        return gettext("Give the rules a name, like Tuesday club.")
    if len(name) > NAME_LENGTH:
        return gettext(
            "A name of at most %(most)s letters, please: this one has %(has)s.",
            most=NAME_LENGTH,
            has=len(name),
        )
    return None


def same_name(a: str, b: str) -> bool:
    """Names are the same whatever their capitals: "tuesday club" is "Tuesday club"."""
    return clean_name(a).casefold() == clean_name(b).casefold()


# --- Reading -----------------------------------------------------------------------------------


def saved(device: str | None) -> list[RuleSet]:
    """The device's sets, by name."""
    if device is None:
        return []
    found = db.session.scalars(select(RuleSet).where(RuleSet.device_hash == device))
    return sorted(found, key=lambda ruleset: ruleset.name.casefold())


def find(device: str | None, set_id: Any) -> RuleSet | None:
    """The device's set with this id (None for another device's, or for no such set)."""
    try:
        number = int(set_id)
    except (TypeError, ValueError):
        return None
    if not 0 < number < 2**31:  # no such id, and none the database could even look up
        return None
    ruleset = db.session.get(RuleSet, number)
    return ruleset if ruleset is not None and device is not None and ruleset.device_hash == device else None


def named(device: str | None, name: str) -> RuleSet | None:
    """The device's set of this name (capitals aside), if any."""
    return next((ruleset for ruleset in saved(device) if same_name(ruleset.name, name)), None)


def rules_of(ruleset: RuleSet) -> rules.Rules:
    """A set's rules (stored, so trusted: they were checked when saved or imported)."""
    return rules.rules_from_json(ruleset.rules)


def check_rules(data: Any) -> rules.Rules:
    """Rules a set may keep: a new game's rules (document.parse_rules) that the new-game page can show."""
    game_rules = document.parse_rules(data)
    if len(game_rules.minimum_counts) > MOST_BANDS:
        raise RuleError(
            [
                Problem(
                    ("rules", "minimum_counts"),
                    Message(
                        "Minimum Counts: the new-game page takes at most {most} bands, these rules have {has}.",
                        most=MOST_BANDS,
                        has=len(game_rules.minimum_counts),
                    ),
                )
            ]
        )
    return game_rules


# --- Changing -----------------------------------------------------------------------------------


def save(device: str, name: str, game_rules: rules.Rules, replace: bool = False) -> tuple[RuleSet, bool]:
    """Keep `game_rules` under `name` on the device: (the set, whether it replaced one of that name).

    NameTaken when the name is the device's already and `replace` was not given; RuleSetError for a name
    that can't be one, or a device that keeps as many sets as it may.
    """
    name = clean_name(name)
    problem = name_problem(name)
    if problem:
        raise RuleSetError(problem)
    existing = named(device, name)
    now = datetime.now(UTC)
    complete = document.rules_json(game_rules)
    if existing is not None:
        if not replace:
            raise NameTaken(existing)
        existing.name, existing.rules, existing.updated_at = name, complete, now
        db.session.commit()
        return existing, True
    if len(saved(device)) >= MOST_RULE_SETS:
        raise RuleSetError(
            gettext(
                "This phone keeps up to %(most)s sets of rules: delete one you no longer use first.",
                most=MOST_RULE_SETS,
            )
        )
    ruleset = RuleSet(device_hash=device, name=name, rules=complete, created_at=now, updated_at=now)
    db.session.add(ruleset)
    _commit_or_say_taken(name)
    return ruleset, False


def rename(device: str, ruleset: RuleSet, name: str) -> None:
    """Give a set a new name; RuleSetError for a name that can't be one or names another of the device's sets."""
    name = clean_name(name)
    problem = name_problem(name)
    if problem:
        raise RuleSetError(problem)
    other = named(device, name)
    if other is not None and other.id != ruleset.id:
        raise RuleSetError(
            gettext(
                "This phone already has rules called \u201c%(name)s\u201d: choose another name, or delete those first.",
                name=other.name,
            )
        )
    ruleset.name, ruleset.updated_at = name, datetime.now(UTC)
    _commit_or_say_taken(name)


def _commit_or_say_taken(name: str) -> None:
    """Commit; a set of the same name saved at the same moment (two taps, two tabs) is said in words."""
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise RuleSetError(
            gettext(
                "Rules called \u201c%(name)s\u201d were saved on this phone at the same moment: look at the saved "
                "rules, then try again.",
                name=name,
            )
        ) from None


def delete(ruleset: RuleSet) -> None:
    """Forget a set (the games started from it keep their own rules)."""
    db.session.delete(ruleset)
    db.session.commit()


# --- Export and import -------------------------------------------------------------------------


def export_json(device: str | None) -> list[dict]:
    """The device's sets as [{"name", "rules": complete rules}], to keep with the games or move to another phone."""
    return [{"name": ruleset.name, "rules": document.rules_json(rules_of(ruleset))} for ruleset in saved(device)]


def import_json(device: str, data: Any) -> list[str]:
    """Save the sets of an export on the device; the problems, each naming its set (an empty list: all saved).

    Each set's rules are checked like a new game's. A good set is saved even when another is refused; a set
    named like one of the device's replaces it (the file is the newer word). Nothing is saved from a list
    that isn't one.
    """
    return import_sets(device, data)[1]


def import_sets(device: str, data: Any) -> tuple[int, list[str]]:
    """import_json, and how many sets were saved (for a message like "3 sets of rules restored")."""
    if not isinstance(data, list):
        return 0, [gettext('The saved rules are a list of sets, each {"name": ..., "rules": {...}}.')]
    if len(data) > MOST_RULE_SETS:  # refused before any set is checked: no phone's file holds more
        return 0, [
            gettext(
                "This file holds %(has)s sets of rules: a phone keeps at most %(most)s, so none was loaded.",
                has=len(data),
                most=MOST_RULE_SETS,
            )
        ]
    problems: list[str] = []
    seen: list[str] = []
    for n, item in enumerate(data, start=1):
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str) or "rules" not in item:
            problems.append(
                gettext(
                    'Set %(number)s: give each set a name and its rules, like {"name": "Tuesday club", "rules": ...}.',
                    number=n,
                )
            )
            continue
        name = clean_name(item["name"])
        called = f"\u201c{name}\u201d" if name else gettext("Set %(number)s", number=n)
        problem = name_problem(name)
        if problem:
            problems.append(f"{called}: {problem}")
            continue
        if any(same_name(name, other) for other in seen):
            problems.append(gettext("%(set)s: the file has two sets of that name; the first was kept.", set=called))
            continue
        try:
            game_rules = check_rules(item["rules"])
        except RuleError as error:
            problems += [f"{called}: {_said(p.message)}" for p in error.problems]
            continue
        try:
            save(device, name, game_rules, replace=True)
        except RuleSetError as error:
            problems.append(f"{called}: {error}")
            continue
        seen.append(name)
    return len(seen), problems


def file_json(device: str | None) -> dict:
    """The rules file of the device's page: the sets wrapped with the file's format and version."""
    return {"format": FILE_FORMAT, "version": FILE_VERSION, "rule_sets": export_json(device)}


def import_file(device: str, content: bytes) -> tuple[int, list[str]]:
    """Save the sets of a rules file: (how many were saved, the problems in words)."""
    try:
        data = document.load_json(content)
    except document.FormatError as error:
        return 0, [str(_said(error.args[0]))]
    if isinstance(data, Mapping) and data.get("format") == document.FORMAT:
        return 0, [
            gettext(
                "This is a game file: restore it on the home page. A rules file comes from "
                "\u201cDownload the rules\u201d."
            )
        ]
    if isinstance(data, Mapping) and data.get("format") == FILE_FORMAT:
        if data.get("version") != FILE_VERSION:
            return 0, [
                gettext(
                    "This rules file is version %(version)s; this Scorepad reads version %(reads)s.",
                    version=repr(data.get("version")),
                    reads=FILE_VERSION,
                )
            ]
        data = data.get("rule_sets")
    elif not isinstance(data, list):
        return 0, [gettext("This is not a Scorepad rules file: choose a file from \u201cDownload the rules\u201d.")]
    return import_sets(device, data)


# --- The device's rules page -------------------------------------------------------------------

bp = Blueprint("rulesets", __name__)
bp.before_request(refuse_cross_site_posts)


def _page(errors: dict | None = None, import_errors: list[str] | None = None, status: int = 200) -> ResponseReturnValue:
    device = rights.device_hash(create=False)
    return render_template(
        "rulesets/index.html",
        rule_sets=[(ruleset, rules_of(ruleset)) for ruleset in saved(device)],
        errors=errors or {},
        import_errors=import_errors or [],
        name_length=NAME_LENGTH,
    ), status


def _own_or_404(set_id: int) -> RuleSet:
    ruleset = find(rights.device_hash(create=False), set_id)
    if ruleset is None:
        abort(404, gettext("There are no saved rules at this address on this phone: they may have been deleted."))
    return ruleset


@bp.get("/rules")
def index() -> ResponseReturnValue:
    """The rules saved on this phone: start a game from them, rename, delete, download or load a rules file."""
    return _page()


@bp.post("/rules/<int:set_id>/rename")
def rename_set(set_id: int) -> ResponseReturnValue:
    """Give a saved set a new name."""
    ruleset = _own_or_404(set_id)
    old = ruleset.name
    try:
        rename(ruleset.device_hash, ruleset, request.form.get("name", ""))
    except RuleSetError as error:
        return _page(errors={set_id: {"message": str(error), "typed": request.form.get("name", "")}}, status=422)
    flash(gettext("\u201c%(old)s\u201d is now called \u201c%(new)s\u201d.", old=old, new=ruleset.name), "success")
    return redirect(url_for("rulesets.index"), 303)


@bp.get("/rules/<int:set_id>/delete")
def confirm_delete(set_id: int) -> ResponseReturnValue:
    """Ask before deleting a saved set."""
    return render_template("rulesets/delete.html", ruleset=_own_or_404(set_id))


@bp.post("/rules/<int:set_id>/delete")
def delete_set(set_id: int) -> ResponseReturnValue:
    """Delete a saved set; games started from it keep their rules."""
    ruleset = _own_or_404(set_id)
    name = ruleset.name
    delete(ruleset)
    flash(gettext("\u201c%(name)s\u201d deleted. Games started from these rules keep them.", name=name), "success")
    return redirect(url_for("rulesets.index"), 303)


@bp.get("/rules/export.json")
def download() -> ResponseReturnValue:
    """The rules file: every set saved on this phone, to load on another phone or keep."""
    body = json.dumps(file_json(rights.device_hash(create=False)), indent=2, ensure_ascii=False)
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": 'attachment; filename="scorepad-rules.json"'},
    )


@bp.post("/rules/import")
def upload() -> ResponseReturnValue:
    """Load the sets of a rules file on this phone (a set of the same name is replaced)."""
    upload = request.files.get("rules_file")
    if upload is None or not upload.filename:
        return _page(import_errors=[gettext("Choose a Scorepad rules file (.json) to load.")], status=422)
    count, problems = import_file(rights.device_hash(), upload.read())
    if count:
        flash(ngettext("%(num)d set of rules loaded.", "%(num)d sets of rules loaded.", count), "success")
    if problems:
        if not count:
            problems = [gettext("Nothing was loaded."), *problems]
        return _page(import_errors=problems, status=422)
    return redirect(url_for("rulesets.index"), 303)
