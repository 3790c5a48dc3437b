"""Write the table of values in docs/rules.md (§7) and docs/api.md ("Table rules"), the schemas of `values` in
and the OpenAPI document (scorepad/openapi.json), from the rule catalogue. (The phone gets the catalogue as data with
its words, made by the app: web.phone_words.)

Each table sits between two marker lines; everything else in the files is written by hand.
tests/test_rule_catalogue.py fails when a file differs from what this writes.

Run after any change to scorepad/rules/catalogue.py:  .venv/bin/python scripts/rule_docs.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorepad import rules  # noqa: E402

COMMAND = ".venv/bin/python scripts/rule_docs.py"
FILES = (ROOT / "docs" / "rules.md", ROOT / "docs" / "api.md")
OPENAPI = ROOT / "scorepad" / "openapi.json"
START = "<!-- values: written by scripts/rule_docs.py from scorepad/rules/catalogue.py; do not edit -->"
END = "<!-- end of values -->"


def values_table() -> str:
    """Every value of the catalogue: its key, what it is, and each preset's default."""
    presets = rules.PRESET_KEYS
    lines = [
        "| key | what it is | " + " | ".join(f"`{preset}`" for preset in presets) + " |",
        "|---|---|" + "---|" * len(presets),
    ]
    for value in rules.CATALOGUE:
        kind = " (a penalty, taken off the Base)" if value.penalty else ""
        meaning = f"{value.label}{kind}. {value.hint}"
        defaults = " | ".join(str(value.defaults[preset]) for preset in presets)
        lines.append(f"| `values.{value.key}` | {meaning} | {defaults} |")
    return "\n".join(lines)


def written(text: str) -> str:
    """The file's text with the table between the markers as the catalogue says."""
    before, marker, rest = text.partition(START + "\n")
    if not marker or END not in rest:
        raise SystemExit(f"The markers of the values table are missing: {START} ... {END}")
    return before + START + "\n" + values_table() + "\n" + END + rest.split(END, 1)[1]


def values_schema() -> dict[str, Any]:
    """Each value as the OpenAPI document describes it: a whole number of points within its bounds."""
    return {
        value.key: {"type": "integer", "minimum": value.lowest, "maximum": value.highest, "multipleOf": 5}
        for value in rules.CATALOGUE
    }


def openapi_written(text: str) -> str:
    """The OpenAPI document with the schemas of `values` (sent: any of them; answered: every one) the catalogue's."""
    document = json.loads(text)
    schemas = document["components"]["schemas"]
    sent = schemas["RulesInput"]["properties"]["values"]["anyOf"][0]
    sent["properties"] = values_schema()
    answered = schemas["Rules"]["properties"]["values"]
    answered["properties"] = values_schema()
    answered["required"] = list(rules.VALUE_KEYS)
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    for path in FILES:
        path.write_text(written(path.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"Wrote the values table of {path.relative_to(ROOT)}")
    OPENAPI.write_text(openapi_written(OPENAPI.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"Wrote the schemas of values in {OPENAPI.relative_to(ROOT)}")
