"""The rule catalogue (scorepad/rules/catalogue.py) is the one place a table value is defined: the presets,
the bounds, the new-game page, the hand form's hints, the rules page, the phone's rules and the docs' tables
all follow it. Each test takes every value of the catalogue, so a value added there is held to all of them.
"""

from __future__ import annotations

import html
import importlib.util
import re
from pathlib import Path

import pytest

from scorepad import rules
from scorepad.forms import HandForm, NewGameForm

from .test_new_game_rules import field_value
from .test_rules_page import new_game

ROOT = Path(__file__).resolve().parent.parent


def each_value(which=lambda value: True):
    """Parametrize over the values of the catalogue (those `which` keeps), each named by its key."""
    values = [value for value in rules.CATALOGUE if which(value)]
    return pytest.mark.parametrize("value", values, ids=[value.key for value in values])


def rule_docs():
    """scripts/rule_docs.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("rule_docs", ROOT / "scripts" / "rule_docs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def families(value: rules.TableValue) -> list[str]:
    """The presets whose new-game page shows this value."""
    return [
        key
        for key, preset in rules.PRESETS.items()
        if value.family in ("all", "modern" if preset.modern else "classic")
    ]


# --- The docs' tables ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["docs/rules.md", "docs/api.md"])
def test_the_docs_table_of_values_is_the_catalogue_s(path):
    generator = rule_docs()
    text = (ROOT / path).read_text(encoding="utf-8")
    assert text == generator.written(text), f"{path} is out of date: run `{generator.COMMAND}`"


def test_the_openapi_document_describes_every_value_of_the_catalogue():
    generator = rule_docs()
    text = generator.OPENAPI.read_text(encoding="utf-8")
    assert text == generator.openapi_written(text), f"scorepad/openapi.json is out of date: run `{generator.COMMAND}`"


@each_value()
def test_every_value_is_in_both_docs_tables_with_each_preset_s_default(value):
    row = f"| `values.{value.key}` | "
    for path in ("docs/rules.md", "docs/api.md"):
        found = [line for line in (ROOT / path).read_text(encoding="utf-8").splitlines() if line.startswith(row)]
        assert len(found) == 1, path
        defaults = [cell.strip() for cell in found[0].split("|")[-5:-1]]
        assert defaults == [str(value.defaults[preset]) for preset in ("modern", "cla", "wca", "classic")]


# --- The presets and the bounds ----------------------------------------------------------------------


@each_value()
def test_each_preset_plays_the_catalogue_s_default(value):
    for key, preset in rules.PRESETS.items():
        assert getattr(preset.rules.values, value.key) == value.defaults[key]
        assert rules.rules_json(preset.rules)["values"][value.key] == value.defaults[key]


@each_value()
def test_a_value_outside_its_bounds_is_refused_by_its_label(value):
    for points in (value.lowest - 5, value.highest + 5):
        with pytest.raises(rules.RuleError) as refused:
            rules.make_rules("modern", values={value.key: points})
        [problem] = refused.value.problems
        assert problem.path == ("rules", "values", value.key)
        assert problem.message.startswith(value.label + ":")
    for points in (value.lowest, value.highest):
        assert getattr(rules.make_rules("modern", values={value.key: points}).values, value.key) == points


def test_the_catalogue_names_each_value_once_and_every_key_of_values():
    keys = [value.key for value in rules.CATALOGUE]
    assert len(keys) == len(set(keys))
    assert list(rules.VALUE_KEYS) == keys
    assert [f.name for f in rules.Values.__dataclass_fields__.values()] == keys
    for value in rules.CATALOGUE:
        assert value.entry is None or value.entry in rules.SIDE_FIELDS
        assert all(entry in rules.SIDE_FIELDS for entry in value.gates)
        assert value.group in dict(rules.GROUPS) and value.family in ("all", "modern", "classic")
        assert value.instead_of is None or rules.BY_KEY[value.instead_of].entry


# --- The new-game page, the hand form and the rules page ---------------------------------------------


@each_value()
def test_the_new_game_page_offers_every_value_in_its_group_with_its_hint(client, value):
    assert families(value), "a value no preset's page shows"
    for preset in families(value):
        page = client.get(
            "/games/new", query_string={"preset": preset}, headers={"HX-Request": "true", "HX-Target": "game_rules"}
        ).get_data(as_text=True)
        assert field_value(page, f"value_{value.key}") == str(value.defaults[preset]), preset
        group = re.search(rf'<details class="rule-group" id="rules-{value.group}".*?</details>', page, re.S)
        assert group and f'name="value_{value.key}"' in group.group(0), preset
        shown = html.unescape(page)
        assert f'<p class="hint rule-hint" id="value_{value.key}-hint">{value.hint}</p>' in shown, preset
        assert re.search(rf'<label[^>]*for="value_{value.key}"[^>]*>\s*{re.escape(value.label)}\s*<', shown), preset


def test_a_preset_s_page_shows_only_its_family_s_values(app):
    with app.test_request_context():
        for key in rules.PRESETS:
            form = NewGameForm(data={"preset": key})
            shown = {f.short_name for group in form.rule_groups() for f in group["fields"]}
            expected = {f"value_{v.key}" for v in rules.CATALOGUE if key in families(v)}
            assert {name for name in shown if name.startswith("value_")} == expected, key


@each_value(lambda value: value.penalty)
def test_the_rules_page_says_what_each_penalty_costs_and_when(client, value):
    preset = "classic" if value.family == "classic" else "modern"
    game_id = new_game(client, preset, values={value.key: 1230})
    page = html.unescape(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    assert value.meaning and value.meaning in page
    assert value.label in page and "\u22121,230" in page


# The entries whose worth the hand form shows beside them: all the catalogue prices or gates but the
# everyday canastas (their worth is on the rules page).
@each_value(lambda value: value.entry is not None and value.entry not in ("natural_canastas", "mixed_canastas"))
def test_the_hand_form_shows_each_entry_s_worth_beside_it(app, value):
    preset = "classic" if value.family == "classic" else "modern"
    game_rules = rules.make_rules(preset, values={value.key: 1235})
    table = rules.Table((rules.Side("Us", ("Ann",)), rules.Side("Them", ("Bea",))))
    with app.test_request_context():
        form = HandForm(None, game_rules, table, 0)
        sign = "\u2212" if value.penalty else "+"
        each = " each" if value.entry in rules.INT_FIELDS else ""
        assert form.hint(value.entry) == f"({sign}1,235{each})"
        # 0: the table doesn't play it, and the form says nothing of its worth
        assert HandForm(None, rules.make_rules(preset, values={value.key: 0}), table, 0).hint(value.entry) == ""


# --- The phone's rules --------------------------------------------------------------------------------


def test_the_phone_s_copy_of_the_catalogue_is_the_catalogue(client):
    # Sent to the phone as data with its words (/messages.<lang>.json, web.phone_words), kept by its service worker.
    carried = client.get("/messages.en.json").get_json()["k"]
    assert carried == rules.phone_json()
    priced = {entry: (key, sign) for entry, key, sign, _ in carried["priced"]}
    for value in rules.PRICED:
        assert priced[value.entry] == (value.key, -1 if value.penalty else 1)
    for value in rules.CATALOGUE:
        for entry in value.gates:
            assert carried["gates"][entry] == value.key


def test_the_catalogue_is_in_the_phone_s_data_not_in_every_page(client):
    # No page carries a copy of its own: the phone keeps the one data document of its language.
    assert "rule-catalogue" not in client.get("/").get_data(as_text=True)
    assert client.get("/messages.es.json").get_json()["k"] == rules.phone_json()
