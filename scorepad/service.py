"""What a scorekeeper does, as one set of functions the doors call: the pages (games/), the JSON API (api.py) and
the phone's queue of hands kept offline (sync.py). Each takes what its door read from the request, asks the store
and the rules, and gives back what happened; none knows of HTTP statuses or pages (docs/architecture.md).

Starting a game from the new-game page's fields is here because two doors do it: the page, and a game started on
the phone with no connection (sync.create_game), which the server reads with the page's own form.
"""

from __future__ import annotations

from . import document, rights, rules, rulesets
from .forms import NewGameForm, attach_problems
from .models import RuleSet
from .rules import RuleError

# --- Starting a game -------------------------------------------------------------------------------------


def chosen_rule_set(form: NewGameForm) -> RuleSet | None:
    """The set saved on this phone that the form's "start from" choice names, or None."""
    return rulesets.find(rights.device_hash(create=False), form.rule_set.data) if form.rule_set.data else None


def starting_rules(form: NewGameForm) -> rules.Rules:
    """The rules the page's table rules were filled from: the saved set they came from, or the preset's."""
    chosen = chosen_rule_set(form)
    if chosen is not None and chosen.rules.get("preset") == form.preset.data:
        return rulesets.rules_of(chosen)
    return form.chosen_preset.rules


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
