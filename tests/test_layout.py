"""The code's shape, checked: no function over MOST_LINES lines, and every module where the docs say it is.

The layers themselves (who imports whom) are import-linter's contracts in pyproject.toml, run by scripts/test.sh
(`lint-imports`); the types are mypy's, run there too."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorepad"
MOST_LINES = 60  # a function's lines from its `def` line to its last, docstring and blank lines included


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def functions(tree: ast.AST, prefix: str = "") -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function in a module, methods and nested functions included, by qualified name."""
    found = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append((prefix + node.name, node))
            found += functions(node, f"{prefix}{node.name}.<locals>.")
        elif isinstance(node, ast.ClassDef):
            found += functions(node, f"{prefix}{node.name}.")
        else:
            found += functions(node, prefix)
    return found


def lengths() -> dict[tuple[str, str], int]:
    """Each function's lines, from its `def` (after any decorator) to its last line."""
    return {
        (module_name(path), name): node.end_lineno - node.lineno + 1
        for path in sorted(PACKAGE.rglob("*.py"))
        for name, node in functions(ast.parse(path.read_text(encoding="utf-8")))
        if node.end_lineno is not None
    }


def test_the_measure_counts_from_def_to_the_last_line():
    tree = ast.parse(
        "@decorated\ndef f():\n    '''Doc.'''\n\n    return 1\n\n\nclass C:\n    def g(self):\n        pass\n"
    )
    measured = {name: node.end_lineno - node.lineno + 1 for name, node in functions(tree)}
    assert measured == {"f": 4, "C.g": 2}


def test_no_function_is_over_60_lines():
    over = {key: lines for key, lines in lengths().items() if lines > MOST_LINES}
    assert over == {}, f"split these (at most {MOST_LINES} lines from def to the last line): {over}"


def modules() -> list[str]:
    """The package's modules and subpackages, as the docs name them: scorepad/web.py, scorepad/rules/ ..."""
    return sorted(
        f"scorepad/{path.name}" + ("/" if path.is_dir() else "")
        for path in PACKAGE.iterdir()
        if (path.suffix == ".py" and path.name != "__init__.py") or (path / "__init__.py").exists()
    )


def test_the_readme_and_the_architecture_name_every_module():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## Where things are") :]
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = architecture[architecture.index("## Modules") : architecture.index("## Imports go one way")]
    for module in modules():
        stem = module.removesuffix("/").removesuffix(".py")
        assert re.search(rf"\b{re.escape(stem)}(\.py|/)", layout), f"README's layout does not name {module}"
        assert re.search(rf"`{re.escape(stem)}(\.py|/)", table), f"docs/architecture.md's table does not name {module}"


def test_no_browser_test_waits_on_an_async_predicate():
    """Playwright's wait_for_function does not await a Promise: an async predicate is truthy at once, and the wait
    waits for nothing (a test of the copy kept for offline passed its waits before the copy came, and failed in CI
    one run in ten). Such a wait is written `until(page, lambda: page.evaluate(...), what)`."""
    waits = re.compile(r"wait_for_function\(\s*f?(\"\"\"|\")\s*async\b")
    offenders = [path.name for path in sorted((ROOT / "tests" / "e2e").glob("*.py")) if waits.search(path.read_text())]
    assert not offenders, f"wait_for_function given an async predicate in {offenders}"
