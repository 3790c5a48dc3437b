"""Write the table of values in docs/rules.md (§7) and docs/api.md ("Table rules") from the rule catalogue.

Each table sits between two marker lines; everything else in the files is written by hand.
tests/test_rule_docs.py fails when a file differs from what this writes.

Run after any change to scorepad/rules/catalogue.py:  .venv/bin/python scripts/rule_docs.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorepad import rules  # noqa: E402

COMMAND = ".venv/bin/python scripts/rule_docs.py"
FILES = (ROOT / "docs" / "rules.md", ROOT / "docs" / "api.md")
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


if __name__ == "__main__":
    for path in FILES:
        path.write_text(written(path.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"Wrote the values table of {path.relative_to(ROOT)}")
