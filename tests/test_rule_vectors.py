"""The vectors that hold the browser's copy of the rules (assets/js/rules.js, served built into
static/js/scorepad.min.js) to the Python rules.

tests/vectors/rules.json is made by scripts/rule_vectors.py from the Python side; tests/e2e/test_rules_js.py
checks rules.js against it. Here: the committed file is what the rules give now, and it leaves no check of
docs/rules.md section 5, no preset and no table rule untried.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from scorepad import rules

ROOT = Path(__file__).resolve().parent.parent


def load_generator():
    """scripts/rule_vectors.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("rule_vectors", ROOT / "scripts" / "rule_vectors.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generator = load_generator()
COMMITTED = generator.OUTPUT.read_text(encoding="utf-8")
VECTORS = json.loads(COMMITTED)


def test_the_committed_vectors_are_what_the_rules_give_now():
    assert generator.text() == COMMITTED, (
        f"tests/vectors/rules.json is out of date with the rules: run `{generator.COMMAND}`, check that "
        "assets/js/rules.js still agrees (npm run build; tests/e2e/test_rules_js.py) and commit both."
    )


def test_every_check_of_the_rules_refuses_at_least_one_vector():
    refusing = {name for vector in VECTORS["checks"] if vector["expected"] for name in vector["checks"]}
    for check_list in generator.CHECK_LISTS:
        for check in getattr(rules, check_list):
            assert check.__name__ in refusing, (
                f"No vector is refused by {check_list}'s {check.__name__}: add a hand it refuses to CHECKS in "
                f"scripts/rule_vectors.py, run `{generator.COMMAND}`, and teach assets/js/rules.js the check."
            )


def test_every_preset_and_table_size_is_scored():
    played = {(VECTORS["rule_sets"][game["rules"]]["preset"], len(game["sides"])) for game in VECTORS["games"]}
    for preset in rules.PRESETS:
        assert (preset, 2) in played, preset
    assert ("classic", 3) in played


def changed_rules(rule_set: dict) -> set[str]:
    """The table rules (values and red 3s by name) a rule set plays differently from its preset."""
    preset = rules.rules_json(rules.PRESETS[rule_set["preset"]].rules)
    changed = set()
    for key, value in rule_set.items():
        if isinstance(value, dict) and key != "special_hands":
            changed |= {f"{key}.{name}" for name in value if value[name] != preset[key][name]}
        elif value != preset[key]:
            changed.add(key)
    return changed


def test_every_table_rule_is_played_differently_from_its_preset_in_some_game():
    used = {vector["rules"] for vector in VECTORS["games"]}
    changed = set().union(*(changed_rules(VECTORS["rule_sets"][name]) for name in used))
    every_rule = {key for key in rules.RULE_KEYS if key not in ("preset", "red_threes", "values")}
    every_rule |= {f"red_threes.{key}" for key in rules.RED_THREE_KEYS}
    every_rule |= {f"values.{key}" for key in rules.VALUE_KEYS}
    assert every_rule - {"canastas_to_go_out"} <= changed, sorted(every_rule - changed)
    # Canastas to go out changes no figure, only what is refused.
    assert any("canastas_to_go_out" in changed_rules(VECTORS["rule_sets"][v["rules"]]) for v in VECTORS["checks"])


def test_every_refusal_is_also_kept_as_a_spanish_phone_gets_it():
    # tests/e2e/test_rules_js.py holds the phone's Spanish words to these: each problem, in the same order.
    for vector in VECTORS["checks"]:
        assert len(vector["expected_es"]) == len(vector["expected"]), vector["name"]
    pairs = [
        (p["message"], es) for v in VECTORS["checks"] for p, es in zip(v["expected"], v["expected_es"], strict=True)
    ]
    # Every refusal is said in Spanish: the rules' checks, a hand's shape (document.py) and its place in the game.
    assert [english for english, es in pairs if english == es] == []
    spanish = [es for _english, es in pairs]
    assert any("Para cerrar hacen falta" in es for es in spanish)
